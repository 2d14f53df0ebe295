import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// The run mode's control-thread round, apart from JACK: keys in, the control
/// session (MIDI, pressure, presets, keys), and out to the live display or,
/// when standard output is not a terminal (`--no-interactive`, a service, a
/// pipe), to the change log.
///
/// Create it after the JACK metronome (which blocks SIGINT/SIGTERM for the
/// threads started afterwards: the key reader and the standard-error reader
/// must not receive them), call `round()` in each round of the control thread
/// (`JackControlThread`) and sleep until `nextDeadline`, and `finish()` once
/// the thread returned, before printing anything.
///
/// It asks for rounds of its own only while there is something to draw: after
/// input or a change it looks again one redraw interval later (the engine takes
/// a command a cycle after it was pushed), while a bar change waits for its bar
/// line, and, on the live display, 30 times a second while running (the beat
/// moves). Idle, stopped or logging, it asks for none.
public final class RunFrontEnd {
    public let session: ControlSession<MonotonicClock>
    private let engine: UnsafeMutablePointer<EngineControl>
    private let clock = MonotonicClock()
    private let terminal: TerminalSession?
    private let screen: LiveScreen?
    private let changeLog: ChangeLogOutput?
    private let keys: KeyReader?
    private let errors: StandardErrorCapture?
    private let portsSource: () -> PortsStatus
    private var ports = PortsStatus()
    private var nextPortsRefresh = ControlTime.zero
    /// How often the JACK and ALSA figures are read (they change seldom; the DSP load slowly).
    public var portsInterval: Int64 = 250_000
    /// The OSC server's control-thread half (`--osc`), drained each round.
    public var remote: RemoteControl?
    /// The Link session's figures of this round (`--link`), set by the caller before `round`.
    public var linkSession: LinkSessionView?
    /// The incoming MIDI clock's row, with `--clock-in` (`ClockInWatch`).
    public var clockIn: ClockInView?
    /// How often the display model is built from the engine: the screen redraws at
    /// most 30 times a second, so looking more often only costs CPU.
    public var modelInterval: Int64 = 33_333
    private var nextModel = ControlTime.zero
    /// When the next round is due without new input: the pressure controller's
    /// next step or a redraw; nil when only input can change what is shown.
    public private(set) var nextDeadline: ControlTime?
    /// The last model drawn, ports aside (their DSP figure moves every look).
    private var shownState: DisplayModel?

    /// - Parameters:
    ///   - interactive: the live display and keys; else the change log on standard output.
    ///   - ports: reads the JACK status and connections (called at most every `portsInterval`).
    public init(session: ControlSession<MonotonicClock>, engine: UnsafeMutablePointer<EngineControl>, interactive: Bool,
                environment: [String: String], wakeup: ControlWakeup? = nil, ports: @escaping () -> PortsStatus) {
        self.session = session
        self.engine = engine
        portsSource = ports
        if interactive {
            let terminal = TerminalSession()
            errors = StandardErrorCapture()
            terminal.enter()
            self.terminal = terminal
            keys = terminal.keysAreRaw ? KeyReader(input: terminal.input, wakeup: wakeup) : nil
            keys?.start()
            let color = ColorPolicy.allowed(environment: environment, outputIsTerminal: TerminalSession.isTerminal(terminal.output))
            screen = LiveScreen(terminal: terminal, color: color, counter: RedrawCounter(environment: environment))
            changeLog = nil
        } else {
            terminal = nil
            errors = nil
            keys = nil
            screen = nil
            changeLog = ChangeLogOutput()
        }
    }

    deinit { finish() }

    /// Interactive by default when standard output is a terminal (`-i` / `--no-interactive` decide otherwise).
    public static func isInteractive(_ options: Options) -> Bool {
        options.interactive ?? TerminalSession.isTerminal(STDOUT_FILENO)
    }

    /// One round of the control thread; true once the player pressed `q` or Ctrl-C.
    /// `portsChanged`: the JACK client's figures changed (`JackMetronome.changes`),
    /// read them now rather than at the next `portsInterval`.
    @discardableResult
    public func round(portsChanged: Bool = false) -> Bool {
        let now = clock.now()
        let typed = keys?.drain() ?? []
        let controller = session.poll(keys: typed)
        let remoteDue = remote?.round(at: now)
        let remoteInput = (remote?.lastRoundRequests ?? 0) > 0
        // After the keys, which clear the message line: what was said this round stays.
        let said = errors?.take() ?? []
        for line in said {
            session.say(line.hasPrefix("tactus: ") ? String(line.dropFirst(8)) : line)
        }
        if now >= nextPortsRefresh || portsChanged {
            ports = portsSource()
            nextPortsRefresh = now + portsInterval
        }
        var changed = false
        let drawn = now >= nextModel || !typed.isEmpty || remoteInput
        if drawn {
            nextModel = now + modelInterval
            var model = DisplayModel(engine: engine.pointee, session: session, ports: ports)
            model.link = linkSession
            model.clockIn = clockIn
            screen?.show(model, at: now)
            changeLog?.show(model)
            var state = model
            state.jack = .waiting(server: nil)
            state.connections = []
            changed = state != shownState
            shownState = state
        }
        let running = engine.pointee.status.running.load(ordering: .relaxed)
        let lookAgain = !drawn || changed || portsChanged || !said.isEmpty || !typed.isEmpty || remoteInput || session.loop.lastPollInputs > 0
            || session.changePending || (screen != nil && running)
        nextDeadline = ControlTime.earliest(ControlTime.earliest(ControlTime.earliest(controller, lookAgain ? nextModel : nil), session.messageExpires),
                                            remoteDue)
        return session.quitRequested
    }

    /// Keys stopped, the terminal restored, what was said on standard error printed.
    public func finish() {
        keys?.stop()
        terminal?.leave()
        errors?.finish()
    }
}
