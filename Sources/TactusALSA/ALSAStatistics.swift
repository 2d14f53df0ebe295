import Synchronization

/// Counters of the ALSA threads, for the status display, the tests and the
/// benchmark. Written by one thread each, read by anyone.
public final class ALSAStatistics: Sendable {
    /// Clock-stream events written to the queue.
    public let eventsScheduled = Atomic<Int>(0)
    /// Events whose time had already passed when written (the kernel sends them at once).
    public let lateEvents = Atomic<Int>(0)
    /// The least time (µs) any event had left before its due time when written; negative
    /// when late. Tells how much of the look-ahead the threads' wake-up latency uses.
    public let smallestMargin = Atomic<Int>(Int.max)
    /// Writes the kernel refused for a moment because our output pool was full; retried.
    public let outputRetries = Atomic<Int>(0)
    /// Events not sent because they were due more than 250 ms ago.
    public let droppedEvents = Atomic<Int>(0)
    /// JACK cycles whose frame↔time point the clock thread held out of its filter as
    /// disturbed (after an xrun), and the discontinuities it reset the mapping for.
    public let suspectCycles = Atomic<Int>(0)
    public let frameClockResets = Atomic<Int>(0)
    /// Events lost to an error other than a full pool.
    public let outputErrors = Atomic<Int>(0)
    /// The last queue-clock correction, in microseconds (how far the queue had drifted).
    public let lastCalibrationCorrection = Atomic<Int>(0)
    /// Controller messages handed to the control thread.
    public let inputMessages = Atomic<Int>(0)
    /// Events skipped because Tactus does not act on them (SysEx, clock, notices).
    public let ignoredInput = Atomic<Int>(0)
    /// Events skipped because a field was outside MIDI's range.
    public let malformedInput = Atomic<Int>(0)
    /// `clock_in` (`--alsa-clock-from`): beat-clock messages handed to the JACK
    /// cycle, Song Positions out of range, and events that were no beat clock.
    public let clockInMessages = Atomic<Int>(0)
    public let clockInMalformed = Atomic<Int>(0)
    public let clockInIgnored = Atomic<Int>(0)
    /// Times the kernel's input FIFO overflowed (events lost before we could read them).
    public let inputOverruns = Atomic<Int>(0)

    public init() {}

    /// The clock thread's account, one line, said when the clock stops: what a user
    /// (or a test) needs to tell whether the ALSA clock lost or delayed anything.
    public var clockSummary: String {
        "ALSA clock: \(eventsScheduled.load(ordering: .relaxed)) events sent (\(lateEvents.load(ordering: .relaxed)) late), "
            + "\(droppedEvents.load(ordering: .relaxed)) dropped, \(outputErrors.load(ordering: .relaxed)) lost to errors; "
            + "\(suspectCycles.load(ordering: .relaxed)) disturbed JACK cycles held out, \(frameClockResets.load(ordering: .relaxed)) frame-clock resets"
    }
}
