/// The few looks the display uses, as ECMA-48 SGR codes (what every terminal
/// emulator and tmux understand). Only written when colour is allowed.
public enum ScreenStyle: Sendable, Hashable {
    case plain
    case bold
    case dim
    /// The current beat when it is an accent: bold on red, so it differs from a plain beat without relying on the letter.
    case accentBeat
    /// The current beat when it is not an accent.
    case beat
    case running
    case light
    case strong
    case warning
    case error

    /// SGR parameters: 1 bold, 2 faint, 7 inverse, 3x foreground colours.
    var parameters: String? {
        switch self {
        case .plain: nil
        case .bold: "1"
        case .dim: "2"
        case .accentBeat: "1;37;41"
        case .beat: "1;30;42"
        case .running: "1;32"
        case .light: "33"
        case .strong: "1;31"
        case .warning: "33"
        case .error: "1;31"
        }
    }

    /// `text` wrapped in this style's escape and a reset, or `text` alone.
    func apply(to text: String, color: Bool) -> String {
        guard color, let parameters, !text.isEmpty else { return text }
        return "\u{1B}[\(parameters)m\(text)\u{1B}[0m"
    }
}

/// Whether the display may use colour: not when `NO_COLOR` is set to anything
/// but the empty string (no-color.org), not on a `dumb` terminal, and never when
/// the output is not a terminal.
public enum ColorPolicy {
    public static func allowed(environment: [String: String], outputIsTerminal: Bool) -> Bool {
        guard outputIsTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

/// Whether the display may draw the note glyphs ♪ and ♩: when the locale's
/// character set is UTF-8 (the first of `LC_ALL`, `LC_CTYPE`, `LANG` that is
/// set, POSIX's order) and the terminal is not `dumb`. `NO_COLOR` is about
/// colour and does not matter. Else the display writes `1/8 = 133`.
public enum GlyphPolicy {
    public static func unicode(environment: [String: String]) -> Bool {
        guard environment["TERM"] != "dumb" else { return false }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }
}
