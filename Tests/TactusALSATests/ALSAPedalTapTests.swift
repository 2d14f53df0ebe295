import Glibc
import Synchronization
import Testing
@testable import TactusALSA
import TactusCore

/// Makes the ALSA input thread late on purpose before each pedal press and
/// notes when it then read the press.
final class LateInputThread: @unchecked Sendable {
    /// How late the thread is before the first, second, … press (µs).
    let delays: [Int64]
    private let reads = Mutex<[Int64]>([])

    init(delays: [Int64]) { self.delays = delays }

    /// The monotonic µs at which the thread handed on each press, after its delay.
    var readTimes: [Int64] { reads.withLock { $0 } }

    func beforeHandingOn(_ message: MIDIMessage) {
        guard case .controlChange(_, let controller, let value) = message, controller.value == 64, value.value >= 64 else { return }
        let index = reads.withLock { $0.count }
        MonotonicClock.sleep(microseconds: delays[min(index, delays.count - 1)])
        let now = MonotonicClock.microseconds()
        reads.withLock { $0.append(now) }
    }
}

extension ALSASequencerTests {
    /// Acceptance: a footswitch bound to tap tempo, four CC 64 presses scheduled
    /// 500.0 ms apart on the sender's own queue, and an input thread that reads
    /// them 0, 150, 30 and 260 ms late: the kernel's arrival stamps still give
    /// 120 BPM, where the thread's own clock readings would give about 102.
    @Test func fourPedalPressesHalfASecondApartAre120BPMHoweverLateTheInputThreadReadsThem() throws {
        let late = LateInputThread(delays: [0, 150_000, 30_000, 260_000])
        let input = try ControlInputReading(sender: "test pedal", beforeHandingOn: { late.beforeHandingOn($0) })
        defer { input.client.stop() }
        let (log, ring, pedal) = (input.log, input.ring, input.sender)

        let queue = try pedal.startQueue()
        let channel = MIDIChannel(number: 1)!
        for press in 0..<4 {
            let at = 300_000 + Int64(press) * 500_000
            try pedal.schedule(.controlChange(channel: channel, controller: UInt7(64)!, value: .max), at: at, on: queue)
            try pedal.schedule(.controlChange(channel: channel, controller: UInt7(64)!, value: .zero), at: at + 100_000, on: queue)
        }
        try pedal.drainOutput()
        let received = ring.receive(count: 8, timeout: 6_000_000)

        // What the control thread does with them: the binding, then tap tempo at each press's time.
        var actions = ActionMap([ActionBinding(.controlChange(UInt7(64)!), .tap)])
        var taps = TapTempo()
        var tempo: BPM?
        var pressTimes: [Int64] = []
        for event in received {
            guard let edge = actions.handle(event.message), edge.pressed else { continue }
            pressTimes.append(event.microseconds)
            tempo = taps.tap(at: ControlTime(microseconds: event.microseconds))
        }
        var byReads = TapTempo()
        let readTempo = late.readTimes.map { byReads.tap(at: ControlTime(microseconds: $0)) }.last ?? nil
        let intervals = zip(pressTimes.dropFirst(), pressTimes).map { $0 - $1 }
        print("ALSA pedal taps: stamped intervals \(intervals) µs → \(tempo.map { "\($0)" } ?? "none") BPM; "
              + "each read after its stamp \(zip(late.readTimes, pressTimes).map { $0 - $1 }) µs; "
              + "the input thread's reads \(zip(late.readTimes.dropFirst(), late.readTimes).map { $0 - $1 }) µs → "
              + "\(readTempo.map { "\($0)" } ?? "none") BPM")

        #expect(received.count == 8)
        #expect(pressTimes.count == 4)
        #expect(tempo == BPM(120))
        // The emulated VM's queue delivers up to ~3 ms late (alsa-vm README); each interval is the kernel's, not the thread's.
        #expect(intervals.count == 3 && intervals.allSatisfy { abs($0 - 500_000) <= 3_000 }, "\(intervals)")
        #expect(late.readTimes.count == 4)
        // The control: each press read at least its delay after the kernel stamped it (less
        // the queue clock's calibration, which moves a stamp by under 2 ms unconfirmed:
        // QueueClockCalibration.stepThreshold), however much later the emulated CPU made the
        // read; timed by those reads, the same presses are about 102 BPM. (The span of the
        // reads depends on how late the first one came, which is the VM's, not the test's.)
        let lateness = zip(late.readTimes, pressTimes).map { $0 - $1 }
        #expect(lateness.count == 4 && zip(lateness, late.delays).allSatisfy { $0 >= $1 - 2_000 }, "\(lateness)")
        #expect(readTempo != BPM(120))
        #expect(log.lines == ["ALSA: test pedal:port (\(pedal.address)) → control"])
    }
}
