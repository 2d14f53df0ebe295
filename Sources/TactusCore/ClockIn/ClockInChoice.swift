/// Which MIDI beat clock a run follows, as a preset or `controller.json`
/// names it (`"clockIn"`, `ClockInSchema`): none, the JACK `clock_in` input
/// (`--clock-in`), or an ALSA sequencer port (`--alsa-clock-from`). One
/// clock input at a time: two clocks ticking into one follower would be no
/// tempo at all (docs/DESIGN.md §9.1).
public enum ClockInChoice: Hashable, Sendable {
    /// Tactus leads: no clock input, whatever `controller.json` says.
    case off
    /// The JACK MIDI input `clock_in`.
    case jack
    /// The ALSA sequencer port `CLIENT:PORT` (by name or number), subscribed to Tactus's `clock_in`.
    case alsa(String)

    /// The spelling in a file: `"off"`, `"jack"`, `"alsa:CLIENT:PORT"`.
    public var spelling: String {
        switch self {
        case .off: "off"
        case .jack: "jack"
        case .alsa(let port): Self.alsaPrefix + port
        }
    }

    static let alsaPrefix = "alsa:"

    /// The choice `text` spells, or nil.
    public init?(spelling text: String) {
        switch text {
        case "off": self = .off
        case "jack": self = .jack
        default:
            guard text.hasPrefix(Self.alsaPrefix) else { return nil }
            let port = String(text.dropFirst(Self.alsaPrefix.count))
            guard !port.isEmpty, !port.contains(where: \.isNewline) else { return nil }
            self = .alsa(port)
        }
    }
}
