import CALSA
import CALSAShims
import TactusCore

/// What one event read from the `control` port means to Tactus.
public enum DecodedInput: Hashable, Sendable {
    /// A MIDI message for the control thread.
    case message(MIDIMessage)
    /// Not a message Tactus acts on (SysEx, MIDI clock from elsewhere, notes with
    /// a duration, connection notices, …): skipped without a word.
    case ignored
    /// A message Tactus reads, but with a field outside MIDI's range (a channel above
    /// 15, a value above 127): only a broken or hostile client sends it. Skipped and counted.
    case malformed
}

extension DecodedInput {
    /// Reads a sequencer event as the MIDI 1.0 message it stands for, the way the
    /// kernel's MIDI driver turns wire bytes into events (sound/core/seq/seq_midi_event.c):
    /// note events carry channel/note/velocity, controller-style events carry
    /// channel/param/value, Song Position its 14-bit value, Pitch Bend −8192…8191.
    public init(_ event: snd_seq_event_t) {
        let type = UInt32(event.type)
        switch type {
        case SND_SEQ_EVENT_NOTEON.rawValue, SND_SEQ_EVENT_NOTEOFF.rawValue, SND_SEQ_EVENT_KEYPRESS.rawValue:
            let n = event.data.note
            guard n.channel < 16, let note = UInt7(Int(n.note)), let value = UInt7(Int(n.velocity)) else { self = .malformed; return }
            let channel = MIDIChannel(statusByte: n.channel)
            switch type {
            case SND_SEQ_EVENT_NOTEON.rawValue: self = .message(.noteOn(channel: channel, note: note, velocity: value))
            case SND_SEQ_EVENT_NOTEOFF.rawValue: self = .message(.noteOff(channel: channel, note: note, velocity: value))
            default: self = .message(.polyPressure(channel: channel, note: note, pressure: value))
            }
        case SND_SEQ_EVENT_CONTROLLER.rawValue:
            let c = event.data.control
            guard c.channel < 16, let controller = UInt7(Int(c.param)), let value = UInt7(Int(c.value)) else { self = .malformed; return }
            self = .message(.controlChange(channel: MIDIChannel(statusByte: c.channel), controller: controller, value: value))
        case SND_SEQ_EVENT_PGMCHANGE.rawValue, SND_SEQ_EVENT_CHANPRESS.rawValue:
            let c = event.data.control
            guard c.channel < 16, let value = UInt7(Int(c.value)) else { self = .malformed; return }
            let channel = MIDIChannel(statusByte: c.channel)
            self = .message(type == SND_SEQ_EVENT_PGMCHANGE.rawValue
                ? .programChange(channel: channel, program: value)
                : .channelPressure(channel: channel, pressure: value))
        case SND_SEQ_EVENT_PITCHBEND.rawValue:
            let c = event.data.control
            guard c.channel < 16, (-8192...8191).contains(c.value) else { self = .malformed; return }
            self = .message(.pitchBend(channel: MIDIChannel(statusByte: c.channel), value: UInt16(c.value + 8192)))
        case SND_SEQ_EVENT_SONGPOS.rawValue:
            let value = event.data.control.value
            guard (0...16383).contains(value) else { self = .malformed; return }
            self = .message(.songPosition(UInt16(value)))
        case SND_SEQ_EVENT_START.rawValue: self = .message(.start)
        case SND_SEQ_EVENT_CONTINUE.rawValue: self = .message(.continue)
        case SND_SEQ_EVENT_STOP.rawValue: self = .message(.stop)
        default: self = .ignored
        }
    }
}
