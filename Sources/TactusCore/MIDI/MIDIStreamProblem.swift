/// What a byte cost when a MIDI 1.0 byte stream broke the rules: the parser
/// goes on either way (a bad byte costs at most the message it was in), and
/// says so here for the inputs that report it, as the clock input does
/// (docs/DESIGN.md §9.1).
public enum MIDIStreamProblem: Hashable, Sendable, BitwiseCopyable {
    /// A data byte (high bit clear) with no status to belong to: no running
    /// status (after System Common, or at the start of the stream).
    case strayData(UInt8)
    /// A status byte MIDI 1.0 leaves undefined (0xF4, 0xF5, 0xF9, 0xFD), or an
    /// End of Exclusive (0xF7) with no System Exclusive open.
    case undefinedStatus(UInt8)
    /// A message cut short: `status` had `received` of its `expected` data
    /// bytes when `cutBy` (a status byte, or nil at the end of an event) came.
    case truncated(status: UInt8, received: Int, expected: Int, cutBy: UInt8?)
}
