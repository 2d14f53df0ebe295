import CALSA
import CALSAShims
import Foundation
import Synchronization
import Testing
@testable import TactusALSA
import TactusCore

extension ALSASequencerTests {
    /// Acceptance: a sender connected to Tactus:control sends notes, channel pressure
    /// and program changes; the control thread's ring holds each, in order, with its values.
    @Test func controllerMessagesReachTheControlThreadInOrderWithTheirValues() throws {
        let input = try ControlInputReading(sender: "test keyboard")
        defer { input.client.stop() }
        let (log, client, ring, keyboard) = (input.log, input.client, input.ring, input.sender)

        let ch10 = MIDIChannel(number: 10)!
        var messages: [MIDIMessage] = [.noteOn(channel: ch10, note: UInt7(60)!, velocity: UInt7(100)!)]
        messages += stride(from: 0, through: 127, by: 9).map { .channelPressure(channel: ch10, pressure: UInt7($0)!) }
        messages += [
            .polyPressure(channel: ch10, note: UInt7(60)!, pressure: UInt7(127)!),
            .noteOff(channel: ch10, note: UInt7(60)!, velocity: UInt7(0)!),
            .noteOn(channel: ch10, note: UInt7(62)!, velocity: .zero),
            .programChange(channel: ch10, program: UInt7(3)!),
            .programChange(channel: MIDIChannel(number: 1)!, program: .max),
            .controlChange(channel: ch10, controller: UInt7(64)!, value: .max),
            .pitchBend(channel: ch10, value: 8192),
            .start, .stop, .songPosition(16), .continue,
        ]
        let before = MonotonicClock.microseconds()
        for message in messages { keyboard.send(message) }
        let received = ring.receive(count: messages.count)
        let after = MonotonicClock.microseconds()

        #expect(received.map(\.message) == messages)
        // Each time is the kernel's arrival stamp through the queue's calibration, good
        // to half its round trip: within 1 ms before the first send, never after the last read.
        #expect(received.allSatisfy { $0.microseconds >= before - 1_000 && $0.microseconds <= after })
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.microseconds <= $1.microseconds })
        #expect(client.statistics.inputMessages.load(ordering: .relaxed) == messages.count)
        // The keyboard connected itself: reported for the display, nothing else said.
        #expect(log.lines == ["ALSA: test keyboard:port (\(keyboard.address)) → control"])
    }

    /// Acceptance: unknown events, SysEx (up to 3000 bytes), malformed values and a
    /// flood of 10 000 events: nothing crashes, nothing blocks the clock, and input
    /// that follows the flood still arrives.
    @Test func aFloodOfTenThousandEventsWithSysExAndUnknownEventsNeitherCrashesNorHoldsUpTheClock() throws {
        let input = try ControlInputReading(sender: "flooding keyboard", options: .clockTest)
        let (client, ring, keyboard) = (input.client, input.ring, input.sender)
        let marker = MIDIMessage.programChange(channel: MIDIChannel(number: 16)!, program: .max)
        let sent = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let floodDone = DispatchSemaphore(value: 0)
        var received: [ControlInputEvent] = []

        let reception = try ClockReception.measure(client: client, tempo: BPM(120), seconds: 4) {
            let keyboardBox = UncheckedBox(keyboard)
            Thread {
                Self.flood(keyboardBox.value, count: 10_000, sent: sent, refused: refused)
                keyboardBox.value.send(marker)
                floodDone.signal()
            }.start()
            // Read what arrives as the control thread would, while the clock plays.
            let deadline = MonotonicClock.microseconds() + 3_500_000
            while MonotonicClock.microseconds() < deadline {
                received += ring.drain()
                MonotonicClock.sleep(microseconds: 1_000)
            }
        }
        #expect(floodDone.wait(timeout: .now() + 30) == .success)
        received += ring.receive(count: 1, timeout: 500_000)

        #expect(sent.load(ordering: .relaxed) + refused.load(ordering: .relaxed) == 10_000)
        #expect(received.last?.message == marker, "input after the flood still arrives")
        let statistics = client.statistics
        #expect(statistics.ignoredInput.load(ordering: .relaxed) > 0)
        #expect(statistics.malformedInput.load(ordering: .relaxed) > 0)
        #expect(reception.receivedTypes == reception.emittedTypes, "every clock event arrived, in order, during the flood")
        #expect(reception.lateWrites * 10 <= reception.ticksEmitted)
        #expect(reception.onTimeLateness.p95 <= 5.0)
        print("ALSA flood: 10000 sent (\(refused.load(ordering: .relaxed)) refused by the kernel), "
              + "\(statistics.inputMessages.load(ordering: .relaxed)) messages read, \(statistics.ignoredInput.load(ordering: .relaxed)) ignored, "
              + "\(statistics.malformedInput.load(ordering: .relaxed)) malformed, \(statistics.inputOverruns.load(ordering: .relaxed)) overruns, "
              + "ring drops \(ring.pointer.pointee.dropped.load(ordering: .relaxed)); clock meanwhile: \(reception.ticksEmitted) ticks, "
              + reception.summary)
    }

    /// Ten thousand events as fast as the kernel takes them: notes, channel
    /// pressure, SysEx of growing size, event types Tactus does not read, and
    /// out-of-range values.
    private static func flood(_ keyboard: TestSequencerClient, count: Int, sent: borrowing Atomic<Int>, refused: borrowing Atomic<Int>) {
        var sysex = [UInt8](repeating: 0x11, count: 3000)
        let unknown = [SND_SEQ_EVENT_USR0, SND_SEQ_EVENT_QFRAME, SND_SEQ_EVENT_SENSING, SND_SEQ_EVENT_CLOCK, SND_SEQ_EVENT_TEMPO, SND_SEQ_EVENT_NOTE]
        for index in 0..<count {
            var event = snd_seq_event_t()
            tactus_seq_ev_clear(&event)
            switch index % 5 {
            case 0:
                event = snd_seq_event_t.encoding(MIDIMessage.noteOn(channel: MIDIChannel(number: 1)!, note: UInt7(index % 128)!, velocity: UInt7(64)!).bytes)!
            case 1:
                event = snd_seq_event_t.encoding(MIDIMessage.channelPressure(channel: MIDIChannel(number: 1)!, pressure: UInt7(index % 128)!).bytes)!
            case 2:
                let length = 3 + (index * 7) % (sysex.count - 3)
                sysex[0] = 0xF0
                sysex[length - 1] = 0xF7
                sysex.withUnsafeMutableBytes { tactus_seq_ev_set_sysex(&event, UInt32(length), $0.baseAddress) }
                if keyboard.send(event) { sent.add(1, ordering: .relaxed) } else { refused.add(1, ordering: .relaxed) }
                sysex[length - 1] = 0x11
                continue
            case 3:
                tactus_seq_ev_set_type(&event, Int32(unknown[index % unknown.count].rawValue))
            default:
                tactus_seq_ev_set_type(&event, Int32(SND_SEQ_EVENT_NOTEON.rawValue))
                event.data.note.channel = 200
                event.data.note.note = 255
            }
            if keyboard.send(event) { sent.add(1, ordering: .relaxed) } else { refused.add(1, ordering: .relaxed) }
        }
    }
}

/// Hands a non-Sendable test object to a helper thread the test joins.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
