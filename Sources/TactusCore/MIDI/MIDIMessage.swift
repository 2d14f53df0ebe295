/// The MIDI messages Tactus reads and writes, one case per message kind, named as
/// the MIDI 1.0 specification and DAWs name them.
public enum MIDIMessage: Hashable, Sendable, BitwiseCopyable {
    /// Note On 0x9n. A velocity of 0 means Note Off (MIDI 1.0 running-status convention).
    case noteOn(channel: MIDIChannel, note: UInt7, velocity: UInt7)
    /// Note Off 0x8n.
    case noteOff(channel: MIDIChannel, note: UInt7, velocity: UInt7)
    /// Polyphonic Key Pressure (Poly Aftertouch) 0xAn: pressure on one key.
    case polyPressure(channel: MIDIChannel, note: UInt7, pressure: UInt7)
    /// Control Change 0xBn.
    case controlChange(channel: MIDIChannel, controller: UInt7, value: UInt7)
    /// Program Change 0xCn.
    case programChange(channel: MIDIChannel, program: UInt7)
    /// Channel Pressure (Mono Aftertouch) 0xDn: the force sensor of pressure control.
    case channelPressure(channel: MIDIChannel, pressure: UInt7)
    /// Pitch Bend 0xEn, 14 bits, centre 8192.
    case pitchBend(channel: MIDIChannel, value: UInt16)
    /// Song Position Pointer 0xF2: position in MIDI beats (16th notes, 6 clocks each), < 16384.
    case songPosition(UInt16)
    /// Timing Clock 0xF8, 24 per quarter note.
    case timingClock
    /// Start 0xFA: play from the beginning of the song.
    case start
    /// Continue 0xFB: play from the current Song Position.
    case `continue`
    /// Stop 0xFC.
    case stop

    /// The channel of a channel voice message.
    public var channel: MIDIChannel? {
        switch self {
        case .noteOn(let c, _, _), .noteOff(let c, _, _), .polyPressure(let c, _, _),
             .controlChange(let c, _, _), .programChange(let c, _), .channelPressure(let c, _),
             .pitchBend(let c, _):
            return c
        default:
            return nil
        }
    }
}

/// Status bytes, named as in the MIDI 1.0 specification.
public enum MIDIStatus {
    public static let noteOff: UInt8 = 0x80
    public static let noteOn: UInt8 = 0x90
    public static let polyPressure: UInt8 = 0xA0
    public static let controlChange: UInt8 = 0xB0
    public static let programChange: UInt8 = 0xC0
    public static let channelPressure: UInt8 = 0xD0
    public static let pitchBend: UInt8 = 0xE0
    public static let sysExStart: UInt8 = 0xF0
    public static let timeCodeQuarterFrame: UInt8 = 0xF1
    public static let songPosition: UInt8 = 0xF2
    public static let songSelect: UInt8 = 0xF3
    public static let tuneRequest: UInt8 = 0xF6
    public static let sysExEnd: UInt8 = 0xF7
    public static let timingClock: UInt8 = 0xF8
    public static let start: UInt8 = 0xFA
    public static let `continue`: UInt8 = 0xFB
    public static let stop: UInt8 = 0xFC
    public static let activeSensing: UInt8 = 0xFE
    public static let systemReset: UInt8 = 0xFF
}
