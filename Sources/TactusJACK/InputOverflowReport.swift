/// Says that control input was dropped (the control thread fell a whole ring
/// behind the process callback), once a second at most: a controller
/// streaming aftertouch into a stalled thread must not flood the log too.
struct InputOverflowReport {
    private var reportedDrops = 0
    private var lastReport = ContinuousClock.now

    /// Says the drops since the last report if a second has passed since it;
    /// returns when a report held back is due (nil: nothing held back).
    mutating func due(now: ContinuousClock.Instant, dropped: Int, capacity: Int, log: (String) -> Void) -> ContinuousClock.Instant? {
        guard dropped != reportedDrops else { return nil }
        guard now >= lastReport + .seconds(1) else { return lastReport + .seconds(1) }
        log("control input: \(dropped - reportedDrops) MIDI events dropped (the control thread fell \(capacity) events behind)")
        reportedDrops = dropped
        lastReport = now
        return nil
    }
}
