/// One message of an incoming MIDI beat clock (MIDI 1.0 System Real-Time and
/// Song Position Pointer, docs/DESIGN.md §4), as the follower takes it.
public enum ClockInputEvent: Hashable, Sendable, BitwiseCopyable {
    /// Timing Clock 0xF8: one of 24 a quarter note.
    case tick
    /// Start 0xFA: the next tick is the song's first (bar 1, tick 0).
    case start
    /// Continue 0xFB: the next tick is at the song position last set.
    case `continue`
    /// Stop 0xFC.
    case stop
    /// Song Position Pointer 0xF2: 16th notes ("MIDI beats", 6 ticks each) from
    /// the song's start; two 7-bit data bytes, so never beyond 16383.
    case songPosition(midiBeats: UInt16)
}
