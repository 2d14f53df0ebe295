import Testing
import TactusCore

/// The frame↔time filter on synthetic JACK cycles: 256 frames at 48 kHz
/// (20.833 µs a frame, a cycle every 5.333 ms), each cycle giving its first
/// frame, its time and a rate estimate, as `jack_get_cycle_times` does.
@Suite("Frame↔time filter: steady, jittered, an xrun, a jump, a new sample rate")
struct FrameTimeFilterTests {
    static let period: Int64 = 256
    static let rate = 1_000_000.0 / 48_000

    /// Feeds `cycles` cycles from `first`, the time of frame f being `time(f)`.
    static func feed(_ filter: inout FrameTimeFilter, cycles: ClosedRange<Int64>, rate: Double = rate, time: (Int64) -> Double) -> [FrameTimeFilter.Update] {
        cycles.map { k in
            let f = k * period
            return filter.update(frame: f, microseconds: time(f), microsecondsPerFrame: rate)
        }
    }

    /// The kind of an update and its error, compared to the µs's millionth.
    static func kind(_ update: FrameTimeFilter.Update) -> String {
        switch update {
        case .started: "started"
        case .tracked(let e): abs(e) < 1e-6 ? "tracked 0" : "tracked \(Int(e.rounded()))"
        case .suspect(let e): "suspect \(Int(e.rounded()))"
        case .reset: "reset"
        case .ignored: "ignored"
        }
    }

    @Test func steadyCyclesMapEveryFrameExactly() {
        var filter = FrameTimeFilter()
        let origin = 1_000_000.0
        let updates = Self.feed(&filter, cycles: 0...2_000) { origin + Double($0) * Self.rate }
        #expect(updates.first == .started)
        #expect(updates.dropFirst().allSatisfy { Self.kind($0) == "tracked 0" })
        #expect(filter.isSettled)
        #expect(filter.resets == 0)
        for f: Int64 in [0, 100, 512_000, 512_333, 600_000] {
            #expect(abs(filter.microseconds(atFrame: f)! - (origin + Double(f) * Self.rate)) < 1e-6)
        }
    }

    /// ±100 µs of wake-up jitter on every cycle's time: after the first second the
    /// mapping stays within a few tens of µs of the true line.
    @Test func wakeUpJitterOfAHundredMicrosecondsIsAveragedOut() {
        var filter = FrameTimeFilter()
        // SplitMix64 (PressureInputRobustnessTests): the same jitter every run.
        var jitter = SplitMix64(state: 14)
        func uniform() -> Double { Double(jitter.next() >> 11) / Double(1 << 53) }
        var worst = 0.0, sumOfSquares = 0.0, count = 0.0
        for k: Int64 in 0...(10 * 48_000 / Self.period) {
            let f = k * Self.period
            let truth = Double(f) * Self.rate
            filter.update(frame: f, microseconds: truth + (uniform() * 200 - 100), microsecondsPerFrame: Self.rate * (1 + (uniform() - 0.5) * 0.002))
            guard f >= 48_000 else { continue }
            let error = filter.microseconds(atFrame: f + Self.period)! - (truth + Double(Self.period) * Self.rate)
            worst = max(worst, abs(error))
            sumOfSquares += error * error
            count += 1
        }
        let rms = (sumOfSquares / count).squareRoot()
        print("frame↔time filter, ±100 µs jitter: mapping error rms \(Int(rms.rounded())) µs, max \(Int(worst.rounded())) µs over 9 s")
        #expect(rms < 20)
        #expect(worst < 50)
        #expect(filter.resets == 0)
    }

    /// A sound card 50 ppm fast whose first rate estimates said nominal: the loop learns the rate.
    @Test func theLoopLearnsTheCardsRealRate() {
        var filter = FrameTimeFilter()
        let real = Self.rate * (1 - 50e-6)
        _ = Self.feed(&filter, cycles: 0...(20 * 48_000 / Self.period)) { Double($0) * real }
        let f: Int64 = 20 * 48_000 + 4_800
        #expect(abs(filter.microseconds(atFrame: f)! - Double(f) * real) < 1)
        #expect(abs(filter.microsecondsPerFrame! / real - 1) < 1e-6)
    }

    /// jack2 after an xrun: one cycle's `current_usecs` 6 ms off and its period
    /// estimate 30 % off, the next cycle's estimate off too. The mapping moves by
    /// less than 50 µs (here: not at all), and nothing resets.
    @Test func oneDisturbedCycleMovesNothing() {
        var filter = FrameTimeFilter()
        let line = { (f: Int64) in 5_000.0 + Double(f) * Self.rate }
        _ = Self.feed(&filter, cycles: 0...400, time: line)
        let probe: Int64 = 402 * Self.period + 100
        let before = filter.microseconds(atFrame: probe)!
        #expect(Self.kind(filter.update(frame: 401 * Self.period, microseconds: line(401 * Self.period) + 6_000, microsecondsPerFrame: Self.rate * 1.3))
                == "suspect 6000")
        #expect(!filter.isSettled)
        #expect(filter.microseconds(atFrame: probe)! == before)
        // Back on the line: the period estimate alone is no evidence of anything.
        #expect(Self.kind(filter.update(frame: 402 * Self.period, microseconds: line(402 * Self.period), microsecondsPerFrame: Self.rate * 0.8))
                == "tracked 0")
        _ = Self.feed(&filter, cycles: 403...500, time: line)
        #expect(filter.isSettled)
        #expect(filter.resets == 0)
        #expect(abs(filter.microseconds(atFrame: probe)! - before) < 50)
        #expect(abs(filter.microseconds(atFrame: probe)! - line(probe)) < 1e-6)
    }

    /// Two disturbed cycles in a row that disagree with each other are two strays, not a new line.
    @Test func twoStraysThatDisagreeDoNotReset() {
        var filter = FrameTimeFilter()
        let line = { (f: Int64) in Double(f) * Self.rate }
        _ = Self.feed(&filter, cycles: 0...400, time: line)
        filter.update(frame: 401 * Self.period, microseconds: line(401 * Self.period) - 4_000, microsecondsPerFrame: Self.rate)
        filter.update(frame: 402 * Self.period, microseconds: line(402 * Self.period) + 3_000, microsecondsPerFrame: Self.rate)
        _ = Self.feed(&filter, cycles: 403...420, time: line)
        #expect(filter.resets == 0)
        #expect(abs(filter.microseconds(atFrame: 421 * Self.period)! - line(421 * Self.period)) < 1e-6)
    }

    /// Skipped cycles (the server ran, Tactus' callback did not): frames and time moved
    /// together, so the loop simply takes a longer step.
    @Test func skippedCyclesAreNoDiscontinuity() {
        var filter = FrameTimeFilter()
        let line = { (f: Int64) in Double(f) * Self.rate }
        _ = Self.feed(&filter, cycles: 0...400, time: line)
        #expect(Self.kind(filter.update(frame: 413 * Self.period, microseconds: line(413 * Self.period), microsecondsPerFrame: Self.rate)) == "tracked 0")
        #expect(filter.resets == 0)
    }

    /// A server restart: the engine's frames go on where they were (`FrameTimeline.resume`)
    /// but 2 s later. The third cycle on the new line confirms it: a reset, exact from there.
    @Test func aServerRestartResetsTheMappingOnItsThirdCycle() {
        var filter = FrameTimeFilter()
        _ = Self.feed(&filter, cycles: 0...400) { Double($0) * Self.rate }
        let later = { (f: Int64) in 2_000_000 + Double(f) * Self.rate }
        let updates = Self.feed(&filter, cycles: 401...405, time: later)
        #expect(updates.map(Self.kind) == ["suspect 2000000", "suspect 2000000", "reset", "tracked 0", "tracked 0"])
        #expect(filter.resets == 1)
        #expect(filter.isSettled)
        #expect(abs(filter.microseconds(atFrame: 500 * Self.period)! - later(500 * Self.period)) < 1e-6)
    }

    /// jack2's timed driver re-anchoring after a 68 ms stall of a synchronous graph:
    /// the frame counter went on by one period while 68 ms passed. A reset.
    @Test func timeTheFramesDoNotExplainResets() {
        var filter = FrameTimeFilter()
        _ = Self.feed(&filter, cycles: 0...400) { Double($0) * Self.rate }
        let shifted = { (f: Int64) in 68_000 + Double(f) * Self.rate }
        _ = Self.feed(&filter, cycles: 401...410, time: shifted)
        #expect(filter.resets == 1)
        #expect(abs(filter.microseconds(atFrame: 411 * Self.period)! - shifted(411 * Self.period)) < 1e-6)
    }

    /// jack2's timed driver re-anchoring after an xrun (13 ms lost) with the three
    /// points that confirm the new line jittering by ±100 µs, as wake-up times do:
    /// the reset moves the line, never the rate (those points show one 1.9 % off),
    /// so a second later the mapping is still within the jitter of the truth.
    @Test func aReanchoringWithJitteredPointsKeepsTheRate() {
        var filter = FrameTimeFilter()
        _ = Self.feed(&filter, cycles: 0...400) { Double($0) * Self.rate }
        let shifted = { (f: Int64) in 13_000 + Double(f) * Self.rate }
        let jitter: [Int64: Double] = [401: 100, 402: 0, 403: -100]
        _ = Self.feed(&filter, cycles: 401...403) { shifted($0) + jitter[$0 / Self.period]! }
        #expect(filter.resets == 1)
        #expect(abs(filter.microsecondsPerFrame! - Self.rate) < 1e-9)
        let oneSecondOn = 403 * Self.period + 48_000
        #expect(abs(filter.microseconds(atFrame: oneSecondOn)! - shifted(oneSecondOn)) <= 150)
    }

    /// A new server at 44.1 kHz: its cycles report 22.676 µs a frame; the mapping
    /// resets to that rate.
    @Test func aSampleRateChangeResetsToTheNewRate() {
        var filter = FrameTimeFilter()
        _ = Self.feed(&filter, cycles: 0...400) { Double($0) * Self.rate }
        let newRate = 1_000_000.0 / 44_100
        let start = 401 * Self.period
        let newLine = { (f: Int64) in 3_000_000 + Double(f - start) * newRate }
        _ = Self.feed(&filter, cycles: 401...420, rate: newRate, time: newLine)
        #expect(filter.resets == 1)
        #expect(abs(filter.microsecondsPerFrame! - newRate) < 1e-9)
        #expect(abs(filter.microseconds(atFrame: 430 * Self.period)! - newLine(430 * Self.period)) < 1e-6)
    }

    /// jack2 under load reports a period 50 % long for seconds; the first two points'
    /// own times set the rate, so the mapping is right from the second, and the reports
    /// that go on disagreeing with the times move nothing.
    @Test func aFirstRateEstimateFiftyPercentOffIsReplacedByWhatTheFirstTwoPointsShow() {
        var filter = FrameTimeFilter()
        let line = { (f: Int64) in 7_000.0 + Double(f) * Self.rate }
        let updates = Self.feed(&filter, cycles: 0...300, rate: Self.rate * 1.5, time: line)
        #expect(updates.map(Self.kind).first == "started")
        #expect(updates.dropFirst(2).allSatisfy { Self.kind($0) == "tracked 0" })
        #expect(filter.resets == 0)
        #expect(abs(filter.microsecondsPerFrame! - Self.rate) < 1e-9)
        #expect(abs(filter.microseconds(atFrame: 48_000)! - line(48_000)) < 1e-6)
    }

    @Test func theSamePointTwiceIsIgnored() {
        var filter = FrameTimeFilter()
        #expect(filter.microseconds(atFrame: 0) == nil)
        #expect(filter.update(frame: 0, microseconds: 10, microsecondsPerFrame: Self.rate) == .started)
        #expect(filter.update(frame: 0, microseconds: 10, microsecondsPerFrame: Self.rate) == .ignored)
        #expect(Self.kind(filter.update(frame: 256, microseconds: 10 + 256 * Self.rate, microsecondsPerFrame: Self.rate)) == "tracked 0")
    }
}
