import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--clock-in --transport master` through the real JACK cycle on the
/// simulated process loop: the incoming clock is the time source and Tactus's
/// timebase callback publishes the grid it follows (docs/DESIGN.md §9), so a
/// JACK transport follower hears the clock's beats where Tactus clicks them.
@Suite struct SimulatedClockInMasterTests {
    /// A clock with jitter: Start, then 8 beats at 120 BPM and 8 at 140, each
    /// tick's frame its true frame plus a jitter uniform in ±1 ms (±48 frames at
    /// 48 kHz, a USB MIDI interface's), drawn from a fixed linear congruential
    /// sequence so every run is the same.
    static func jitteredClock(first: UInt32) -> [(jackFrame: UInt32, bytes: [UInt8])] {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func jitter() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * 48
        }
        var input: [(jackFrame: UInt32, bytes: [UInt8])] = [(first, [0xFA])]
        var frame = Double(first) + 500
        for k in 0..<(16 * 24) {
            input.append((UInt32((frame + jitter()).rounded()), [0xF8]))
            frame += 48_000.0 * 60 / Double((k < 8 * 24 ? 120 : 140) * 24)
        }
        return input
    }

    /// Every click against the BBT published for the cycle it sounds in (the
    /// timebase callback runs after each cycle, for the next, as jack2 calls it):
    /// where that BBT's `tick_double` and `beats_per_minute` put tick 0 of its
    /// beat or of the next, the beat a follower plays. Each within ±0.5 frame
    /// (the click's own rounding to its frame), through the jitter and the step
    /// to 140, the accent on the BBT's beat 1. The same every run.
    @Test func thePublishedBBTsBeatsAreTheClicksOfAJitteredClockThroughATempoStep() throws {
        func run() throws -> (errors: [(frame: UInt32, error: Double, accentRight: Bool)], onsets: Int, clicksWithoutBBT: Int) {
            var options = SimulatedClockInTests.options()
            options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(100))
            let loop = try SimulatedProcessLoop(options: options, mode: .master)
            loop.run(cycles: 20)
            let clock = Self.jitteredClock(first: loop.jackFrame + 1000)
            loop.clockInput = clock
            loop.run(untilJackFrame: clock.last!.jackFrame + 256)
            let rolling = Set(loop.cycles.filter { $0.state.rawValue == JackTransportRolling.rawValue }.map(\.jackFrame))
            var errors: [(frame: UInt32, error: Double, accentRight: Bool)] = []
            var without = 0
            for onset in loop.onsets {
                let cycle = onset.jackFrame - (onset.jackFrame - loop.cycles[0].jackFrame) % 256
                guard rolling.contains(cycle), let bbt = loop.published.last(where: { $0.jackFrame == cycle })?.position else { without += 1; continue }
                let framesPerBeat = 48_000 * 60 / bbt.beats_per_minute
                let here = Double(cycle) - bbt.tick_double / 1920 * framesPerBeat
                let candidates = [here, here + framesPerBeat]
                let next = abs(candidates[1] - Double(onset.jackFrame)) < abs(candidates[0] - Double(onset.jackFrame))
                let beat = next ? (Int(bbt.beat) % Int(bbt.beats_per_bar)) + 1 : Int(bbt.beat)
                errors.append((onset.jackFrame, Double(onset.jackFrame) - candidates[next ? 1 : 0], onset.accent == (beat == 1)))
            }
            return (errors, loop.onsets.count, without)
        }
        let take = try run()
        let worst = take.errors.map { abs($0.error) }.max() ?? .infinity
        print("simulated clock in as timebase master, ±1 ms jitter, 120 → 140 BPM: \(take.onsets) clicks, \(take.errors.count) against their cycle's BBT, "
              + "worst \(worst) frames; errors \(take.errors.map { String(format: "%.2f", $0.error) })")
        // The transport rolls from the cycle after Tactus's start (jack2 takes a start at the cycle's end): the first click or two have no rolling BBT.
        #expect(take.clicksWithoutBBT <= 2, "\(take.clicksWithoutBBT) clicks before the transport rolled")
        #expect(take.errors.count >= 13, "\(take.errors.count) clicks judged of \(take.onsets)")
        #expect(worst <= 0.5, "\(take.errors.filter { abs($0.error) > 0.5 }.map { "\($0.frame): \($0.error)" })")
        #expect(take.errors.allSatisfy { $0.accentRight }, "accents off the BBT's beat 1: \(take.errors.filter { !$0.accentRight }.map(\.frame))")
        let again = try run()
        #expect(again.errors.map(\.error) == take.errors.map(\.error))
    }
}
