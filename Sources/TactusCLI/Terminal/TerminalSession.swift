import CTerminal
#if canImport(Glibc)
import Glibc
#endif

/// The terminal while the live display runs: raw keys on standard input, the
/// alternate screen on standard output, and everything put back on every way
/// out: `leave()`, `exit`, a fatal signal, a crash, SIGHUP when the window
/// closes, and around a Ctrl-Z stop (the C part does the signal-safe work).
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    /// Whether the keys are read raw (standard input is a terminal).
    public private(set) var keysAreRaw = false
    private var active = false

    /// DEC private modes 1049 (alternate screen, cursor saved) and 25 (cursor
    /// visible), and SGR 0: as xterm, tmux and every VT100 descendant know them.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J\u{1B}[H"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    deinit { leave() }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Raw mode (when the input is a terminal), the alternate screen, the handlers.
    public func enter() {
        guard !active else { return }
        active = true
        tactus_terminal_set_leave_sequence(output, TerminalSession.leaveSequence)
        tactus_terminal_install_handlers()
        if TerminalSession.isTerminal(input) { keysAreRaw = tactus_terminal_enter_raw(input) == 0 }
        write(TerminalSession.enterSequence)
    }

    /// The screen back as it was, the cursor shown, the settings of the terminal restored.
    public func leave() {
        guard active else { return }
        active = false
        tactus_terminal_restore()
    }

    /// Rows and columns; 24 × 80 when the output is not a terminal that says.
    public var size: (rows: Int, columns: Int) {
        var rows: Int32 = 0, columns: Int32 = 0
        guard tactus_terminal_size(output, &rows, &columns) == 0, rows > 0, columns > 0 else { return (24, 80) }
        return (Int(rows), Int(columns))
    }

    /// True once after the window changed size or the process came back from a stop.
    public func takeResize() -> Bool { tactus_terminal_take_resize() != 0 }

    /// Writes all of `text` in as few `write(2)` calls as the terminal takes.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(output, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
        bytes.removeAll()
    }
}
