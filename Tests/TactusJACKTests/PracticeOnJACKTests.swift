import Foundation
import Testing

extension JACKServerTests {
    /// The practice tools on a real (private, dummy) jackd: `tactus run` with
    /// klick's speed trainer after a count-in, and with the gap trainer, recorded
    /// click by click and clock by clock.
    @Suite struct PracticeOnJACK {
        static let sampleRate = 48_000.0

        static func session() throws -> SessionResult {
            try SessionCache.shared.session("practice") {
                try Session.record(period: 256, seconds: 30, metronomes: [
                    // 80 to 120 quarter notes, a BPM faster every 2 bars (klick's form), one bar counted in.
                    MetronomeSpec(name: "trainer", arguments: ["80-120/2", "--count-in", "1"], isTactus: true),
                    // 40 bars of 4/4 at 480 in 20 s: three bars heard, one silent.
                    MetronomeSpec(name: "gap", arguments: ["--bpm", "480", "--gap", "3/1"], isTactus: true),
                ])
            }
        }

        @Test("Count-in then 80-120/2: Start on the downbeat after the count-in; each step on a bar line; 24 ticks a beat at each tempo")
        func trainerAfterCountIn() throws {
            let s = try Self.session()
            let clicks = s.recording.clicks(port: 1)
            let midi = s.recording.midi(port: 1)
            let start = try #require(midi.first { $0.bytes == [0xFA] }, "no Start: \(s.messages["trainer"] ?? "")")
            let ticks = s.recording.ticks(port: 1)
            // The count-in: 4 clicks at 80, no clock before Start, Start on the 5th click's frame with the first tick.
            #expect(clicks.count > 30)
            let countIn = Array(clicks.prefix(5))
            for i in 0..<4 { #expect(abs(Double(countIn[i + 1] - countIn[i]) - Self.sampleRate * 60 / 80) <= 1, "count-in beat \(i + 1)") }
            #expect(start.frame == countIn[4])
            #expect(ticks.first == start.frame)
            #expect(!midi.contains { $0.bytes == [0xF8] && $0.frame < start.frame })
            // Bars from Start: 96 ticks each, at 80 + bar / 2 quarter notes; every bar line a click on its tick.
            let bars = (ticks.count - 1) / 96
            #expect(bars >= 6, "only \(bars) bars recorded")
            print("trainer on JACK: Start at frame \(start.frame) = count-in's 5th click \(countIn[4]); \(bars) bars, "
                  + (0..<bars).map { "\(80 + $0 / 2): \(ticks[$0 * 96 + 96] - ticks[$0 * 96])" }.joined(separator: ", ") + " frames a bar")
            for bar in 0..<bars {
                let tempo = 80.0 + Double(bar / 2)
                let first = ticks[bar * 96], last = ticks[bar * 96 + 96]
                #expect(abs(Double(last - first) - 4 * Self.sampleRate * 60 / tempo) <= 1, "bar \(bar + 1) at \(tempo)")
                #expect(clicks.contains(first), "bar \(bar + 1): no click on its first tick")
                // Each tick of the bar on the bar's own grid: the interval changes on the bar line, not before.
                for k in 1..<96 {
                    let ideal = Double(first) + Double(k) * Self.sampleRate * 60 / tempo / 24
                    #expect(abs(Double(ticks[bar * 96 + k]) - ideal) <= 1, "bar \(bar + 1) tick \(k)")
                }
            }
        }

        @Test("Gap 3/1 over 40 bars: exactly the 4th, 8th … bars silent on click; the clock unbroken")
        func gapThreeOne() throws {
            let s = try Self.session()
            let ticks = s.recording.ticks(port: 2)
            let clicks = s.recording.clicks(port: 2)
            try #require(ticks.count >= 40 * 96, "\(ticks.count) ticks: \(s.messages["gap"] ?? "")")
            let fit = GridFit(ticks, interval: Self.sampleRate * 60 / 480 / 24)
            #expect(fit.gaps == 0, "\(fit)")
            #expect(fit.maxError <= 0.5, "\(fit)")
            let barLines = stride(from: 0, to: 40 * 96 + 1, by: 96).map { ticks[$0] }
            print("gap on JACK: \(ticks.count) ticks (\(fit)); clicks a bar: "
                  + (1...40).map { bar in "\(clicks.filter { $0 >= barLines[bar - 1] && $0 < barLines[bar] }.count)" }.joined())
            for bar in 1...40 {
                let heard = clicks.filter { $0 >= barLines[bar - 1] && $0 < barLines[bar] }.count
                #expect(heard == (bar % 4 == 0 ? 0 : 4), "bar \(bar)")
            }
        }
    }
}
