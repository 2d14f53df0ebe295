import TactusCore

/// The interactive display on the control thread: each round it is shown the
/// current `DisplayModel`; it redraws only when the model changed, at most 30
/// times a second (`RedrawLimiter`), only the rows that changed
/// (`TerminalScreen`), and follows the window's size.
public final class LiveScreen {
    public let terminal: TerminalSession
    public let color: Bool
    /// Note glyphs in the tempo row (`GlyphPolicy`).
    public let unicode: Bool
    public let counter: RedrawCounter
    private var screen = TerminalScreen()
    private var limiter = RedrawLimiter<DisplayModel>()
    private var size: (rows: Int, columns: Int)

    public init(terminal: TerminalSession, color: Bool, counter: RedrawCounter,
                unicode: Bool = GlyphPolicy.unicode(environment: ProcessEnvironment.current)) {
        self.terminal = terminal
        self.color = color
        self.unicode = unicode
        self.counter = counter
        size = terminal.size
    }

    /// Draws `model` if it changed and the limiter allows; call every control round.
    public func show(_ model: DisplayModel, at now: ControlTime) {
        if terminal.takeResize() {
            size = terminal.size
            screen.invalidate()
            limiter.invalidate()
        }
        guard let model = limiter.frame(model, at: now) else { return }
        let lines = ScreenRenderer(width: size.columns, height: size.rows, color: color, unicode: unicode).render(model)
        let bytes = screen.update(to: lines)
        guard !bytes.isEmpty else { return }
        terminal.write(bytes)
        counter.redrew()
    }
}

/// The non-interactive mode's output: the `ChangeLog`'s lines on standard
/// output, one `write` each, so a pipe or a service's journal gets whole lines.
public final class ChangeLogOutput {
    private var log = ChangeLog()
    private let write: (String) -> Void
    private let wallClock: () -> Int64

    /// - Parameters:
    ///   - wallClock: µs since the Unix epoch (`CLOCK_REALTIME`).
    public init(wallClock: @escaping () -> Int64 = WallClock.microsecondsSinceEpoch,
                write: @escaping (String) -> Void = { StandardOutput.line($0) }) {
        self.wallClock = wallClock
        self.write = write
    }

    public func show(_ model: DisplayModel) {
        for line in log.lines(for: model, at: wallClock()) { write(line) }
    }
}
