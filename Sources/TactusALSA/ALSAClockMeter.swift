import CALSA
import CALSAShims
import Glibc
import TactusCore

/// `tactus clock-meter --alsa-clock-from C:P` (docs/DESIGN.md §9.1, "The meter"):
/// a sequencer client `tactus-meter` with one input port subscribed to `C:P`.
/// The kernel stamps every event delivered to the port with a queue's real time
/// as it delivers it (`Sequencer.stampArrivals`, as Tactus's `control` port is
/// stamped), so the figures are arrival times in µs, not the times this thread
/// woke up to read: what the sender's timer and the sequencer delivered. The
/// intervals need no calibration to the monotonic clock (`ArrivalClock`): the
/// meter reads the queue's own stamps.
///
/// The sequencer carries whole events, not bytes: Timing Clock, Start, Stop,
/// Continue and Song Position are `ClockInputEvent`s; an event whose fields are
/// out of MIDI's range is a line naming its type, its sender and its index.
public enum ALSAClockMeter {
    public struct Settings: Sendable {
        public var source: PortSpecifier
        public var tempo: BPM?
        public var seconds: Double?

        public init(source: PortSpecifier) { self.source = source }
    }

    /// The queue's timer rate: its real time is the kernel's clock whatever the
    /// rate; the stamps are read from it at delivery (ClockQueue's resolution).
    static let queueResolutionHz = 1_000
    /// Longest wait for input before the second's line and the stop are looked at.
    static let pollMilliseconds: Int32 = 50

    /// Runs until `--seconds`, SIGINT or SIGTERM (blocked by the caller). Status 0; 1
    /// when there is no sequencer or no such port.
    /// `shouldStop` is asked after each read (every 50 ms at most): a signal, or a test's end.
    public static func run(_ settings: Settings, shouldStop: () -> Bool, output: (String) -> Void, log: (String) -> Void) -> Int32 {
        let sequencer: Sequencer
        let port: UInt8
        let queue: ClockQueue
        do {
            sequencer = try Sequencer(name: "tactus-meter")
            port = try sequencer.createPort(name: "clock_in", capabilities: Int32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE),
                                            type: Int32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION))
            queue = try ClockQueue(sequencer: sequencer, name: "tactus-meter", resolutionHz: queueResolutionHz)
        } catch {
            log("clock-meter: ALSA sequencer not available: \(error.reason)")
            return 1
        }
        defer { queue.stop(); queue.free() }
        let own = SequencerAddress(client: sequencer.clientID, port: port)
        guard let source = settings.source.resolve(in: sequencer.ports(), direction: .source) else {
            log("clock-meter: no ALSA sequencer port '\(settings.source)' that sends MIDI (tactus ports lists them: out)")
            return 1
        }
        do {
            try queue.start()
            try sequencer.stampArrivals(onPort: port, with: queue.id)
            try sequencer.subscribe(from: source.address, to: own)
        } catch {
            log("clock-meter: \(error)")
            return 1
        }
        var meter = ClockMeter(rate: 1_000_000, origin: 0, tempo: settings.tempo)
        for line in meter.header(source: "ALSA \(source.address) \(source.clientName):\(source.portName) → \(own) tactus-meter:clock_in") { output(line) }
        let count = Int(snd_seq_poll_descriptors_count(sequencer.handle, Int16(POLLIN)))
        var descriptors = [pollfd](repeating: pollfd(), count: max(count, 1))
        let filled = Int(snd_seq_poll_descriptors(sequencer.handle, &descriptors, UInt32(descriptors.count), Int16(POLLIN)))
        let begin = MonotonicClock.microseconds()
        let end = settings.seconds.map { begin + Int64($0 * 1_000_000) }
        var second = 1
        var eventIndex = 0
        while true {
            _ = poll(&descriptors, nfds_t(filled), pollMilliseconds)
            while true {
                var event: UnsafeMutablePointer<snd_seq_event_t>?
                let result = snd_seq_event_input(sequencer.handle, &event)
                if result == -EAGAIN { break }
                if result == -ENOSPC { log("clock-meter: the kernel's input FIFO overflowed: events were lost"); continue }
                guard result >= 0, let event else { break }
                guard event.pointee.dest.port == port else { continue }
                let time = event.pointee.time.time.microseconds
                let from = SequencerAddress(client: event.pointee.source.client, port: event.pointee.source.port)
                let decoded: ClockInputDecoder.Output?
                // DecodedInput passes Timing Clock over (the control input's rule); the meter wants it.
                let isTick = UInt32(event.pointee.type) == SND_SEQ_EVENT_CLOCK.rawValue
                switch isTick ? .message(.timingClock) : DecodedInput(event.pointee) {
                case .message(.timingClock): decoded = .event(.tick)
                case .message(.start): decoded = .event(.start)
                case .message(.continue): decoded = .event(.continue)
                case .message(.stop): decoded = .event(.stop)
                case .message(.songPosition(let sixteenths)): decoded = .event(.songPosition(midiBeats: sixteenths))
                case .malformed:
                    output("clock in: ALSA event of type \(event.pointee.type) from \(from) with a field out of MIDI's range at event \(eventIndex), ignored")
                    decoded = nil
                default: decoded = nil
                }
                eventIndex += 1
                if let decoded, let line = meter.receive(decoded, at: time) { output(line) }
            }
            let now = MonotonicClock.microseconds()
            if now >= begin + Int64(second) * 1_000_000 {
                output(meter.secondLine(second: second))
                second += 1
            }
            if let end, now >= end { break }
            if shouldStop() { break }
        }
        return 0
    }
}
