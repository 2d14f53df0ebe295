import TactusCore

/// The text form of a MIDI event for `--midi-log`: absolute frame, hex bytes, name.
///
///     0 FA start
///     0 F8 clock
///     902 F8 clock
///     ...
///     172800000 FC stop
///     172800000 F2 40 09 song-position 1216
public enum MIDILog {
    public static func line(_ event: TimedMIDIEvent) -> String {
        let b = event.bytes
        var hex = ""
        for i in 0..<Int(b.count) {
            let byte = b[i]
            hex += (i == 0 ? "" : " ") + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        return "\(event.frame) \(hex) \(name(b))"
    }

    public static func name(_ b: MIDIBytes) -> String {
        switch b.status {
        case MIDIStatus.timingClock: "clock"
        case MIDIStatus.start: "start"
        case MIDIStatus.continue: "continue"
        case MIDIStatus.stop: "stop"
        case MIDIStatus.songPosition: "song-position \(Int(b.byte1) | Int(b.byte2) << 7)"
        default:
            switch b.status & 0xF0 {
            case MIDIStatus.noteOn: "note-on \(b.byte1) \(b.byte2)"
            case MIDIStatus.noteOff: "note-off \(b.byte1) \(b.byte2)"
            default: "status \(b.status)"
            }
        }
    }
}
