import TactusCore

/// What the display and the change log show of the practice tools: the tempo
/// map's entry and the bar within it, the speed trainer's next step, and
/// whether the bar playing is a gap bar (README "Practice").
public struct PracticeView: Hashable, Sendable {
    /// The map entry's label, or "entry N" (from 1) when it has none; nil: no map plays.
    public var section: String?
    /// The bar within the entry (from 1) and the entry's bars.
    public var sectionBar: Int
    public var sectionBars: Int
    /// The trainer's next step: the tempo change and the bars to it; nil: no trainer, or holding.
    public var trainerStep: (delta: BPM.Difference, bars: Int)?
    /// The trainer's current tempo (the engine's), nil without a trainer.
    public var trainerTempo: BPM?
    public var gapMuted: Bool

    public init(section: String? = nil, sectionBar: Int = 0, sectionBars: Int = 0, trainerStep: (delta: BPM.Difference, bars: Int)? = nil,
                trainerTempo: BPM? = nil, gapMuted: Bool = false) {
        self.section = section
        self.sectionBar = sectionBar
        self.sectionBars = sectionBars
        self.trainerStep = trainerStep
        self.trainerTempo = trainerTempo
        self.gapMuted = gapMuted
    }

    /// Read from the engine's status; `map` names the entries.
    public init(status: borrowing EngineStatus, map: TempoMap?, trainer: Bool) {
        self.init()
        let index = status.mapSection.load(ordering: .relaxed)
        if let map, index >= 0, index < map.sections.count {
            section = map.sections[index].label ?? "entry \(index + 1)"
            sectionBar = status.mapSectionBar.load(ordering: .relaxed)
            sectionBars = map.sections[index].bars
        }
        let tempo = BPM(hundredths: status.tempoHundredths.load(ordering: .relaxed))
        if trainer {
            trainerTempo = tempo
            let bars = status.trainerBarsToStep.load(ordering: .relaxed)
            if bars >= 0 {
                let next = status.trainerNextHundredths.load(ordering: .relaxed)
                trainerStep = (BPM.Difference(hundredths: next - tempo.hundredths), bars)
            }
        }
        gapMuted = status.gapMuted.load(ordering: .relaxed)
    }

    /// "section verse bar 2/8  trainer +1 in 3 bars  gap bar (muted)".
    var text: String {
        var parts: [String] = []
        if let section { parts.append("section \(section) bar \(sectionBar)/\(sectionBars)") }
        if let step = trainerStep {
            parts.append("trainer \(step.delta) in \(step.bars) bar\(step.bars == 1 ? "" : "s")")
        } else if trainerTempo != nil {
            parts.append("trainer holding")
        }
        if gapMuted { parts.append("gap bar (muted)") }
        return parts.joined(separator: "  ")
    }

    public static func == (a: PracticeView, b: PracticeView) -> Bool {
        a.section == b.section && a.sectionBar == b.sectionBar && a.sectionBars == b.sectionBars && a.trainerStep?.delta == b.trainerStep?.delta
            && a.trainerStep?.bars == b.trainerStep?.bars && a.trainerTempo == b.trainerTempo && a.gapMuted == b.gapMuted
    }

    public func hash(into h: inout Hasher) {
        h.combine(section)
        h.combine(sectionBar)
        h.combine(trainerStep?.bars)
        h.combine(trainerTempo)
        h.combine(gapMuted)
    }
}

/// Which practice tools the run plays with, for the practice row: the tempo map
/// (to name its entries) and whether a speed trainer or a gap trainer is set,
/// by the command line (or a preset) at start or by OSC since.
public struct PracticeTools: Sendable {
    public var map: TempoMap?
    public var trainer: Bool
    public var gap: Bool

    public init(map: TempoMap? = nil, trainer: Bool = false, gap: Bool = false) {
        self.map = map
        self.trainer = trainer
        self.gap = gap
    }

    /// The tools after `change` went to the engine; nil when none is left.
    public func applying(_ change: PracticeChange) -> PracticeTools? {
        var tools = self
        switch change {
        case .countIn: break
        case .trainer(let trainer): tools.trainer = trainer != nil
        case .gap(let gap): tools.gap = gap != nil
        }
        return tools.map == nil && !tools.trainer && !tools.gap ? nil : tools
    }
}

extension BPM {
    /// A change of tempo, signed: "+1", "-2.50".
    public struct Difference: Hashable, Sendable, CustomStringConvertible {
        public var hundredths: Int32
        public init(hundredths: Int32) { self.hundredths = hundredths }
        public var description: String {
            let sign = hundredths < 0 ? "-" : "+"
            let magnitude = abs(hundredths)
            if magnitude % 100 == 0 { return "\(sign)\(magnitude / 100)" }
            return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
        }
    }
}
