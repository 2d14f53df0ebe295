/// A change the engine makes at a pulse of its grid.
enum ScheduledChange: BitwiseCopyable {
    /// A new tempo from this pulse (a clock tick).
    case tempo(BPM)
    /// A new bar (meter, accents, subdivision), with the tempo, sounds and gains
    /// that ride on it (a preset switch), at a bar line or a beat.
    case bar(BarChange)
    /// A tempo map's segment (its index in the `MapTimeline`) from this pulse:
    /// its tempo curve, and at an entry's first bar line its meter, pattern and volume.
    case section(Int32)
    /// A speed trainer step on a bar line, from the tempo playing there.
    case trainer
    /// Start, Continue or a move of the song position, on a clock tick.
    case transport(TransportChange)

    /// The order of changes due at one pulse: the grid bends (tempo, then bar)
    /// before that pulse's frame is computed; transport sounds at that frame.
    var kind: Kind {
        switch self {
        case .tempo: .tempo
        case .bar: .bar
        case .section: .section
        case .trainer: .trainer
        case .transport: .transport
        }
    }

    enum Kind: Int, BitwiseCopyable {
        case tempo, bar, section, trainer, transport
    }
}

struct BarChange: BitwiseCopyable {
    var settings: BarSettings
    var tempo: BPM?
    var point: SwitchPoint
    /// Sounds and gains heard from the bar line's first click.
    var sound: SoundChange
    /// A time source's bar line and number for the new bars (`anchorBar`); nil:
    /// the bar line is the change's pulse, numbered after the old bars.
    var line: BarLine? = nil
    /// Its number, when the control thread waits for it (`EngineCommand.changeBar`); 0 otherwise.
    var request = 0
}

enum TransportChange: BitwiseCopyable {
    /// MIDI Start: song position 0.
    case start
    /// Song Position, then Continue, from the stored resume point.
    case resume
    /// Stop, Song Position, Continue at a new position (a locate while running).
    case relocate
    /// The tempo map's end: Stop and Song Position, on its last bar line.
    case end
}

struct AgendaEntry: BitwiseCopyable {
    var pulse: Int64
    var change: ScheduledChange
}

/// The changes waiting for their pulse, in the order they fall due: by pulse,
/// and at one pulse by kind (`ScheduledChange.Kind`). Fixed capacity, allocated
/// once, no allocation, lock or generic metadata after `init`, so the render
/// thread owns it.
///
/// What the engine schedules today is at most one change of each kind: a newer
/// one replaces the older (`schedule(_:replacing:)`), as a tempo key pressed
/// twice before the next clock tick means the second tempo. The capacity leaves
/// room for what scheduled sources (a tempo map, a trainer) will add.
struct Agenda: ~Copyable {
    static let capacity = 16
    private let entries: UnsafeMutablePointer<AgendaEntry>
    private(set) var count = 0

    init() {
        entries = .allocate(capacity: Agenda.capacity)
        Prefault.touch(entries, count: Agenda.capacity)
    }

    deinit { entries.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The first change due, if any.
    var first: AgendaEntry? { count == 0 ? nil : entries[0] }

    /// The pending change of `kind`, if any.
    func entry(_ kind: ScheduledChange.Kind) -> AgendaEntry? {
        var i = 0
        while i < count {
            if entries[i].change.kind == kind { return entries[i] }
            i += 1
        }
        return nil
    }

    /// Inserts in due order; with `replacing`, the pending change of that kind
    /// goes first. False when full (the change is not scheduled).
    @discardableResult
    mutating func schedule(_ new: AgendaEntry, replacing: Bool = true) -> Bool {
        if replacing { _ = remove(new.change.kind) }
        guard count < Agenda.capacity else { return false }
        var i = count
        while i > 0 && Agenda.isBefore(new, entries[i - 1]) {
            entries[i] = entries[i - 1]
            i -= 1
        }
        entries[i] = new
        count += 1
        return true
    }

    /// Takes the first change if it is due at `pulse` and of a kind in `kinds`
    /// (by their raw range: `.tempo ... .trainer` bends the grid).
    mutating func takeFirst(at pulse: Int64, through last: ScheduledChange.Kind) -> ScheduledChange? {
        guard count > 0, entries[0].pulse == pulse, entries[0].change.kind.rawValue <= last.rawValue else { return nil }
        let change = entries[0].change
        removeEntry(at: 0)
        return change
    }

    /// Removes and returns the pending change of `kind`.
    mutating func remove(_ kind: ScheduledChange.Kind) -> AgendaEntry? {
        var i = 0
        while i < count {
            if entries[i].change.kind == kind {
                let e = entries[i]
                removeEntry(at: i)
                return e
            }
            i += 1
        }
        return nil
    }

    private mutating func removeEntry(at index: Int) {
        var i = index
        while i + 1 < count {
            entries[i] = entries[i + 1]
            i += 1
        }
        count -= 1
    }

    private static func isBefore(_ a: AgendaEntry, _ b: AgendaEntry) -> Bool {
        a.pulse != b.pulse ? a.pulse < b.pulse : a.change.kind.rawValue < b.change.kind.rawValue
    }
}
