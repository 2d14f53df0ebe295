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
/// timestamps never jump by more than a fraction of it. A large one is taken
/// whole, but only when the next measurement says the same (the queue was
/// restarted): a single one is a reading of the queue's time while its timer
/// was late, which a short round trip does not reveal (the queue's time moves
/// when its timer runs; seen in the alsa-vm under host load: one measurement
/// 5.4 ms off with a 12 µs round trip, the next back where it was), and taking
/// it would move every stamp and every scheduled event by it until the next
/// measurement (docs/DESIGN.md §9.1).
public struct QueueClockCalibration: Sendable, Hashable {
    /// Monotonic microseconds at queue time 0; nil before the first measurement.
    public private(set) var origin: Double?
    /// The last correction applied, in microseconds.
    public private(set) var lastCorrection: Double = 0
    /// A large difference measured once, waiting for the next measurement to confirm it.
    public private(set) var unconfirmedOrigin: Double?

    /// The share of a small measured difference applied per measurement.
    public static let followRate = 0.25
    /// A difference at least this large (µs) is taken whole, once two measurements in a row agree on it.
    public static let stepThreshold = 2_000.0
    /// How near (µs) the second measurement of a large difference must be to the first to confirm it.
    public static let confirmationTolerance = 500.0

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
        let unconfirmed = unconfirmedOrigin
        unconfirmedOrigin = nil
        var correction = difference * Self.followRate
        if abs(difference) >= Self.stepThreshold {
            guard let unconfirmed, abs(measured - unconfirmed) <= Self.confirmationTolerance else {
                unconfirmedOrigin = measured
                lastCorrection = 0
                return
            }
            correction = difference
        }
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
