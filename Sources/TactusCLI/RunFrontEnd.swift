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
/// must not receive them), call `round()` from the metronome's tick, and
/// `finish()` once it returned, before printing anything.
public final class RunFrontEnd {
    public let session: ControlSession<MonotonicClock>
    private let engine: UnsafeMutablePointer<EngineControl>
    private let clock = MonotonicClock()
    private let terminal: TerminalSession?
    private let screen: LiveScreen?
    private let changeLog: ChangeLogOutput?
    private let keys: KeyReader?
    private let errors: StandardErrorCapture?
    private let linkSource: () -> LinkStatus
    private var links = LinkStatus()
    private var nextLinkRefresh = ControlTime.zero
    /// How often the JACK and ALSA figures are read (they change seldom; the DSP load slowly).
    public var linkInterval: Int64 = 250_000
    /// The tempo map (to name its entries) and whether a trainer or gap runs, for the display's practice row.
    public var practice: (map: TempoMap?, trainer: Bool, gap: Bool)?
    /// How often the display model is built from the engine: the screen redraws at
    /// most 30 times a second, so looking more often only costs CPU.
    public var modelInterval: Int64 = 33_333
    private var nextModel = ControlTime.zero
    /// The pressure controller's next step (a control key is held); nil when idle.
    /// The caller ticks fast only while this is set.
    public private(set) var nextDeadline: ControlTime?

    /// - Parameters:
    ///   - interactive: the live display and keys; else the change log on standard output.
    ///   - links: reads the JACK status and connections (called at most every `linkInterval`).
    public init(session: ControlSession<MonotonicClock>, engine: UnsafeMutablePointer<EngineControl>, interactive: Bool,
                environment: [String: String], links: @escaping () -> LinkStatus) {
        self.session = session
        self.engine = engine
        linkSource = links
        if interactive {
            let terminal = TerminalSession()
            errors = StandardErrorCapture()
            terminal.enter()
            self.terminal = terminal
            keys = terminal.keysAreRaw ? KeyReader(input: terminal.input) : nil
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
    @discardableResult
    public func round() -> Bool {
        let now = clock.now()
        for line in errors?.take() ?? [] {
            session.say(line.hasPrefix("tactus: ") ? String(line.dropFirst(8)) : line)
        }
        let typed = keys?.drain() ?? []
        nextDeadline = session.poll(keys: typed)
        if now >= nextLinkRefresh {
            links = linkSource()
            nextLinkRefresh = now + linkInterval
        }
        if now >= nextModel || !typed.isEmpty {
            nextModel = now + modelInterval
            let model = DisplayModel(engine: engine.pointee, session: session, links: links, practice: practice)
            screen?.show(model, at: now)
            changeLog?.show(model)
        }
        return session.quitRequested
    }

    /// Keys stopped, the terminal restored, what was said on standard error printed.
    public func finish() {
        keys?.stop()
        terminal?.leave()
        errors?.finish()
    }
}
