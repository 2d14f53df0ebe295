/// Maps the monotonic clock onto the ALSA queue's real time.
///
/// The queue counts real time from its start in timer periods, which the
/// high-resolution timer measures on CLOCK_MONOTONIC, so the two clocks run at
/// the same rate and differ by an offset: the monotonic time of queue time 0,
/// the `origin`. It is measured by reading the queue's time between two readings
/// of the monotonic clock; the midpoint is the best guess, good to half the round
/// trip, so of a few readings the one with the shortest round trip is taken.
///
/// Re-measured periodically in case the timer drifts (the system timer counts
/// jiffies, which NTP does not slew the way it slews CLOCK_MONOTONIC). A small
/// difference is mostly measurement noise and is followed slowly, so the clock's
/// timestamps never jump by more than a fraction of it; a large one (the queue
/// was restarted) is taken at once.
public struct QueueClockCalibration: Sendable, Hashable {
    /// Monotonic microseconds at queue time 0; nil before the first measurement.
    public private(set) var origin: Double?
    /// The last correction applied, in microseconds.
    public private(set) var lastCorrection: Double = 0

    /// The share of a small measured difference applied per measurement.
    public static let followRate = 0.25
    /// A difference at least this large (µs) is taken at once.
    public static let stepThreshold = 2_000.0

    public init() {}

    /// One reading: monotonic µs just before and just after reading the queue's time.
    public struct Reading: Sendable, Hashable {
        public var before: Int64
        public var queue: Int64
        public var after: Int64

        public init(before: Int64, queue: Int64, after: Int64) {
            self.before = before
            self.queue = queue
            self.after = after
        }

        var roundTrip: Int64 { after - before }
        var origin: Double { Double(before + after) / 2 - Double(queue) }
    }

    /// Updates the origin from a set of readings taken together (the best one counts).
    public mutating func update(with readings: [Reading]) {
        guard let best = readings.min(by: { $0.roundTrip < $1.roundTrip }) else { return }
        let measured = best.origin
        guard let current = origin else {
            origin = measured
            lastCorrection = 0
            return
        }
        let difference = measured - current
        let correction = abs(difference) >= Self.stepThreshold ? difference : difference * Self.followRate
        origin = current + correction
        lastCorrection = correction
    }

    /// Queue time (µs since the queue started) at monotonic time `monotonic` (µs).
    public func queueMicroseconds(atMonotonic monotonic: Double) -> Int64? {
        guard let origin else { return nil }
        return Int64((monotonic - origin).rounded())
    }

    /// Monotonic time (µs) at queue time `queue`.
    public func monotonicMicroseconds(atQueue queue: Int64) -> Double? {
        origin.map { Double(queue) + $0 }
    }
}
