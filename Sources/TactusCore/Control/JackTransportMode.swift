/// `--transport`, or a preset's `"transport"`: how Tactus and JACK transport
/// go together (docs/DESIGN.md §13). Here rather than in TactusJACK because a
/// preset carries it.
public enum JackTransportMode: String, Sendable, CaseIterable, BitwiseCopyable {
    /// Tactus ignores JACK transport (the default).
    case off
    /// Start, stop and locate shared with JACK transport, both ways; the tempo is Tactus's.
    case join
    /// `join`, and Tactus is JACK's timebase master unless another client is.
    case master
    /// `master`, taking the timebase over from a client that holds it.
    case masterForce = "master-force"
    /// `join`, with tempo, meter and position from the timebase master's BBT.
    case follow

    /// Whether Tactus asks for the timebase.
    public var wantsTimebase: Bool { self == .master || self == .masterForce }

    /// What the display and the change log call it.
    public var label: String { rawValue }
}
