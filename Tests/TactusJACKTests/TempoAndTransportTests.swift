import Foundation
import Testing
import TactusCore

extension JACKServerTests {
    /// Tempo changes and transport commands from the control thread, as the
    /// recorded clock shows them.
    @Suite struct TempoAndTransport {
        /// Harness lines "tempo 160 jack-frame 123456".
        static func requests(_ log: String, _ kind: String) -> [(value: String, frame: Int64)] {
            log.split(separator: "\n").compactMap { line in
                let f = line.split(separator: " ")
                guard f.count == 4, f[0] == kind, let frame = Int64(f[3]) else { return nil }
                return (String(f[1]), frame)
            }
        }

        @Test func tempoChangeShowsInTheClockWithinOneCyclePlusOneTick() throws {
            let period = 256
            let s = try SessionCache.shared.session("tempo") {
                try Session.record(period: period, seconds: 6, metronomes: [
                    MetronomeSpec(name: "tempo", arguments: ["--bpm", "133", "--tempo-at", "2:160", "--tempo-at", "3.7:97.3"]),
                ])
            }
            let ticks = s.recording.ticks()
            let requests = Self.requests(s.harnessLog["tempo"] ?? "", "tempo")
            #expect(requests.count == 2, "\(s.harnessLog)")
            var oldTempo = 133.0
            for (index, request) in requests.enumerated() {
                let newTempo = Double(request.value)!
                let oldTick = 48000 * 60 / oldTempo / 24, newTick = 48000 * 60 / newTempo / 24
                // The first tick whose next interval is the new tempo's: the re-anchor point.
                guard let k = ticks.indices.dropLast().first(where: { ticks[$0] >= request.frame - Int64(period) && abs(Double(ticks[$0 + 1] - ticks[$0]) - newTick) <= 1 }) else {
                    Issue.record("no tick at \(newTempo) BPM after frame \(request.frame)")
                    continue
                }
                let delay = Double(ticks[k] - request.frame)
                // The request's frame is the control thread's `jack_frame_time`, an
                // estimate from the host's clock: judged against the cycle that took
                // it only where the server kept to that clock (the rule itself, the
                // next cycle and the next tick, is EngineTimingTests' and the
                // simulated tier's, exact).
                if s.recording.leftItsClock(from: request.frame - Int64(2 * period), to: ticks[k]) {
                    print("tempo \(newTempo): the server left its clock around the request; new tempo from \(delay) frames after it, not judged")
                } else {
                    #expect(delay <= Double(period) + oldTick, "tempo \(newTempo): new tempo from \(delay) frames after the request (cycle \(period) + tick \(oldTick))")
                }
                #expect(abs(Double(ticks[k] - ticks[k - 1]) - oldTick) <= 1, "the tick before is still at the old tempo")
                // From there on, the new grid (until the next request).
                let end = index + 1 < requests.count ? requests[index + 1].frame - Int64(period) : Int64.max
                let segment = ticks[k...].filter { $0 < end }
                let fit = GridFit(Array(segment), interval: newTick)
                #expect(fit.maxError <= 0.5 && fit.gaps == 0 && fit.count > 20, "\(newTempo) BPM: \(fit)")
                oldTempo = newTempo
            }
        }

        /// `--start-stopped`, then start, stop, locate to bar 3, continue, on the
        /// control thread: the clock says Start, Stop + Song Position, Song
        /// Position of bar 3, Continue; clicks only while running, bar 3's
        /// downbeat accented.
        @Test func transportStartStopLocateContinueFromTheControlThread() throws {
            let s = try SessionCache.shared.session("transport") {
                try Session.record(period: 256, seconds: 5.5, metronomes: [
                    MetronomeSpec(name: "transport", arguments: ["--bpm", "120", "--start-stopped", "--transport-at", "1:start",
                                                                 "--transport-at", "2.6:stop", "--transport-at", "3:locate=3", "--transport-at", "3.5:continue"]),
                ])
            }
            let log = s.harnessLog["transport"] ?? ""
            let commands = Self.requests(log, "transport")
            #expect(commands.count == 4, "\(log)")
            let midi = s.recording.midi()
            let nonClock = midi.filter { $0.bytes != [0xF8] }.map(\.bytes)
            // Stop after about 1.6 s of 120 BPM (12.8 sixteenths): Stop, then Song
            // Position of the whole MIDI beats (6 clocks each) played, counted from
            // the recording; locate to bar 3: position 32; Continue: position 32
            // again, then 0xFB; SIGTERM: Stop, last.
            let startFrame = midi.first { $0.bytes == [0xFA] }?.frame ?? 0, stopFrame = midi.first { $0.bytes == [0xFC] }?.frame ?? 0
            let clocksPlayed = s.recording.ticks().filter { $0 >= startFrame && $0 < stopFrame }.count
            #expect((72...80).contains(clocksPlayed), "about 1.6 s at 120 BPM: \(clocksPlayed) clocks")
            let position = UInt8(clocksPlayed / 6)
            #expect(nonClock == [[0xFA], [0xFC], [0xF2, position, 0], [0xF2, 32, 0], [0xF2, 32, 0], [0xFB], [0xFC]], "\(nonClock)")
            // Nothing before Start; no clicks between Stop and Continue.
            let start = midi.first { $0.bytes == [0xFA] }!.frame
            let stop = midi.first { $0.bytes == [0xFC] }!.frame
            let resume = midi.first { $0.bytes == [0xFB] }!.frame
            #expect(midi.first!.frame == start && s.recording.clicks().first! == start)
            #expect(!s.recording.clicks().contains { $0 > stop + 2400 && $0 < resume }, "silent while stopped")
            #expect(!s.recording.ticks().contains { $0 > stop && $0 < resume }, "no clock while stopped")
            let firstAfter = s.recording.onsets.first { $0.frame >= resume }!
            #expect(firstAfter.frame == resume && firstAfter.value > 0.8, "bar 3 starts with the accent: \(firstAfter)")
        }
    }
}
