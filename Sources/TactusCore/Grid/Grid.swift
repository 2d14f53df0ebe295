/// Constants of the pulse grid shared by clicks and MIDI clock.
public enum Grid {
    /// 96 pulses per quarter note: 4 per MIDI clock, and divisible by 2, 3, 4 and 32.
    public static let pulsesPerQuarterNote: Int64 = 96
    public static let pulsesPerWholeNote: Int64 = 384
    /// MIDI beat clock is 24 pulses per quarter note (MIDI 1.0, "Timing Clock" 0xF8).
    public static let clocksPerQuarterNote: Int64 = 24
    public static let pulsesPerClock: Int64 = pulsesPerQuarterNote / clocksPerQuarterNote
    /// One "MIDI beat" (a 16th note) is 6 clocks; Song Position Pointer counts these.
    public static let clocksPerMIDIBeat: Int64 = 6
    public static let pulsesPerMIDIBeat: Int64 = pulsesPerClock * clocksPerMIDIBeat
}
