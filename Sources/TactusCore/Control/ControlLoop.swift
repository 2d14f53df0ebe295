import Synchronization

/// The control thread's work: MIDI from the input rings into the pressure
/// controller, the controller's decisions out to the engine and the application.
///
/// It is the one writer of the tempo: keys, taps, presets and pressure all set
/// it through `setTempo`, and it reaches the engine only as a `.setTempo`
/// command (or riding on a preset's `.changeBar`). The control thread's one copy
/// is the pressure controller's (`tempo`); what the engine plays is
/// `EngineStatus.tempoHundredths`.
///
/// Each `poll()`:
/// 1. drains every input ring and feeds the controller in time-stamp order, each
///    message at its own time (the time it reached the JACK or ALSA port, not
///    the time this thread looked), so the timeline starts at the real Note On;
/// 2. lets the controller's clock run to now;
/// 3. pushes `.setTempo` and `.cue` commands, and reports gestures, Program
///    Change, transport, last tempo and messages;
/// 4. returns when it next needs a round with no new input.
///
/// Tests drive `poll()` with a `VirtualClock`. The application's control thread
/// calls `run(wakeup:round:)`, which sleeps on a `ControlWakeup` until an input
/// posts it or the earliest deadline of the round falls due.
/// Everything runs on that one thread: the engine's command ring has one
/// producer, so other command pushes must come from the same thread (the report
/// callback runs there).
public final class ControlLoop<Clock: ControlClock>: @unchecked Sendable {
    public private(set) var controller: PressureController
    /// How often, at most, a changed status is reported (30 per second: docs/DESIGN.md §5.10).
    public var statusInterval: Int64 = 33_333
    /// While continuous mode glides the tempo moves with time itself, not at
    /// deadlines: a round this often (1 ms; a clock tick at 999 BPM is 2.5 ms).
    public var glideInterval: Int64 = 1_000
    /// Buttons and pedals bound to actions (`controller.json`'s `actions`): their
    /// messages are reported as `.action` and never reach the pressure controller.
    public var actions = ActionMap()

    private let engine: UnsafeMutablePointer<EngineControl>
    private let inputs: [() -> ControlInputEvent?]
    private let clock: Clock
    private let report: (ControlReport) -> Void
    private let stopRequested = Atomic<Bool>(false)
    /// A `.setTempo` the full command ring refused (no server drains it): sent again next round.
    private var tempoUnsent = false
    private var batch: [(index: Int, event: ControlInputEvent)] = []
    /// How many input events the last `poll()` took from the rings.
    public private(set) var lastPollInputs = 0
    private var reportedStatus: PressureStatus?
    private var statusReportedAt: ControlTime?

    /// - Parameters:
    ///   - tempo: the tempo the engine starts with (its `EngineConfiguration.tempo`).
    ///   - engine: the shared engine state; the loop pushes tempo and cues.
    ///   - inputs: rings filled by the MIDI inputs (JACK `control`, ALSA `control`).
    ///   - report: called on the control thread for what the application must do.
    public convenience init(configuration: PressureConfiguration, tempo: BPM, engine: UnsafeMutablePointer<EngineControl>,
                            inputs: [UnsafeMutablePointer<SPSCRing<ControlInputEvent>>], clock: Clock,
                            report: @escaping (ControlReport) -> Void) {
        self.init(configuration: configuration, tempo: tempo, engine: engine, sources: inputs.map { ring in { ring.pointee.pop() } },
                  clock: clock, report: report)
    }

    /// The same, with each input given as its consumer end: a function that pops
    /// the next event or returns nil (e.g. `{ shared.pointee.controlInput.pop() }`
    /// for a ring that lives inside a larger shared context).
    public init(configuration: PressureConfiguration, tempo: BPM, engine: UnsafeMutablePointer<EngineControl>,
                sources: [() -> ControlInputEvent?], clock: Clock,
                report: @escaping (ControlReport) -> Void) {
        controller = PressureController(configuration: configuration, tempo: tempo, at: clock.now())
        self.engine = engine
        inputs = sources
        self.clock = clock
        self.report = report
        batch.reserveCapacity(256)
    }

    /// New pressure settings (a preset switch). Call on the control thread.
    public func setConfiguration(_ configuration: PressureConfiguration) {
        controller.setConfiguration(configuration)
    }

    /// The tempo the control thread wants (the engine takes it at its next clock tick).
    public var tempo: BPM { controller.tempo }

    /// Every tempo chosen on the control thread other than by pressure (the
    /// terminal's keys, tap tempo, a preset): sent to the engine, and a hold in
    /// progress goes on from it.
    ///
    /// `alreadySent`: the tempo rode on a command the caller just pushed (a
    /// preset's `.changeBar`, which applies it on the switch's bar line together
    /// with the bar); a `.setTempo` as well would move the tempo at the next
    /// clock tick, ahead of the bar line.
    public func setTempo(_ tempo: BPM, alreadySent: Bool = false) {
        controller.setTempo(tempo)
        if alreadySent { tempoUnsent = false } else { send(tempo) }
    }

    /// A tempo another owner set (a Link peer): the controller goes on from it,
    /// and nothing is sent, since the engine's source already plays it.
    public func adopt(_ tempo: BPM) {
        controller.setTempo(tempo)
    }

    private func send(_ tempo: BPM) {
        tempoUnsent = !engine.pointee.commands.push(.setTempo(tempo))
    }

    /// One round; returns when it next needs a round without new input (nil:
    /// only new input can change anything): the controller's next step, a
    /// status held back by `statusInterval`, or `glideInterval` while gliding.
    @discardableResult
    public func poll() -> ControlTime? {
        if tempoUnsent { send(tempo) }
        batch.removeAll(keepingCapacity: true)
        for pop in inputs {
            while let event = pop() { batch.append((batch.count, event)) }
        }
        lastPollInputs = batch.count
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
        let statusDue = reportStatus(at: now)
        let glide = controller.isGliding ? now + glideInterval : nil
        return ControlTime.earliest(ControlTime.earliest(controller.nextDeadline, statusDue), glide)
    }

    private func route(_ message: MIDIMessage, at time: ControlTime) {
        if !actions.isEmpty, let channel = message.channel, controller.configuration.listens(to: channel),
           let edge = actions.handle(message) {
            if edge.pressed {
                apply(controller.advance(to: time))
                report(.action(edge.binding.action, at: time, trigger: edge.binding.trigger))
            }
            return
        }
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
                send(tempo)
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

    /// Reports a changed status, at most every `statusInterval`; returns when a
    /// change held back is due.
    private func reportStatus(at now: ControlTime) -> ControlTime? {
        let status = controller.status
        guard status != reportedStatus else { return nil }
        if let last = statusReportedAt, now - last < statusInterval { return last + statusInterval }
        reportedStatus = status
        statusReportedAt = now
        report(.status(status))
        return nil
    }

    // MARK: - The application's control thread

    /// Asks `run` to return after its current round. Any thread (post the
    /// wake-up it sleeps on when calling from another).
    public func requestStop() {
        stopRequested.store(true, ordering: .releasing)
    }
}

extension ControlLoop where Clock == MonotonicClock {
    /// Runs rounds until `requestStop()`. `round` is the control thread's work
    /// (it polls this loop, itself or through a session, and whatever else the
    /// thread owns: keys, display, the JACK supervisor) and returns the earliest
    /// time it next needs to run by itself; between rounds the thread sleeps on
    /// `wakeup` until then, or until an input posts it. Nothing wakes it on a
    /// fixed tick: idle, with nothing due, it sleeps until input arrives.
    public func run(wakeup: ControlWakeup, round: () -> ControlTime?) {
        while !stopRequested.load(ordering: .acquiring) {
            let next = round()
            guard !stopRequested.load(ordering: .acquiring) else { return }
            wakeup.wait(until: next)
        }
    }

    /// Rounds of `poll()` alone.
    public func run(wakeup: ControlWakeup) {
        run(wakeup: wakeup) { poll() }
    }
}
