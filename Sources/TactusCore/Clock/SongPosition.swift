/// Song Position Pointer arithmetic (MIDI 1.0: 0xF2, a 14-bit count of "MIDI
/// beats", one MIDI beat = a 16th note = 6 clocks).
public enum SongPosition {
    /// The largest position 14 bits can carry; beyond it no SPP is sent.
    public static let maximumMIDIBeats: Int64 = 16383

    /// The position a slave that received `clocks` clocks since Start resumes from:
    /// whole MIDI beats, rounded down. Nil when it cannot be expressed in 14 bits.
    public static func midiBeats(afterClocks clocks: Int64) -> UInt16? {
        let beats = clocks / Grid.clocksPerMIDIBeat
        return beats <= maximumMIDIBeats ? UInt16(beats) : nil
    }
}
