/// The last tempo's rule, in one place for every source (README "The last
/// tempo", docs/DESIGN.md §5.7, §12.2): which tempi are the player's, and when
/// one is written.
///
/// Kept: the tempo a pressure hold ended at, a tap's from anywhere (a tap is the
/// player's foot or hand, whatever carried it), a tempo step or a typed tempo
/// from the keys, a button or a pedal. Not kept: a tempo an OSC client sets or
/// nudges (a script setting a song's tempo is not the player's last tempo, and a
/// tablet's fader would ask a hundred times a second), a preset's tempo.
/// Written once the tempo has stood 2 s unchanged (`SettledTempo`) and on the
/// way out, so a burst of presses is one write. Pure: the caller passes the time
/// and does the writing.
public struct LastTempo: Sendable {
    private var settled: SettledTempo

    public init(written: BPM? = nil, settleMicroseconds: Int64 = SettledTempo.settleMicroseconds) {
        settled = SettledTempo(written: written, settleMicroseconds: settleMicroseconds)
    }

    /// Whether the tempo `intent` sets, coming from `source`, is the player's last tempo.
    public static func keeps(_ intent: PlayerIntent, from source: IntentSource) -> Bool {
        switch intent {
        case .tap:
            return true
        case .tempoStep, .tempo:
            if case .remote = source { return false }
            return true
        default:
            return false
        }
    }

    /// `intent` from `source` set the tempo to `tempo` at `time`: kept if the rule says so.
    public mutating func set(_ tempo: BPM, by intent: PlayerIntent, from source: IntentSource, at time: ControlTime) {
        guard Self.keeps(intent, from: source) else { return }
        settled.set(tempo, at: time)
    }

    /// A pressure hold ended at `tempo` (the controller's `ControlReport.lastTempo`): always kept.
    public mutating func holdEnded(at tempo: BPM, time: ControlTime) {
        settled.set(tempo, at: time)
    }

    /// When the tempo waiting settles (the control thread's next deadline); nil: none waits.
    public var deadline: ControlTime? { settled.deadline }

    /// The tempo to write now, once: the waiting one if it has stood long enough by `now`.
    public mutating func due(at now: ControlTime) -> BPM? { settled.due(at: now) }

    /// The tempo to write on the way out, settled or not, once.
    public mutating func flush() -> BPM? { settled.flush() }
}
