/// The pressure configuration's durations in whole microseconds: the
/// controller schedules its steps on integer time (docs/DESIGN.md §5.11).
struct PressureTiming: Sendable {
    var holdDelay: Int64
    var stepPeriod: Int64
    var longPressDelay: Int64
    var longPressInterval: Int64
    var deepPressMinimumHold: Int64
    /// Nil: never release a key on its own.
    var stuckKeyTimeout: Int64?

    init(_ c: PressureConfiguration) {
        // Periods of at least 1 ms, so a zero in a settings file cannot spin the loop.
        holdDelay = max(ControlTime.microseconds(c.holdDelay), 0)
        stepPeriod = max(ControlTime.microseconds(c.stepTimer) * Int64(max(c.ticksPerStep, 1)), 1_000)
        longPressDelay = max(ControlTime.microseconds(c.longPressDelay), 0)
        longPressInterval = max(ControlTime.microseconds(c.longPressInterval), 1_000)
        deepPressMinimumHold = max(ControlTime.microseconds(c.deepPressMinimumHold), 0)
        stuckKeyTimeout = c.stuckKeyTimeout > 0 ? max(ControlTime.microseconds(c.stuckKeyTimeout), 1_000) : nil
    }
}
