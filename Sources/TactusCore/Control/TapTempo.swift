/// Tap tempo: the player taps the beat on a key and the tempo follows the
/// average interval of the last taps.
///
/// Only taps within `window` (3 s) of the newest one count, so a pause starts a
/// new measurement instead of averaging an old tempo in; at least two taps are
/// needed for one interval. The average is taken over the whole span, first tap
/// to last, so one late tap among many moves the result by little. The result is
/// rounded to the whole BPM, the controller's step: a tapped 119.6 is meant as 120.
public struct TapTempo: Sendable {
    /// How far back a tap still counts, from the newest tap (µs).
    public var window: Int64
    /// At most this many taps are kept (the newest), whatever the tempo.
    public var maximumTaps: Int
    private var taps: [ControlTime] = []

    public init(window: Int64 = 3_000_000, maximumTaps: Int = 16) {
        self.window = window
        self.maximumTaps = max(2, maximumTaps)
        taps.reserveCapacity(self.maximumTaps + 1)
    }

    /// Taps counted now (after the last `tap`).
    public var count: Int { taps.count }

    /// One tap at `time`; the tempo of the taps within the window, or nil while
    /// fewer than two taps (or two taps at the same microsecond) are in it.
    public mutating func tap(at time: ControlTime) -> BPM? {
        // A time before the previous tap (another clock's rounding) starts afresh.
        if let last = taps.last, time < last { taps.removeAll(keepingCapacity: true) }
        taps.append(time)
        taps.removeAll { time - $0 > window }
        if taps.count > maximumTaps { taps.removeFirst(taps.count - maximumTaps) }
        guard taps.count >= 2, let first = taps.first else { return nil }
        let span = time - first
        guard span > 0 else { return nil }
        let beatsPerMinute = 60_000_000 * Double(taps.count - 1) / Double(span)
        return BPM(beatsPerMinute.rounded())
    }

    /// Forgets every tap.
    public mutating func reset() { taps.removeAll(keepingCapacity: true) }
}
