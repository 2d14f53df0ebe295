import CALSA
import CALSAShims
import Testing
@testable import TactusALSA
import TactusCore

/// How events read from `Tactus:control` become MIDI messages for the control thread.
struct DecodedInputTests {
    private func event(_ type: snd_seq_event_type, _ fill: (inout snd_seq_event_t) -> Void = { _ in }) -> snd_seq_event_t {
        var e = snd_seq_event_t()
        tactus_seq_ev_clear(&e)
        tactus_seq_ev_set_type(&e, Int32(type.rawValue))
        fill(&e)
        return e
    }

    private let channel10 = MIDIChannel(number: 10)!

    @Test func noteOnCarriesChannelNoteAndVelocity() {
        let e = event(SND_SEQ_EVENT_NOTEON) { $0.data.note.channel = 9; $0.data.note.note = 60; $0.data.note.velocity = 100 }
        #expect(DecodedInput(e) == .message(.noteOn(channel: channel10, note: UInt7(60)!, velocity: UInt7(100)!)))
    }

    @Test func noteOnWithVelocityZeroStaysANoteOnForTheControllerToReadAsNoteOff() {
        let e = event(SND_SEQ_EVENT_NOTEON) { $0.data.note.channel = 0; $0.data.note.note = 61; $0.data.note.velocity = 0 }
        #expect(DecodedInput(e) == .message(.noteOn(channel: MIDIChannel(number: 1)!, note: UInt7(61)!, velocity: .zero)))
    }

    @Test func noteOffAndKeyPressureCarryTheirNote() {
        let off = event(SND_SEQ_EVENT_NOTEOFF) { $0.data.note.channel = 15; $0.data.note.note = 62; $0.data.note.velocity = 64 }
        #expect(DecodedInput(off) == .message(.noteOff(channel: MIDIChannel(number: 16)!, note: UInt7(62)!, velocity: UInt7(64)!)))
        let poly = event(SND_SEQ_EVENT_KEYPRESS) { $0.data.note.channel = 9; $0.data.note.note = 62; $0.data.note.velocity = 90 }
        #expect(DecodedInput(poly) == .message(.polyPressure(channel: channel10, note: UInt7(62)!, pressure: UInt7(90)!)))
    }

    @Test func channelPressureProgramChangeAndControllerCarryTheirValue() {
        let pressure = event(SND_SEQ_EVENT_CHANPRESS) { $0.data.control.channel = 9; $0.data.control.value = 127 }
        #expect(DecodedInput(pressure) == .message(.channelPressure(channel: channel10, pressure: .max)))
        let program = event(SND_SEQ_EVENT_PGMCHANGE) { $0.data.control.channel = 9; $0.data.control.value = 5 }
        #expect(DecodedInput(program) == .message(.programChange(channel: channel10, program: UInt7(5)!)))
        let cc = event(SND_SEQ_EVENT_CONTROLLER) { $0.data.control.channel = 9; $0.data.control.param = 64; $0.data.control.value = 127 }
        #expect(DecodedInput(cc) == .message(.controlChange(channel: channel10, controller: UInt7(64)!, value: .max)))
    }

    @Test func pitchBendIsCentredAt8192() {
        let low = event(SND_SEQ_EVENT_PITCHBEND) { $0.data.control.value = -8192 }
        let high = event(SND_SEQ_EVENT_PITCHBEND) { $0.data.control.value = 8191 }
        #expect(DecodedInput(low) == .message(.pitchBend(channel: MIDIChannel(number: 1)!, value: 0)))
        #expect(DecodedInput(high) == .message(.pitchBend(channel: MIDIChannel(number: 1)!, value: 16383)))
    }

    @Test func transportAndSongPositionFromOutsideAreRead() {
        #expect(DecodedInput(event(SND_SEQ_EVENT_START)) == .message(.start))
        #expect(DecodedInput(event(SND_SEQ_EVENT_CONTINUE)) == .message(.continue))
        #expect(DecodedInput(event(SND_SEQ_EVENT_STOP)) == .message(.stop))
        #expect(DecodedInput(event(SND_SEQ_EVENT_SONGPOS) { $0.data.control.value = 16383 }) == .message(.songPosition(16383)))
    }

    @Test func sysExClockNoticesAndUnknownEventsAreIgnored() {
        var bytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]
        var sysex = event(SND_SEQ_EVENT_SYSEX)
        bytes.withUnsafeMutableBytes { tactus_seq_ev_set_sysex(&sysex, UInt32($0.count), $0.baseAddress) }
        #expect(DecodedInput(sysex) == .ignored)
        #expect(DecodedInput(event(SND_SEQ_EVENT_CLOCK)) == .ignored)
        #expect(DecodedInput(event(SND_SEQ_EVENT_PORT_SUBSCRIBED)) == .ignored)
        #expect(DecodedInput(event(SND_SEQ_EVENT_NOTE)) == .ignored)
        #expect(DecodedInput(event(SND_SEQ_EVENT_USR0)) == .ignored)
        #expect(DecodedInput(event(SND_SEQ_EVENT_QFRAME)) == .ignored)
    }

    @Test func fieldsOutsideMIDIRangeAreMalformed() {
        #expect(DecodedInput(event(SND_SEQ_EVENT_NOTEON) { $0.data.note.channel = 16; $0.data.note.note = 60 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_NOTEON) { $0.data.note.note = 128 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_NOTEON) { $0.data.note.velocity = 200 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_CHANPRESS) { $0.data.control.value = 128 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_CHANPRESS) { $0.data.control.value = -1 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_CONTROLLER) { $0.data.control.param = 1000 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_PITCHBEND) { $0.data.control.value = 8192 }) == .malformed)
        #expect(DecodedInput(event(SND_SEQ_EVENT_SONGPOS) { $0.data.control.value = 16384 }) == .malformed)
    }
}

/// How the clock stream's wire bytes become sequencer events.
struct SequencerEventEncodingTests {
    @Test func realTimeMessagesBecomeTheirSequencerEvents() {
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xF8))?.type == UInt8(SND_SEQ_EVENT_CLOCK.rawValue))
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xFA))?.type == UInt8(SND_SEQ_EVENT_START.rawValue))
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xFB))?.type == UInt8(SND_SEQ_EVENT_CONTINUE.rawValue))
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xFC))?.type == UInt8(SND_SEQ_EVENT_STOP.rawValue))
    }

    @Test func songPositionCarriesTheFourteenBitValue() {
        let e = snd_seq_event_t.encoding(MIDIMessage.songPosition(0x1234).bytes)
        #expect(e?.type == UInt8(SND_SEQ_EVENT_SONGPOS.rawValue))
        #expect(e?.data.control.value == 0x1234)
    }

    @Test func everyMessageSurvivesEncodingAndDecoding() {
        let c = MIDIChannel(number: 7)!
        let messages: [MIDIMessage] = [
            .noteOn(channel: c, note: UInt7(60)!, velocity: UInt7(1)!), .noteOff(channel: c, note: UInt7(60)!, velocity: UInt7(64)!),
            .polyPressure(channel: c, note: UInt7(61)!, pressure: UInt7(99)!), .controlChange(channel: c, controller: UInt7(7)!, value: UInt7(100)!),
            .programChange(channel: c, program: UInt7(42)!), .channelPressure(channel: c, pressure: UInt7(88)!),
            .pitchBend(channel: c, value: 12345), .songPosition(300), .start, .continue, .stop,
        ]
        for message in messages {
            let encoded = snd_seq_event_t.encoding(message.bytes)
            #expect(encoded.map(DecodedInput.init) == .message(message), "\(message)")
        }
    }

    @Test func sysExAndUndefinedStatusesAreNotEncoded() {
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xF0, 0x7E)) == nil)
        #expect(snd_seq_event_t.encoding(MIDIBytes(0xF9)) == nil)
        #expect(snd_seq_event_t.encoding(MIDIBytes(0x40)) == nil)
    }
}
