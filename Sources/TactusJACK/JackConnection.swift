/// Tactus' four JACK ports, by their short names.
public enum TactusPort: String, Sendable, CaseIterable {
    /// Audio out: the metronome.
    case click
    /// Audio out: the pressure-control feedback cues.
    case feedback
    /// JACK MIDI out: beat clock, Start/Stop/Continue, Song Position.
    case clock
    /// JACK MIDI in: the keyboard controller.
    case control
    /// JACK MIDI in: an incoming beat clock to follow (`--clock-in`).
    case clockIn = "clock_in"
    /// Audio out, with `--sync-out`: the sync pulses (docs/DESIGN.md §14).
    case sync
    /// Audio out, with a sync kind that has a second line: DIN sync's run line
    /// or a modular reset line (docs/DESIGN.md §14.2, §14.3).
    case syncRun = "sync_run"

    var isOutput: Bool { self != .control && self != .clockIn }
}

/// One connection between a Tactus port and another client's port, kept so it
/// can be made again on a new server.
struct JackConnection: Hashable, Sendable {
    var port: TactusPort
    /// Full name of the other end ("system:playback_1").
    var other: String

    /// JACK connects source → destination.
    func endpoints(client: String) -> (source: String, destination: String) {
        let ours = "\(client):\(port.rawValue)"
        return port.isOutput ? (ours, other) : (other, ours)
    }
}
