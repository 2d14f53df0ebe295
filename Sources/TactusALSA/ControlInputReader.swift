import CALSA
import CALSAShims
import Glibc
import Synchronization
import TactusCore

/// The ALSA input thread: waits on the sequencer, reads what arrives on the
/// `control` port, turns it into typed MIDI messages stamped on the monotonic
/// clock with the time the kernel delivered them (`ArrivalClock`) and hands
/// them to the control thread through its ring; what arrives on `clock_in`
/// (`--alsa-clock-from`) is stamped the same way and handed to the JACK cycle
/// through the clock-in ring (`ClockInputArrival`); announcements from the
/// System Announce port go to the `PortConnector`.
///
/// It never waits long (a 50 ms poll) so it stops promptly, and never waits on the
/// ring: when the control thread falls behind, the ring refuses and counts.
/// After a read that handed messages on it posts the control thread's
/// `ControlWakeup`. What it hands on is `ControlInputEvent.accepts`, the rule
/// the JACK `control` port follows too.
final class ControlInputReader: @unchecked Sendable {
    private let sequencer: Sequencer
    private let controlPort: UInt8
    private let announcePort: UInt8
    private let ring: SharedPointer<SPSCRing<ControlInputEvent>>?
    private let wakeup: ControlWakeup?
    /// Malformed clock-in events of each kind (a Song Position out of range, any
    /// other), so that each kind is said its 1st, 10th, 100th … time.
    private var malformedClockIn: [String: Int] = [:]
    /// `clock_in`'s port number and the push into the JACK cycle's ring (`--alsa-clock-from`).
    private let clockIn: (port: UInt8, push: @Sendable (TimedClockInputEvent) -> Void)?
    /// Messages handed on since the last post of `wakeup`.
    private var handedOn = 0
    private let connector: PortConnector
    private let statistics: ALSAStatistics
    private let report: @Sendable (String) -> Void
    private let queue: ClockQueue
    private var arrivals: ArrivalClock
    private let calibrationInterval: Int64
    /// For tests: runs before each message is handed on, to make the thread late on purpose.
    private let beforeHandingOn: (@Sendable (MIDIMessage) -> Void)?

    let stopRequested = Atomic<Bool>(false)

    /// Longest wait for input before looking at `stopRequested` again.
    static let pollTimeoutMilliseconds: Int32 = 50

    init(sequencer: Sequencer, controlPort: UInt8, announcePort: UInt8, queue: ClockQueue, calibrationIntervalMicroseconds: Int64,
         ring: SharedPointer<SPSCRing<ControlInputEvent>>?, wakeup: ControlWakeup? = nil,
         clockIn: (port: UInt8, push: @Sendable (TimedClockInputEvent) -> Void)? = nil, connector: PortConnector, statistics: ALSAStatistics,
         beforeHandingOn: (@Sendable (MIDIMessage) -> Void)? = nil, report: @escaping @Sendable (String) -> Void) {
        self.sequencer = sequencer
        self.controlPort = controlPort
        self.announcePort = announcePort
        self.ring = ring
        self.wakeup = wakeup
        self.clockIn = clockIn
        self.connector = connector
        self.statistics = statistics
        self.report = report
        self.queue = queue
        arrivals = ArrivalClock(queue: queue.id)
        calibrationInterval = calibrationIntervalMicroseconds
        self.beforeHandingOn = beforeHandingOn
    }

    func run() {
        let count = Int(snd_seq_poll_descriptors_count(sequencer.handle, Int16(POLLIN)))
        var descriptors = [pollfd](repeating: pollfd(), count: max(count, 1))
        let filled = Int(snd_seq_poll_descriptors(sequencer.handle, &descriptors, UInt32(descriptors.count), Int16(POLLIN)))
        var nextCalibration = Int64.min
        while !stopRequested.load(ordering: .acquiring) {
            let now = MonotonicClock.microseconds()
            if now >= nextCalibration {
                // A queue that cannot be read keeps the last calibration (the clock
                // thread reports it); without any, messages are timed by the read.
                arrivals.calibration.update(with: queue.calibrationReadings())
                nextCalibration = now + calibrationInterval
            }
            _ = poll(&descriptors, nfds_t(filled), Self.pollTimeoutMilliseconds)
            readAvailable()
            if handedOn > 0 {
                handedOn = 0
                wakeup?.post()
            }
        }
    }

    /// Reads until the kernel has nothing more (`-EAGAIN` on the non-blocking handle).
    private func readAvailable() {
        var readSinceCheck = 0
        while true {
            var event: UnsafeMutablePointer<snd_seq_event_t>?
            let result = snd_seq_event_input(sequencer.handle, &event)
            if result == -EAGAIN { return }
            if result == -ENOSPC {
                // The kernel's input FIFO overflowed and was emptied: events were lost
                // before we could read them (a flood faster than we read).
                let overruns = statistics.inputOverruns.add(1, ordering: .relaxed).newValue
                if Self.isPowerOfTen(overruns) {
                    report("ALSA: controller input overflowed (\(overruns) time\(overruns == 1 ? "" : "s")): "
                           + "some MIDI input was dropped by the kernel")
                }
                continue
            }
            if result < 0 {
                report("\(SequencerError("snd_seq_event_input", code: result))")
                return
            }
            guard let event else { continue }
            handle(event.pointee)
            readSinceCheck += 1
            if readSinceCheck >= 256 {
                readSinceCheck = 0
                if stopRequested.load(ordering: .relaxed) { return }
            }
        }
    }

    /// Overflows are reported the 1st, 10th, 100th … time: a flood says so without flooding the terminal.
    static func isPowerOfTen(_ n: Int) -> Bool {
        var n = n
        while n >= 10 && n % 10 == 0 { n /= 10 }
        return n == 1
    }

    private func handle(_ event: snd_seq_event_t) {
        if event.source.client == UInt8(SND_SEQ_CLIENT_SYSTEM),
           UInt32(event.type) == SND_SEQ_EVENT_PORT_SUBSCRIBED.rawValue || UInt32(event.type) == SND_SEQ_EVENT_PORT_UNSUBSCRIBED.rawValue {
            // Sent to the port concerned (clock or control), not to the announce port.
            connector.handle(subscription: event)
            return
        }
        if event.dest.port == announcePort && event.source.client == UInt8(SND_SEQ_CLIENT_SYSTEM) {
            connector.handle(announcement: event)
            return
        }
        if let clockIn, event.dest.port == clockIn.port {
            return handOn(clock: event, to: clockIn.push)
        }
        guard event.dest.port == controlPort else { return }
        switch DecodedInput(event) {
        case .message(let message) where ControlInputEvent.accepts(message):
            statistics.inputMessages.add(1, ordering: .relaxed)
            beforeHandingOn?(message)
            let arrival = arrivals.microseconds(of: event, readAt: MonotonicClock.microseconds())
            ring?.pointer.pointee.push(ControlInputEvent(message: message, microseconds: arrival))
            handedOn += 1
        case .message, .ignored:
            statistics.ignoredInput.add(1, ordering: .relaxed)
        case .malformed:
            statistics.malformedInput.add(1, ordering: .relaxed)
        }
    }

    /// One event of the incoming clock: a beat-clock message stamped with its
    /// arrival and pushed for the JACK cycle (a full ring drops and counts it,
    /// `SPSCRing.dropped`); a malformed one said (the 1st, 10th, 100th … time of
    /// its kind, `isPowerOfTen`) and skipped, anything else counted and skipped.
    private func handOn(clock event: snd_seq_event_t, to push: @Sendable (TimedClockInputEvent) -> Void) {
        switch ClockInputArrival(event) {
        case .clock(let message):
            statistics.clockInMessages.add(1, ordering: .relaxed)
            let arrival = arrivals.microseconds(of: event, readAt: MonotonicClock.microseconds())
            push(TimedClockInputEvent(message, microseconds: arrival))
        case .malformed(let kind, let line):
            statistics.clockInMalformed.add(1, ordering: .relaxed)
            let count = malformedClockIn[kind, default: 0] + 1
            malformedClockIn[kind] = count
            if Self.isPowerOfTen(count) { report(count == 1 ? line : "\(line) (\(count) times)") }
        case .notClock:
            statistics.clockInIgnored.add(1, ordering: .relaxed)
        }
    }
}
