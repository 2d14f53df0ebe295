import TactusCore

/// The buttons and pedals of `controller.json` (docs/DESIGN.md §12.4): which
/// are bound while a preset plays. Their presses reach `carryOut` as the
/// controller's `ControlReport.action`, said with where they came from:
/// `tap tempo: 96 BPM from 4 taps (pedal)`.
extension ControlSession {
    /// Binds `preset`'s `actions`, or `controllerActions` for a preset without
    /// them (or none). The same bindings keep their map, so a pedal held through
    /// the switch is not pressed again by its next value.
    public func bindActions(of preset: Preset?) {
        let bindings = preset?.actions ?? controllerActions
        guard bindings != loop.actions.bindings else { return }
        loop.actions = ActionMap(bindings)
    }
}
