import CALSA
import CALSAShims
import TactusCore

extension snd_seq_event_t {
    /// The sequencer event for MIDI wire bytes, the inverse of the kernel's MIDI
    /// decoder: 0xF8 → CLOCK, 0xFA/0xFB/0xFC → START/CONTINUE/STOP, 0xF2 → SONGPOS
    /// (value = the 14-bit position), channel voice messages → NOTEON … PITCHBEND.
    /// Nil for bytes the clock stream never carries (SysEx, undefined statuses).
    /// Source, destination and time are left for the caller.
    static func encoding(_ bytes: MIDIBytes) -> snd_seq_event_t? {
        var event = snd_seq_event_t()
        tactus_seq_ev_clear(&event)
        let status = bytes.status
        let channel = status & 0x0F
        func set(_ type: snd_seq_event_type) { tactus_seq_ev_set_type(&event, Int32(type.rawValue)) }
        func note(_ type: snd_seq_event_type) {
            set(type)
            event.data.note.channel = channel
            event.data.note.note = bytes.byte1 & 0x7F
            event.data.note.velocity = bytes.byte2 & 0x7F
        }
        func control(_ type: snd_seq_event_type, param: UInt32 = 0, value: Int32) {
            set(type)
            event.data.control.channel = channel
            event.data.control.param = param
            event.data.control.value = value
        }
        switch status {
        case MIDIStatus.timingClock: set(SND_SEQ_EVENT_CLOCK)
        case MIDIStatus.start: set(SND_SEQ_EVENT_START)
        case MIDIStatus.continue: set(SND_SEQ_EVENT_CONTINUE)
        case MIDIStatus.stop: set(SND_SEQ_EVENT_STOP)
        case MIDIStatus.songPosition:
            set(SND_SEQ_EVENT_SONGPOS)
            event.data.control.value = Int32(bytes.byte1 & 0x7F) | Int32(bytes.byte2 & 0x7F) << 7
        case 0x80...0xEF:
            switch status & 0xF0 {
            case MIDIStatus.noteOff: note(SND_SEQ_EVENT_NOTEOFF)
            case MIDIStatus.noteOn: note(SND_SEQ_EVENT_NOTEON)
            case MIDIStatus.polyPressure: note(SND_SEQ_EVENT_KEYPRESS)
            case MIDIStatus.controlChange: control(SND_SEQ_EVENT_CONTROLLER, param: UInt32(bytes.byte1 & 0x7F), value: Int32(bytes.byte2 & 0x7F))
            case MIDIStatus.programChange: control(SND_SEQ_EVENT_PGMCHANGE, value: Int32(bytes.byte1 & 0x7F))
            case MIDIStatus.channelPressure: control(SND_SEQ_EVENT_CHANPRESS, value: Int32(bytes.byte1 & 0x7F))
            default: control(SND_SEQ_EVENT_PITCHBEND, value: (Int32(bytes.byte1 & 0x7F) | Int32(bytes.byte2 & 0x7F) << 7) - 8192)
            }
        default:
            return nil
        }
        return event
    }
}
