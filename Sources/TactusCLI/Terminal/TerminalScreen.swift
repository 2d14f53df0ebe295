/// Turns successive frames (lists of lines) into the bytes that change the
/// screen from one to the next: only the rows that differ are rewritten, each
/// in place (cursor position, erase the line, text), all in one write, and the
/// screen is never cleared between frames, so nothing flickers. A new size
/// starts over with a cleared screen. Pure: `update` returns the bytes, the caller writes them.
public struct TerminalScreen: Sendable {
    private var shown: [String] = []
    private var mustClear = true

    public init() {}

    /// The escape sequences and text that bring the screen from what it shows to `lines`.
    /// Empty when nothing changed.
    public mutating func update(to lines: [String]) -> String {
        var out = ""
        if mustClear {
            // Back to the alternate screen (after a stop) and a clean slate.
            out += "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J"
            shown = []
            mustClear = false
        }
        for (index, line) in lines.enumerated() where index >= shown.count || shown[index] != line {
            // CUP (1-based), EL 2 (erase the whole line), then the text: erased
            // first because a line as wide as the screen leaves the cursor on its
            // last character, which an erase after it would take away.
            out += "\u{1B}[\(index + 1);1H\u{1B}[2K" + line + "\u{1B}[0m"
        }
        if shown.count > lines.count {
            for index in lines.count..<shown.count { out += "\u{1B}[\(index + 1);1H\u{1B}[2K" }
        }
        shown = lines
        return out
    }

    /// The next update redraws everything (the window was resized or the process continued).
    public mutating func invalidate() {
        mustClear = true
    }
}
