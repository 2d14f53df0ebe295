import TactusCore

/// The clock thread's decisions, apart from the sequencer so they can be tested
/// without one: when an event from the clock ring is due on the ALSA queue,
/// whether it goes out now, late, or not at all.
///
/// Frames become monotonic times through one `FrameTimeFilter` fed the points
/// the JACK cycle publishes, so a cycle whose times jack2 disturbed (after an
/// xrun) mis-times nothing. While the filter holds a suspect point, events wait
/// (at most `holdLimit`) for the next cycle to tell whether it was a stray point
/// or a real discontinuity; either way they then leave on the right line.
///
/// A source the filter cannot lock to (resets one after another: a server
/// overloaded for good, as jackd on an emulated CPU) is taken as it comes: each event mapped by the latest cycle's
/// own numbers, as JACK gives them, until the filter has held for a second.
///
/// The rules, which the tests state: a tick is never dropped unless it is
/// older than `maximumLateness`, a transport message never; a late one is stamped with its own time,
/// which the kernel, finding it past, delivers at once; stamps never decrease,
/// so events keep the engine's order (the kernel keeps equal-time events in
/// arrival order, seq_prioq.c); and the caller takes an event from the ring only
/// once it was written or dropped, so none is sent twice.
struct ClockDispatcher {
    /// Events older than this (µs) are dropped, not sent: the engine's own limit for
    /// late MIDI, the one `MaximumLateness` (a quarter second).
    ///
    /// "Older" is measured in the server's own time: how far the latest cycle's
    /// frame is past the event's. The engine never emits a tick later than this
    /// after its frame, so only an event that waited that long in the ring (this
    /// thread stopped, or started long after the cycles) goes; a server whose
    /// reported times lag its cycles (jack2 overloaded) makes ticks late, not lost.
    static let maximumLateness = Double(MaximumLateness.microseconds)

    /// The longest events wait for a suspect cycle to be confirmed or refuted (µs):
    /// the filter needs `confirmations − 1` more cycles, 11 ms at 256 frames and
    /// 43 ms at 1024 frames, 48 kHz.
    static let holdLimit: Int64 = 100_000

    enum Action: Equatable {
        /// Not yet: the frame↔time mapping is unsettled (or unknown).
        case hold
        /// Due more than `maximumLateness` ago.
        case drop
        /// Write it stamped `queueMicroseconds`; `late` when that time has passed.
        case schedule(queueMicroseconds: Int64, late: Bool)
    }

    /// How long the filter must go without a reset before it is trusted again (µs).
    static let relockTime: Int64 = 1_000_000

    let lookAhead: Double
    private(set) var filter = FrameTimeFilter()
    private var latest: FrameClockReference.Point?
    /// Monotonic µs of the filter's last reset, and whether the one before it was within `relockTime`.
    private var lastReset: Int64 = .min / 2
    private var resetsInARow = false
    /// The stamp of the last event written (µs on the queue).
    private(set) var lastScheduled: Int64 = 0
    /// Monotonic µs at which the filter last became unsettled.
    private var unsettledSince: Int64 = 0

    init(lookAheadMicroseconds: Double) { lookAhead = lookAheadMicroseconds }

    /// Feeds the latest published point (the same one again is ignored) at monotonic time `now`.
    @discardableResult
    mutating func observe(_ point: FrameClockReference.Point, now: Int64) -> FrameTimeFilter.Update {
        let wasSettled = filter.isSettled
        let update = filter.update(frame: point.frame, microseconds: Double(point.microseconds), microsecondsPerFrame: point.microsecondsPerFrame)
        latest = point
        if wasSettled && !filter.isSettled { unsettledSince = now }
        if update == .reset {
            resetsInARow = now - lastReset < Self.relockTime
            lastReset = now
        }
        return update
    }

    /// True while the filter cannot lock: reset twice within `relockTime` and not
    /// quiet for `relockTime` since (a source that never settles resets every
    /// `maximumSuspect` cycles at the latest).
    func isUnlocked(now: Int64) -> Bool {
        resetsInARow && now - lastReset < Self.relockTime
    }

    /// What to do with an event at engine frame `frame`, at monotonic time `now`,
    /// the queue's time 0 being monotonic `origin`.
    /// Only clock ticks are ever dropped: a Start, Stop, Continue or Song Position
    /// goes out however late (the engine's rule too), or a slave would stay stopped.
    func action(forFrame frame: Int64, isClockTick: Bool = true, now: Int64, origin: Double) -> Action {
        guard let filtered = filter.microseconds(atFrame: frame), let latest else { return .hold }
        if !filter.isSettled && now - unsettledSince < Self.holdLimit { return .hold }
        let time = isUnlocked(now: now) ? latest.microseconds(atFrame: frame) : filtered
        let age = Double(latest.frame - frame) * (filter.microsecondsPerFrame ?? latest.microsecondsPerFrame)
        if isClockTick && age > Self.maximumLateness { return .drop }
        let due = time + lookAhead
        let stamp = max(Int64((due - origin).rounded()), lastScheduled, 0)
        return .schedule(queueMicroseconds: stamp, late: Double(stamp) < Double(now) - origin)
    }

    /// The event stamped `queueMicroseconds` was written.
    mutating func scheduled(_ queueMicroseconds: Int64) { lastScheduled = queueMicroseconds }
}
