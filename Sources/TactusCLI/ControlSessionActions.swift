import TactusCore

/// A button or pedal's action (`controller.json`'s `actions`, docs/DESIGN.md
/// §12.4), carried out as the terminal's key for it would be, and said with
/// where it came from: `tap tempo: 96 BPM from 4 taps (pedal)`.
extension ControlSession {
    /// `microseconds`: when the message reached the input port (CLOCK_MONOTONIC).
    public func perform(_ action: ControlAction, at microseconds: Int64, trigger: ActionBinding.Trigger) {
        let source = Self.source(of: trigger)
        let running = engine.pointee.status.running.load(ordering: .acquiring)
        switch action {
        case .tap:
            tap(at: microseconds, from: source)
        case .startStop:
            if engine.pointee.commands.push(running ? .stop : .start) { say("\(running ? "stop" : "start") (\(source))") }
        case .start:
            if engine.pointee.commands.push(.start) { say("start (\(source))") }
        case .stop:
            if engine.pointee.commands.push(.stop) { say("stop (\(source))") }
        case .nextPreset, .previousPreset:
            switchPreset(by: action == .nextPreset ? 1 : -1)
        case .mute:
            if engine.pointee.commands.push(.setMuted(!muted)) {
                muted.toggle()
                say("\(muted ? "muted" : "unmuted") (\(source))")
            }
        case .tempoUp, .tempoDown:
            let tempo = loop.tempo.adding(action == .tempoUp ? 1 : -1)
            loop.setTempo(tempo)
            saveLastTempo(tempo)
            say("tempo \(tempo) BPM (\(source))")
        case .countIn:
            // Start plays from the top, and the engine counts in first when a count-in is set (docs/DESIGN.md §10.4).
            guard engine.pointee.commands.push(.start) else { return }
            let bars = countIn.map { $0.bars == 0 ? "two beats" : "\($0.bars) bar\($0.bars == 1 ? "" : "s")" }
            say(bars.map { "count-in \($0) (\(source))" } ?? "start (\(source)): no count-in is set, --count-in BARS sets one")
        }
    }

    /// Binds `preset`'s `actions`, or `controllerActions` for a preset without
    /// them (or none). The same bindings keep their map, so a pedal held through
    /// the switch is not pressed again by its next value.
    public func bindActions(of preset: Preset?) {
        let bindings = preset?.actions ?? controllerActions
        guard bindings != loop.actions.bindings else { return }
        loop.actions = ActionMap(bindings)
    }

    /// `pedal` for a Control Change (the sustain pedal, CC 64, is the usual
    /// footswitch), `note 60` for a key or pad.
    static func source(of trigger: ActionBinding.Trigger) -> String {
        switch trigger {
        case .controlChange: "pedal"
        case .note: trigger.description
        }
    }
}
