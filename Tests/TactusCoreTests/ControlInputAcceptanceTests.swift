import Testing
@testable import TactusCore

/// The one rule of what a controller input hands to the control thread, the
/// same for the JACK and the ALSA `control` ports.
@Suite("Control input: one acceptance rule for both inputs")
struct ControlInputAcceptanceTests {
    let ch = MIDIChannel(number: 3)!

    @Test func channelMessagesAndTheTransportAreAcceptedTheClockIsNot() {
        let accepted: [MIDIMessage] = [
            .noteOn(channel: ch, note: UInt7(60)!, velocity: UInt7(100)!), .noteOff(channel: ch, note: UInt7(60)!, velocity: .zero),
            .polyPressure(channel: ch, note: UInt7(60)!, pressure: UInt7(9)!), .controlChange(channel: ch, controller: UInt7(1)!, value: UInt7(2)!),
            .programChange(channel: ch, program: UInt7(5)!), .channelPressure(channel: ch, pressure: UInt7(64)!),
            .pitchBend(channel: ch, value: 8192), .start, .stop, .continue, .songPosition(16),
        ]
        #expect(accepted.filter { !ControlInputEvent.accepts($0) } == [])
        #expect(!ControlInputEvent.accepts(.timingClock))
    }

    /// Wire bytes through the parser the JACK port uses, then the rule: SysEx,
    /// Active Sensing, Tune Request, MTC, Song Select and Reset never become
    /// messages; the Timing Clock does and is refused; Start, Stop, Continue and
    /// Song Position pass, between the channel messages, in order.
    @Test func onTheWireOnlyTheControllersMessagesPass() {
        let bytes: [UInt8] = [0xF0, 0x7E, 0x01, 0xF7, 0xFE, 0xF6, 0xF1, 0x20, 0xF3, 0x02, 0xF8, 0xFA, 0x92, 0x3C, 0x64,
                              0xFC, 0xF2, 0x10, 0x00, 0xFB, 0xFF, 0xD2, 0x40]
        var parser = MIDIParser()
        let passed = bytes.compactMap { parser.parse($0) }.filter { ControlInputEvent.accepts($0) }
        #expect(passed == [.start, .noteOn(channel: ch, note: UInt7(60)!, velocity: UInt7(100)!), .stop, .songPosition(16), .continue,
                           .channelPressure(channel: ch, pressure: UInt7(64)!)])
    }
}
