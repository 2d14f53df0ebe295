import Testing
@testable import TactusCore

/// The clock meter's figures (docs/DESIGN.md §9.1).
@Suite("Clock jitter: interval spread, worst deviation, drift, missing ticks")
struct ClockJitterTests {
    static func ring(_ frames: [Int64]) -> TickTimes {
        var ticks = TickTimes(capacity: 256)
        for f in frames { ticks.append(f) }
        return ticks
    }

    /// ±2 ms uniform on every tick: an interval is the difference of two arrivals,
    /// so its spread is √2 × 1.155 = 1.63 ms, and its worst under 4 ms.
    @Test func uniformJitterOfTwoMillisecondsGivesIntervalsSpreadBySqrtTwoTimesIt() {
        let truth = ClockFeed.truth(count: 241) { _ in 120 }
        let ticks = Self.ring(ClockFeed.jittered(truth, milliseconds: 2, seed: 11))
        let jitter = ClockJitter(ticks: ticks, lastIntervals: 240, expectedFramesPerTick: 1_000, sampleRate: 48_000)
        print("meter on ±2 ms jitter: \(jitter)")
        #expect(jitter.intervals == 240 && jitter.missingTicks == 0)
        #expect(abs(jitter.milliseconds(jitter.standardDeviation) - 1.633) < 0.15)
        #expect(jitter.milliseconds(jitter.worstDeviation) > 2.5 && jitter.milliseconds(jitter.worstDeviation) < 4)
        #expect(abs(jitter.driftPPM) < 1_000)
    }

    /// A clock 1 % fast against 120 BPM (990 frames a tick for 1000: 10 101 ppm), one
    /// tick lost in transit: the drift is its own, the lost tick is counted and its
    /// two-period interval left out of the spread.
    @Test func driftAndAMissingTickAreMeasuredApart() {
        var frames = (0..<100).map { Int64($0) * 990 }
        frames.remove(at: 50)
        let jitter = ClockJitter(ticks: Self.ring(frames), lastIntervals: 200, expectedFramesPerTick: 1_000, sampleRate: 48_000)
        #expect(jitter.intervals == 97 && jitter.missingTicks == 1)
        #expect(abs(jitter.driftPPM - 10_101) < 1)
        #expect(jitter.standardDeviation == 0 && jitter.worstDeviation == 0)
        #expect(jitter.description == "σ 0.00 ms, worst 0.00 ms, +10101 ppm, 1 missing")
    }

    /// Only the last intervals asked for are measured.
    @Test func onlyTheLastIntervalsCount() {
        let frames: [Int64] = [0, 2_000, 3_000, 4_000, 5_010, 6_000]
        let jitter = ClockJitter(ticks: Self.ring(frames), lastIntervals: 2, expectedFramesPerTick: 1_000, sampleRate: 48_000)
        #expect(jitter.intervals == 2 && jitter.missingTicks == 0)
        #expect(jitter.meanInterval == 1_000 && jitter.worstDeviation == 10)
    }
}
