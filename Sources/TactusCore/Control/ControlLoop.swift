import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The control thread's work: MIDI from the input rings into the pressure
/// controller, the controller's decisions out to the engine and the application.
///
/// Each `poll()`:
/// 1. adopts a tempo that something else stored in `TempoState` (a preset, the
///    terminal keys), so a hold goes on from it;
/// 2. drains every input ring and feeds the controller in time-stamp order, each
///    message at its own time (the time it reached the JACK or ALSA port, not
///    the time this thread looked), so the timeline starts at the real Note On;
/// 3. lets the controller's clock run to now;
/// 4. stores tempo into `EngineControl.tempo`, pushes `.cue` commands, and
///    reports gestures, Program Change, transport, last tempo and messages.
///
/// Tests drive `poll()` with a `VirtualClock`; the application calls `run()` on
/// its control thread, which sleeps until the next step or a short poll interval.
/// Everything runs on that one thread: the engine's command ring has one
/// producer, so other command pushes must come from the same thread (the report
/// callback runs there).
public final class ControlLoop<Clock: ControlClock>: @unchecked Sendable {
    public private(set) var controller: PressureController
    /// How often, at most, a changed status is reported (30 per second: SPEC §4 rule 10).
    public var statusInterval: Int64 = 33_333
    /// Longest sleep of `run()`: the input rings are polled, not signalled.
    public var pollInterval: Int64 = 1_000

    private let engine: UnsafeMutablePointer<EngineControl>
    private let inputs: [() -> ControlInputEvent?]
    private let clock: Clock
    private let report: (ControlReport) -> Void
    private let stopRequested = Atomic<Bool>(false)
    /// The tempo this loop last stored; anything else found there came from outside.
    private var writtenTempo: BPM
    private var batch: [(index: Int, event: ControlInputEvent)] = []
    private var reportedStatus: PressureStatus?
    private var statusReportedAt: ControlTime?

    /// - Parameters:
    ///   - engine: the shared engine state; the loop stores tempo and pushes cues.
    ///   - inputs: rings filled by the MIDI inputs (JACK `control`, ALSA `control`).
    ///   - report: called on the control thread for what the application must do.
    public convenience init(configuration: PressureConfiguration, engine: UnsafeMutablePointer<EngineControl>,
                            inputs: [UnsafeMutablePointer<SPSCRing<ControlInputEvent>>], clock: Clock,
                            report: @escaping (ControlReport) -> Void) {
        self.init(configuration: configuration, engine: engine, sources: inputs.map { ring in { ring.pointee.pop() } },
                  clock: clock, report: report)
    }

    /// The same, with each input given as its consumer end: a function that pops
    /// the next event or returns nil (e.g. `{ shared.pointee.controlInput.pop() }`
    /// for a ring that lives inside a larger shared context).
    public init(configuration: PressureConfiguration, engine: UnsafeMutablePointer<EngineControl>,
                sources: [() -> ControlInputEvent?], clock: Clock,
                report: @escaping (ControlReport) -> Void) {
        let tempo = engine.pointee.tempo.load()
        controller = PressureController(configuration: configuration, tempo: tempo, at: clock.now())
        self.engine = engine
        inputs = sources
        self.clock = clock
        self.report = report
        writtenTempo = tempo
        batch.reserveCapacity(256)
    }

    /// New pressure settings (a preset switch). Call on the control thread.
    public func setConfiguration(_ configuration: PressureConfiguration) {
        controller.setConfiguration(configuration)
    }

    /// A tempo chosen on the control thread by something other than MIDI (the
    /// terminal's arrow keys, tap tempo): stored here, so the loop stays the one
    /// writer of `TempoState`, and a hold in progress goes on from it.
    public func setTempo(_ tempo: BPM) {
        controller.setTempo(tempo)
        engine.pointee.tempo.store(tempo)
        writtenTempo = tempo
    }

    /// One round; returns when the controller next needs the time to move on
    /// (nil: only new input can change anything).
    @discardableResult
    public func poll() -> ControlTime? {
        let current = engine.pointee.tempo.load()
        if current != writtenTempo {
            controller.setTempo(current)
            writtenTempo = current
        }

        batch.removeAll(keepingCapacity: true)
        for pop in inputs {
            while let event = pop() { batch.append((batch.count, event)) }
        }
        // Two inputs may interleave: merge by time stamp, arrival order on ties.
        batch.sort { $0.event.microseconds != $1.event.microseconds
            ? $0.event.microseconds < $1.event.microseconds : $0.index < $1.index }

        let now = clock.now()
        for (_, event) in batch {
            // A stamp from the future (another clock's rounding) counts as now.
            let time = min(ControlTime(microseconds: event.microseconds), now)
            route(event.message, at: time)
        }
        apply(controller.advance(to: now))
        reportStatus(at: now)
        return controller.nextDeadline
    }

    private func route(_ message: MIDIMessage, at time: ControlTime) {
        switch message {
        case .programChange(let channel, let program):
            if controller.configuration.listens(to: channel) {
                apply(controller.advance(to: time))
                report(.programChange(channel: channel, program: program))
            }
        case .start:
            report(.transport(.start))
        case .stop:
            report(.transport(.stop))
        case .continue:
            report(.transport(.continue))
        default:
            apply(controller.handle(message, at: time))
        }
    }

    private func apply(_ effects: [TimedPressureEffect]) {
        for timed in effects {
            switch timed.effect {
            case .tempo(let tempo):
                engine.pointee.tempo.store(tempo)
                writtenTempo = tempo
            case .cue(let sound):
                engine.pointee.commands.push(.cue(sound))
                report(.cue(sound))
            case .nextPreset:
                report(.nextPreset)
            case .holdEnded(let tempo):
                report(.lastTempo(tempo))
            case .stuckKeyReleased:
                if let message = timed.effect.message { report(.message(message)) }
            }
        }
    }

    private func reportStatus(at now: ControlTime) {
        let status = controller.status
        guard status != reportedStatus else { return }
        if let last = statusReportedAt, now - last < statusInterval { return }
        reportedStatus = status
        statusReportedAt = now
        report(.status(status))
    }

    // MARK: - The application's control thread

    /// Asks `run()` to return after its current round. Any thread.
    public func requestStop() {
        stopRequested.store(true, ordering: .releasing)
    }

    /// Polls until `requestStop()`, sleeping until the next step deadline but
    /// never longer than `pollInterval` (1 ms: the input rings have no wake-up).
    /// Call on the control thread, with a `MonotonicClock`.
    public func run() {
        while !stopRequested.load(ordering: .acquiring) {
            let deadline = poll()
            let now = clock.now()
            var wake = now + pollInterval
            if let deadline, deadline < wake { wake = deadline }
            ControlLoopSleep.until(wake)
        }
    }
}

enum ControlLoopSleep {
    /// Sleeps until `time` on CLOCK_MONOTONIC (absolute, so a late wake-up does not add up).
    static func until(_ time: ControlTime) {
        guard time.microseconds > 0 else { return }
        var spec = timespec(tv_sec: Int(time.microseconds / 1_000_000), tv_nsec: Int(time.microseconds % 1_000_000) * 1_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}
