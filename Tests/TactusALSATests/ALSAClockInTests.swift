import CALSA
import CALSAShims
import Testing
@testable import TactusALSA
import TactusCore

/// What the JACK cycle would read from `JackShared.clockInArrivals`, owned by the test.
final class ClockInRing: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<SPSCRing<TimedClockInputEvent>>
    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: SPSCRing(capacity: 1024))
    }
    deinit { pointer.deinitialize(count: 1); pointer.deallocate() }

    var push: @Sendable (TimedClockInputEvent) -> Void {
        let ring = SharedPointer(pointer)
        return { (arrival: TimedClockInputEvent) in _ = ring.pointer.pointee.push(arrival) }
    }

    /// Reads until `count` arrivals came or `timeout` µs passed.
    func receive(count: Int, timeout: Int64 = 3_000_000) -> [TimedClockInputEvent] {
        let deadline = MonotonicClock.microseconds() + timeout
        var arrivals: [TimedClockInputEvent] = []
        while arrivals.count < count && MonotonicClock.microseconds() < deadline {
            while let arrival = pointer.pointee.pop() { arrivals.append(arrival) }
            MonotonicClock.sleep(microseconds: 1_000)
        }
        return arrivals
    }
}

extension ALSASequencerTests {
    /// `--alsa-clock-from`: Tactus's `clock_in` subscribed from a drum machine
    /// that sends its clock with garbage between the ticks: a Song Position of
    /// 20000 (past MIDI's 14 bits), a note on a channel that does not exist, a
    /// well-formed note and SysEx. The clock's messages reach the cycle's ring
    /// in order, stamped on arrival; the two malformed events are each said in
    /// one line naming the sender and the value, the two others skipped without a
    /// word (as JACK's decoder passes notes over), and no tick is lost.
    @Test func theClockInPortHandsTheClockOnInOrderAndSaysWhatIsMalformed() throws {
        let log = ReportLog()
        let drums = try TestSequencerClient(name: "test drum machine")
        var options = ALSAOptions()
        options.clockInSource = try PortSpecifier(parsing: "test drum machine")
        let client = try ALSAClient.forTest(options: options, messages: log)
        defer { client.stop() }
        let ring = ClockInRing()
        client.startInput(into: nil, clockIn: ring.push)
        let channel = MIDIChannel(number: 10)!

        let before = MonotonicClock.microseconds()
        drums.send(.start)
        for _ in 0..<3 { drums.send(.timingClock) }
        drums.send(Self.outOfRangeSongPosition(20_000))
        drums.send(.timingClock)
        var note = snd_seq_event_t.encoding(MIDIMessage.noteOn(channel: channel, note: UInt7(36)!, velocity: UInt7(100)!).bytes)!
        note.data.note.channel = 200
        drums.send(note)
        drums.send(.timingClock)
        drums.send(.noteOn(channel: channel, note: UInt7(36)!, velocity: UInt7(100)!))
        var sysEx: [UInt8] = [0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]
        sysEx.withUnsafeMutableBytes { bytes in
            var event = snd_seq_event_t()
            tactus_seq_ev_clear(&event)
            tactus_seq_ev_set_sysex(&event, UInt32(bytes.count), bytes.baseAddress)
            drums.send(event)
        }
        drums.send(.timingClock)
        drums.send(.stop)
        drums.send(.songPosition(8))
        drums.send(.continue)
        let arrivals = ring.receive(count: 10)
        let after = MonotonicClock.microseconds()

        #expect(arrivals.map(\.event) == [.start, .tick, .tick, .tick, .tick, .tick, .tick, .stop, .songPosition(midiBeats: 8), .continue])
        #expect(arrivals.allSatisfy { $0.microseconds >= before - 1_000 && $0.microseconds <= after })
        #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0.microseconds <= $1.microseconds })
        #expect(client.statistics.clockInMessages.load(ordering: .relaxed) == 10)
        #expect(client.statistics.clockInMalformed.load(ordering: .relaxed) == 2)
        #expect(client.statistics.clockInIgnored.load(ordering: .relaxed) == 2)
        #expect(log.lines == [
            "ALSA: test drum machine:port (\(drums.address)) → clock_in",
            "ALSA clock in: Song Position Pointer 20000 from \(drums.address) is outside MIDI's 0–16383 (14 bits): ignored, the ticks still count",
            "ALSA clock in: an event of type 6 from \(drums.address) with a channel or value outside MIDI's range: ignored, the ticks still count",
        ], "\(log.lines)")
    }

    /// A leader that is not on the sequencer: said once, by name, and the
    /// client runs on (it is subscribed when it appears, as `--alsa-control-from`'s is).
    @Test func aClockSourceThatIsNotThereIsSaidByName() throws {
        let log = ReportLog()
        var options = ALSAOptions()
        options.clockInSource = try PortSpecifier(parsing: "No Such Drum Machine")
        let client = try ALSAClient.forTest(options: options, messages: log)
        defer { client.stop() }
        #expect(client.clockInPort != nil)
        #expect(log.lines == ["ALSA: no MIDI source 'No Such Drum Machine' yet; it will be connected when it appears"], "\(log.lines)")
    }

    /// A Song Position event with a value no MIDI byte stream can carry.
    static func outOfRangeSongPosition(_ value: Int32) -> snd_seq_event_t {
        var event = snd_seq_event_t()
        tactus_seq_ev_clear(&event)
        tactus_seq_ev_set_type(&event, Int32(SND_SEQ_EVENT_SONGPOS.rawValue))
        event.data.control.value = value
        return event
    }
}
