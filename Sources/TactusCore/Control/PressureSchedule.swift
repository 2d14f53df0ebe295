/// When the pressure controller's steps fall (docs/DESIGN.md §5.4, §5.5,
/// §5.11): each on a fixed clock from the key's Note On, so a late start joins
/// the schedule instead of starting its own; and the acceleration a hold gives
/// now, for the display.
extension PressureController {
    func forceStepTime(of hold: TempoHold, _ k: Int) -> ControlTime {
        hold.start + timing.holdDelay + Int64(k) * timing.stepPeriod
    }

    func longPressStepTime(of hold: TempoHold, _ k: Int) -> ControlTime {
        hold.start + timing.longPressDelay + Int64(k) * timing.longPressInterval
    }

    /// The first force step at or after `time`: the step clock has been running
    /// since the Note On, so a late start joins its schedule.
    func firstForceStep(of hold: TempoHold, notBefore time: ControlTime) -> Int {
        let sinceFirst = time - (hold.start + timing.holdDelay)
        guard sinceFirst > 0 else { return 0 }
        return Int((sinceFirst + timing.stepPeriod - 1) / timing.stepPeriod)
    }

    func acceleration(of hold: TempoHold) -> Double {
        switch hold.mode {
        case .force:
            guard now >= hold.start + timing.holdDelay, reading.level != .rest else { return 0 }
            if configuration.mode == .continuous {
                return hold.key.direction * configuration.continuousRate(force: reading.force)
            }
            let amount = reading.level == .strong ? configuration.strongStep : configuration.lightStep
            return hold.key.direction * amount * 1_000_000 / Double(timing.stepPeriod)
        case .longPress:
            guard now >= hold.start + timing.longPressDelay else { return 0 }
            let k = hold.nextLongPressStep
            let amount = k < configuration.longPressSlowSteps ? configuration.longPressSlowAmount
                : k < configuration.longPressMediumSteps ? configuration.longPressMediumAmount
                : configuration.longPressFastAmount
            return hold.key.direction * amount * 1_000_000 / Double(timing.longPressInterval)
        }
    }
}
