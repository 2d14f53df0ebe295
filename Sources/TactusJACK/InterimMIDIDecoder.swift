import TactusCore

/// Stand-in for TactusCore's streaming `MIDIParser` until it lands on main: same
/// shape (`parse(_:)` one byte at a time, no allocation), channel voice messages
/// only, running status kept. JACK MIDI events are whole messages, so this covers
/// what the `control` port receives. Status values are written out (MIDI 1.0
/// table 1) rather than read from `MIDIStatus`, whose static lets are lazy globals.
struct InterimMIDIDecoder: BitwiseCopyable {
    private var status: UInt8 = 0
    private var first: UInt8 = 0
    private var have = 0

    mutating func parse(_ byte: UInt8) -> MIDIMessage? {
        if byte >= 0xF8 { return nil }              // real-time bytes may come anywhere
        if byte >= 0x80 {
            status = byte < 0xF0 ? byte : 0         // system common / SysEx cancel running status
            have = 0
            return nil
        }
        guard status != 0 else { return nil }
        let kind = status & 0xF0
        let channel = MIDIChannel(statusByte: status)
        let needed = (kind == 0xC0 || kind == 0xD0) ? 1 : 2
        if have == 0 && needed == 2 { first = byte; have = 1; return nil }
        have = 0
        let a = UInt7(truncating: needed == 1 ? byte : first), b = UInt7(truncating: byte)
        switch kind {
        case 0x80: return .noteOff(channel: channel, note: a, velocity: b)
        case 0x90: return .noteOn(channel: channel, note: a, velocity: b)
        case 0xA0: return .polyPressure(channel: channel, note: a, pressure: b)
        case 0xB0: return .controlChange(channel: channel, controller: a, value: b)
        case 0xC0: return .programChange(channel: channel, program: a)
        case 0xD0: return .channelPressure(channel: channel, pressure: a)
        default: return .pitchBend(channel: channel, value: UInt16(first) | UInt16(byte) << 7)
        }
    }
}
