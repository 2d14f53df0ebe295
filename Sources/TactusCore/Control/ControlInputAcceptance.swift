extension ControlInputEvent {
    /// The one rule of what a controller input (the JACK `control` port, the ALSA
    /// sequencer's `control` port) hands to the control thread: every channel
    /// message (notes, key and channel pressure, Program Change, controllers,
    /// Pitch Bend) and the transport a controller's buttons send (Start, Stop,
    /// Continue, Song Position Pointer). Not Timing Clock: 24 a beat from another
    /// master would flood the ring, and Tactus is the clock master. SysEx, Active
    /// Sensing, MTC and the rest never become a `MIDIMessage` (`MIDIParser`,
    /// `DecodedInput`), so both inputs drop them before this rule.
    ///
    /// Real-time safe: a switch on the message, called from the JACK process callback.
    @inlinable
    public static func accepts(_ message: MIDIMessage) -> Bool {
        switch message {
        case .noteOn, .noteOff, .polyPressure, .controlChange, .programChange, .channelPressure, .pitchBend,
             .start, .stop, .continue, .songPosition:
            return true
        case .timingClock:
            return false
        }
    }
}
