/// How steady a clock's ticks are, over the last intervals: what a clock meter
/// shows (the display's clock row, `tactus clock-meter`). All figures in frames;
/// `milliseconds(_:)` converts at the rate they were measured at.
///
/// An interval of 1.5 expected periods or more is a gap where ticks went missing
/// (a lost MIDI byte leaves one interval of two periods): it counts
/// `round(interval / expected) − 1` missing ticks and stays out of the spread,
/// which would otherwise report a lost byte as jitter.
public struct ClockJitter: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Intervals measured (gaps not counted).
    public let intervals: Int
    /// The mean interval (frames).
    public let meanInterval: Double
    /// The intervals' standard deviation around their mean (frames).
    public let standardDeviation: Double
    /// The largest distance of one interval from the mean (frames).
    public let worstDeviation: Double
    /// How much faster (positive) the clock runs than the expected period: the
    /// mean interval's relative difference, in parts per million.
    public let driftPPM: Double
    /// Ticks missing, from the gaps.
    public let missingTicks: Int
    public let sampleRate: Int

    /// Measures the last `count` intervals of `ticks` (fewer if it holds fewer)
    /// against `expectedFramesPerTick` (a nominal tempo's, or the follower's filtered one).
    /// The JACK cycle measures its clock in once a beat (the display's clock row).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public init(ticks: borrowing TickTimes, lastIntervals count: Int, expectedFramesPerTick expected: Double, sampleRate: Int) {
        precondition(expected > 0 && sampleRate > 0)
        let available = min(count, ticks.count - 1)
        var n = 0, missing = 0
        var sum = 0.0
        for age in 0..<max(available, 0) {
            let interval = Double(ticks.interval(age: age))
            if interval >= 1.5 * expected {
                // `floorToInt64`, not `rounded()`: its rounding rule's type is metadata the real-time check refuses.
                missing += Int(floorToInt64(interval / expected + 0.5)) - 1
            } else {
                sum += interval
                n += 1
            }
        }
        let mean = n > 0 ? sum / Double(n) : 0
        var squares = 0.0, worst = 0.0
        for age in 0..<max(available, 0) {
            let interval = Double(ticks.interval(age: age))
            guard interval < 1.5 * expected else { continue }
            squares += (interval - mean) * (interval - mean)
            worst = max(worst, abs(interval - mean))
        }
        intervals = n
        meanInterval = mean
        standardDeviation = n > 1 ? ClockMath.squareRoot(squares / Double(n - 1)) : 0
        worstDeviation = worst
        driftPPM = n > 0 ? (expected / mean - 1) * 1_000_000 : 0
        missingTicks = missing
        self.sampleRate = sampleRate
    }

    /// `frames` in milliseconds at the measured sample rate.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func milliseconds(_ frames: Double) -> Double { frames * 1_000 / Double(sampleRate) }

    /// The meter's line: "σ 1.15 ms, worst 1.98 ms, +12 ppm, 0 missing".
    public var description: String {
        func ms(_ frames: Double) -> String {
            let hundredths = Int((milliseconds(frames) * 100).rounded())
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms"
        }
        let ppm = Int(driftPPM.rounded())
        return "σ \(ms(standardDeviation)), worst \(ms(worstDeviation)), \(ppm >= 0 ? "+" : "")\(ppm) ppm, \(missingTicks) missing"
    }
}
