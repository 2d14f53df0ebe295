/// When a tempo is kept as the last tempo (docs/DESIGN.md §5.7): once it has
/// stayed unchanged for `settleMicroseconds`, not at every key press, tap or
/// release on the way there. Fifty ↑ presses in a row write the file once, with
/// the tempo they ended at; a tempo equal to the one written last is not
/// written again. Pure: the caller passes the time and does the writing.
public struct SettledTempo: Sendable {
    /// How long a tempo must stay before it is kept: longer than the gap between
    /// two presses of a key held down by hand (a terminal repeats a held key
    /// every 33–100 ms, a player's presses come a few a second).
    public static let settleMicroseconds: Int64 = 2_000_000

    public let settleMicroseconds: Int64
    /// The tempo waiting to settle (nil: nothing to write), and when it was set.
    public private(set) var pending: BPM?
    private var pendingSince = ControlTime.zero
    /// The tempo written last (or the one the run started with: no need to write it).
    public private(set) var written: BPM?

    public init(written: BPM? = nil, settleMicroseconds: Int64 = SettledTempo.settleMicroseconds) {
        self.written = written
        self.settleMicroseconds = settleMicroseconds
    }

    /// A new tempo at `time`: it settles `settleMicroseconds` later unless another comes.
    public mutating func set(_ tempo: BPM, at time: ControlTime) {
        pending = tempo
        pendingSince = time
    }

    /// When the pending tempo settles (the control thread's next deadline); nil: none pending.
    public var deadline: ControlTime? {
        pending == nil ? nil : pendingSince + settleMicroseconds
    }

    /// The tempo to write now, once: the pending one if it has settled by `now`
    /// and differs from the one written last.
    public mutating func due(at now: ControlTime) -> BPM? {
        guard let deadline, now >= deadline else { return nil }
        return flush()
    }

    /// The tempo to write now whether it settled or not (on the way out), once.
    public mutating func flush() -> BPM? {
        guard let tempo = pending else { return nil }
        pending = nil
        guard tempo != written else { return nil }
        written = tempo
        return tempo
    }
}
