/// What the control loop tells the application: the things it cannot do itself
/// because they belong to other parts (presets, transport, the display, files).
/// Delivered on the control thread, in the order they happened.
public enum ControlReport: Sendable, Hashable {
    /// A deep press on the preset key committed: load the next preset.
    case nextPreset
    /// Program Change from the controller: load preset number `program` (list order).
    case programChange(channel: MIDIChannel, program: UInt7)
    /// Start, Stop or Continue from the controller (System Real-Time 0xFA, 0xFC, 0xFB).
    case transport(Transport)
    /// A tempo hold ended: save this tempo as the last tempo.
    case lastTempo(BPM)
    /// A feedback cue that was just sent to the engine (for MIDI feedback to a controller's LEDs).
    case cue(ClickSound)
    /// One line for the player (a stuck key was released).
    case message(String)
    /// A button or pedal bound to an action was pressed (`ActionMap`), at the
    /// time its message reached the input (the frame or the ALSA input's stamp),
    /// not the time the control thread saw it: tap tempo measures the foot.
    case action(ControlAction, at: ControlTime, trigger: ActionBinding.Trigger)
    /// The controller's state changed (at most `ControlLoop.statusInterval` apart; docs/DESIGN.md §5.10).
    case status(PressureStatus)

    public enum Transport: Sendable, Hashable {
        case start, stop, `continue`
    }
}
