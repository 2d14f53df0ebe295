import CALSA
#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// Tactus on the ALSA sequencer: a client named `Tactus` with a `clock` port
/// (readable, subscribable: MIDI beat clock, Start/Stop/Continue, Song Position),
/// a `control` port (writable, subscribable: where a keyboard controller is
/// connected), with `--alsa-clock-from` a `clock_in` port (writable: the leader's
/// clock, docs/DESIGN.md §9.1), a real-time queue on the high-resolution timer, and the two
/// normal-priority threads that serve them. Nothing here runs on the JACK thread;
/// the JACK process callback only pushes into the clock ring and pops the clock-in ring.
///
/// Start and stop it from one thread (the run mode's main thread).
public final class ALSAClient: @unchecked Sendable {
    public let sequencer: Sequencer
    public let clockPort: SequencerAddress
    public let controlPort: SequencerAddress
    /// `clock_in` (writable, subscribable: the leader's MIDI beat clock), with
    /// `--alsa-clock-from` only.
    public let clockInPort: SequencerAddress?
    public let queue: ClockQueue
    public let statistics = ALSAStatistics()
    public let options: ALSAOptions
    /// The pool sizes the kernel granted (output, input).
    public let pools: (output: Int, input: Int)

    private let announcePort: UInt8
    private let connector: PortConnector
    private let report: @Sendable (String) -> Void
    private var scheduler: ClockScheduler?
    private var reader: ControlInputReader?
    private var clockThread: WorkerThread?
    private var inputThread: WorkerThread?
    private var stopped = false

    /// Opens the client, creates its ports and queue, starts the queue, and makes
    /// the connections of `options` whose ports exist (the others are made when
    /// they appear, once the input thread runs). `report` receives one line per
    /// notable event (a connection made or lost, the system timer in use, an error).
    public init(options: ALSAOptions, report: @escaping @Sendable (String) -> Void) throws(SequencerError) {
        self.options = options
        self.report = report
        sequencer = try Sequencer(name: options.clientName)
        let type = Int32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION)
        let clock = try sequencer.createPort(name: "clock", capabilities: Int32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ), type: type)
        let control = try sequencer.createPort(name: "control", capabilities: Int32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE), type: type)
        // A private port for the kernel's announcements, so `control` carries only
        // what the user connected; NO_EXPORT keeps others from routing to it.
        announcePort = try sequencer.createPort(name: "announcements", capabilities: Int32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_NO_EXPORT),
                                                type: Int32(SND_SEQ_PORT_TYPE_APPLICATION))
        clockPort = SequencerAddress(client: sequencer.clientID, port: clock)
        controlPort = SequencerAddress(client: sequencer.clientID, port: control)
        if options.clockInSource != nil {
            let port = try sequencer.createPort(name: "clock_in", capabilities: Int32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE), type: type)
            clockInPort = SequencerAddress(client: sequencer.clientID, port: port)
        } else {
            clockInPort = nil
        }
        pools = try sequencer.setPools(output: options.outputPoolSize, input: options.inputPoolSize)
        if pools.output < options.outputPoolSize || pools.input < options.inputPoolSize {
            report("ALSA sequencer: the kernel granted event pools of \(pools.output) out / \(pools.input) in "
                   + "(asked \(options.outputPoolSize) / \(options.inputPoolSize)); a flood of input may be dropped")
        }
        queue = try ClockQueue(sequencer: sequencer, name: "\(options.clientName) clock", resolutionHz: options.timerFrequencyHz)
        try queue.start()
        do {
            try sequencer.stampArrivals(onPort: control, with: queue.id)
        } catch {
            report("\(error); controller input is timed when read, not when it arrived")
        }
        if let clockInPort {
            // The follower takes each tick at its arrival's frame (docs/DESIGN.md §9.1): without the stamp, the read's time.
            do {
                try sequencer.stampArrivals(onPort: clockInPort.port, with: queue.id)
            } catch {
                report("\(error); the incoming clock is timed when read, not when it arrived")
            }
        }
        if let warning = Self.timerWarning(queue.timerReport()) { report(warning) }
        try sequencer.subscribe(from: .systemAnnounce, to: SequencerAddress(client: sequencer.clientID, port: announcePort))
        connector = PortConnector(sequencer: sequencer, clockPort: clockPort, controlPort: controlPort, clockInPort: clockInPort, report: report)
        for destination in options.clockDestinations { connector.want(destination, direction: .destination, ownPort: clockPort) }
        for source in options.controlSources { connector.want(source, direction: .source, ownPort: controlPort) }
        if let source = options.clockInSource, let clockInPort { connector.want(source, direction: .source, ownPort: clockInPort) }
        connector.connectWaiting(initially: true)
    }

    deinit { stop() }

    /// The one warning when the kernel gave the queue another timer than the
    /// high-resolution one; nil when it is the HR timer or /proc does not say.
    static func timerWarning(_ timer: SequencerTimerReport?) -> String? {
        guard let timer, !timer.isHighResolution else { return nil }
        let period = timer.period.map { String(Int(($0 * 1_000_000).rounded())) + " µs" } ?? "unknown period"
        return "ALSA sequencer: the clock queue runs on the \(timer.name) (\(period)), not the high-resolution timer; "
            + "the ALSA clock will jitter by up to a period. Load snd-hrtimer (sudo modprobe snd-hrtimer) and restart"
    }

    /// Opens the client and starts both threads; when the sequencer cannot be
    /// opened (no `/dev/snd/seq`, no permission), says so once through `report`
    /// and returns nil, so the caller carries on with JACK only.
    public static func start(options: ALSAOptions, clockStream: ClockStreamSource,
                             controlEvents: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>?, wakeup: ControlWakeup? = nil,
                             clockInEvents: (@Sendable (TimedClockInputEvent) -> Void)? = nil,
                             report: @escaping @Sendable (String) -> Void) -> ALSAClient? {
        do {
            let client = try ALSAClient(options: options, report: report)
            client.startClock(clockStream)
            client.startInput(into: controlEvents, wakeup: wakeup, clockIn: clockInEvents)
            return client
        } catch {
            report(unavailable(error))
            return nil
        }
    }

    /// The one line for a sequencer that cannot be used: the ALSA clock is off,
    /// why in words (snd_seq_open fails with ENOENT when /dev/snd/seq is missing,
    /// the snd-seq module not loaded or no sound card; EACCES without the audio
    /// group's permission), and that the JACK side is untouched.
    public static func unavailable(_ error: SequencerError) -> String {
        let why: String
        switch (error.operation, -error.code) {
        case ("snd_seq_open", ENOENT), ("snd_seq_open", ENODEV): why = "there is no /dev/snd/seq (load it with sudo modprobe snd-seq)"
        case ("snd_seq_open", EACCES), ("snd_seq_open", EPERM): why = "/dev/snd/seq may not be opened by this user (join the audio group)"
        default: why = "the sequencer refused: \(error.reason)"
        }
        return "ALSA clock off: \(why); the JACK MIDI clock and control ports still work"
    }

    /// Starts the clock thread on the clock stream the JACK process callback fills
    /// (absolute engine frames) and the frame clock it publishes every cycle.
    /// Whatever `clockStream` reads must outlive `stop()`.
    public func startClock(_ clockStream: ClockStreamSource) {
        startClock(clockStream, recorder: nil)
    }

    /// The same, for a ring and a reference at their own addresses.
    public func startClock(events: UnsafeMutablePointer<SPSCRing<TimedMIDIEvent>>, reference: UnsafeMutablePointer<FrameClockReference>) {
        startClock(ClockStreamSource(events: events, reference: reference), recorder: nil)
    }

    func startClock(_ clockStream: ClockStreamSource, recorder: ScheduleRecorder?) {
        precondition(scheduler == nil, "the ALSA clock is already running")
        let scheduler = ClockScheduler(
            sequencer: sequencer, queue: queue, port: clockPort.port, source: clockStream,
            lookAheadMicroseconds: options.lookAheadMicroseconds, calibrationIntervalMicroseconds: options.calibrationIntervalMicroseconds,
            statistics: statistics, recorder: recorder, report: report)
        scheduler.calibrateNow()
        self.scheduler = scheduler
        clockThread = WorkerThread(name: "tactus-alsa-clk") { scheduler.run() }
    }

    /// Starts the input thread: controller messages arriving on `control` go to
    /// `ring` (nil: read and dropped), then `wakeup` is posted; the beat clock
    /// arriving on `clock_in` goes to `clockIn`, a push into the JACK cycle's
    /// ring (`JackShared.clockInArrivals`), which the cycle reads every period
    /// without being woken; announcements keep the connections.
    public func startInput(into ring: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>?, wakeup: ControlWakeup? = nil,
                           clockIn: (@Sendable (TimedClockInputEvent) -> Void)? = nil) {
        startInput(into: ring, wakeup: wakeup, clockIn: clockIn, beforeHandingOn: nil)
    }

    /// The same; `beforeHandingOn` runs on the input thread before each message
    /// is stamped and handed on (tests make the thread late with it).
    func startInput(into ring: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>?, wakeup: ControlWakeup? = nil,
                    clockIn: (@Sendable (TimedClockInputEvent) -> Void)? = nil,
                    beforeHandingOn: (@Sendable (MIDIMessage) -> Void)?) {
        precondition(reader == nil, "the ALSA input is already running")
        let reader = ControlInputReader(sequencer: sequencer, controlPort: controlPort.port, announcePort: announcePort, queue: queue,
                                        calibrationIntervalMicroseconds: options.calibrationIntervalMicroseconds,
                                        ring: ring.map { SharedPointer($0) }, wakeup: wakeup,
                                        clockIn: clockInPort.flatMap { port in clockIn.map { (port.port, $0) } },
                                        connector: connector, statistics: statistics,
                                        beforeHandingOn: beforeHandingOn, report: report)
        self.reader = reader
        inputThread = WorkerThread(name: "tactus-alsa-in") { reader.run() }
    }

    /// Sends what is still in the clock ring, waits until the queue has delivered
    /// it (so a final Stop gets out), stops both threads and the queue. The run
    /// mode calls it after the last JACK cycle has pushed its events.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        scheduler?.stopRequested.store(true, ordering: .releasing)
        clockThread?.join()
        if scheduler != nil { report(statistics.clockSummary) }
        reader?.stopRequested.store(true, ordering: .releasing)
        inputThread?.join()
        queue.stop()
        queue.free()
    }

    /// Queue time (µs since the queue started) of monotonic time `monotonic` (µs),
    /// as the clock thread maps it; nil before the clock thread calibrated.
    public func queueMicroseconds(atMonotonic monotonic: Double) -> Int64? {
        guard let origin = scheduler?.origin else { return nil }
        return Int64((monotonic - origin).rounded())
    }
}
