/// A song's tempo map in klick's terms: entries played one after another, each
/// a number of bars in one meter, with a tempo (constant, a gradual change over
/// the entry, or one per beat), an accent pattern and a volume. Tempi count
/// quarter notes a minute whatever the meter, as klick defines them ("a beat
/// always referring to quarter notes", klick's manual; docs/DESIGN.md §10).
public struct TempoMap: Sendable, Hashable {
    public var sections: [MapSection]

    public init(sections: [MapSection]) { self.sections = sections }

    /// The map from the section labelled `label` on (klick's `-l`), nil when no section has it.
    public func starting(at label: String) -> TempoMap? {
        guard let i = sections.firstIndex(where: { $0.label == label }) else { return nil }
        return TempoMap(sections: Array(sections[i...]))
    }

    public var labels: [String] { sections.compactMap(\.label) }
}

/// One entry of a tempo map: `[label:] bars [meter] tempo [pattern] [volume]`.
public struct MapSection: Sendable, Hashable {
    public var label: String?
    public var bars: Int
    public var meter: Meter
    public var tempo: MapTempo
    /// nil: klick's default, the first beat accented and the others normal.
    public var accents: AccentPattern?
    /// A factor on the click's gain (klick's volume, default 1).
    public var volume: Double
    /// Where it was written, for what the display and messages say.
    public var line: Int

    public init(label: String? = nil, bars: Int, meter: Meter = .fourFour, tempo: MapTempo, accents: AccentPattern? = nil,
                volume: Double = 1, line: Int = 0) {
        self.label = label
        self.bars = bars
        self.meter = meter
        self.tempo = tempo
        self.accents = accents
        self.volume = volume
        self.line = line
    }

    public var beats: Int { bars * meter.beatsPerBar }
}

/// An entry's tempo, in quarter notes a minute.
public enum MapTempo: Sendable, Hashable {
    /// One tempo for the whole entry: `120`.
    case constant(Double)
    /// A gradual change from the first tempo at the entry's first beat to the
    /// second at its end, linear in beats: `120-140`.
    case ramp(from: Double, to: Double)
    /// One tempo a beat: `100,110,120,130` (as many as the entry has beats).
    case perBeat([Double])
}
