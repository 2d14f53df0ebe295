/// A preset's practice tools (Presets/README.md "Practice"): a count-in, a speed
/// trainer, a gap trainer, a tempo map. Applied when the preset starts a run or
/// a render (`--preset`); a command-line option of the same tool wins.
public struct PresetPractice: Hashable, Sendable {
    /// Bars of count-in (0: two beats), as `--count-in`.
    public var countIn: Int?
    /// As `--trainer`, tempi in the meter's beats.
    public var trainer: SpeedTrainer?
    /// PLAY/MUTE and the probability, as `--gap` and `--gap-random` (the seed is `--seed`'s).
    public var gap = GapTrainer()
    /// The tempo map, as `--map` reads it from klick's format.
    public var sections: TempoMap?

    public init(countIn: Int? = nil, trainer: SpeedTrainer? = nil, gap: GapTrainer = GapTrainer(), sections: TempoMap? = nil) {
        self.countIn = countIn
        self.trainer = trainer
        self.gap = gap
        self.sections = sections
    }

    /// The `gap` key: PLAY/MUTE only, the probability is `gapRandom`'s.
    var gapBars: GapTrainer {
        get { gap }
        set { (gap.play, gap.mute) = (newValue.play, newValue.mute) }
    }
}

extension PresetSchema {
    /// The practice keys of the root object, after the others.
    static var practiceFields: [PresetField<Draft>] {
        [
            .value("countIn", \.preset.practice.countIn, .optional(.integer(0...16, "bars (0: two beats)"))),
            .value("trainer", \.preset.practice.trainer, .optional(.trainer)),
            .value("gap", \.preset.practice.gapBars, .gapBars),
            .value("gapRandom", \.preset.practice.gap.probability, .probability),
            sections,
        ]
    }

    static var practiceRules: [PresetRule<Draft>] {
        [PresetRule(key: "trainer") { draft in
            guard draft.preset.practice.trainer != nil, draft.preset.practice.sections != nil else { return nil }
            return ("a speed trainer and sections do not go together: the tempo map sets the tempo", "one of trainer or sections")
        }]
    }

    static var section: PresetObject<MapSection> {
        PresetObject(fields: [
            .value("label", \.label, .optional(.sectionLabel)),
            .value("bars", \.bars, .integer(1...100_000, "bars"), required: true),
            .value("meter", \.meter, .meter),
            .value("tempo", \.tempo, .mapTempo, required: true),
            .value("pattern", \.accents, .optional(.accents)),
            .value("volume", \.volume, .number(0...10, "(a factor on the click's gain, klick's volume)")),
        ], rules: [
            PresetRule(key: "tempo") { s in
                guard case .perBeat(let tempi) = s.tempo, tempi.count != s.beats else { return nil }
                return ("\(tempi.count) tempi for an entry of \(s.beats) beats", "one tempo a beat: bars × beats a bar")
            },
            PresetRule(key: "pattern") { s in
                guard let a = s.accents, a.count != s.meter.beatsPerBar else { return nil }
                return ("\"\(a)\" has \(a.count) beat\(a.count == 1 ? "" : "s") but the meter \(s.meter) has \(s.meter.beatsPerBar)",
                        "\(s.meter.beatsPerBar) symbols, one a beat: X accent, x normal, o soft, . silent")
            },
        ])
    }

    /// `sections`: a list of entries, each read by `section` at the path `sections[i]` (from 0).
    static var sections: PresetField<Draft> {
        let allowed = "a list of at least one entry, each an object with the keys label, bars, meter, tempo, pattern or volume"
        return PresetField(key: "sections", required: false, allowed: allowed, read: { json, draft, path, issues in
            guard case .array(let items) = json, !items.isEmpty else {
                let problem: String
                if case .array = json { problem = "the list is empty" } else { problem = "found \(json.excerpt)" }
                issues.append(PresetIssue(path: path, problem: problem, allowed: allowed))
                return
            }
            var entries: [MapSection] = []
            var labels: [String: Int] = [:]
            for (i, item) in items.enumerated() {
                var entry = MapSection(bars: 1, tempo: .constant(120), line: i + 1)
                let itemPath = "\(path)[\(i)]"
                section.read(item, into: &entry, path: itemPath, issues: &issues)
                if let label = entry.label {
                    if let first = labels[label] {
                        issues.append(PresetIssue(path: itemPath + ".label", problem: "\"\(label)\" is already the label of \(path)[\(first)]",
                                                  allowed: "a label not used by another entry"))
                    }
                    labels[label] = labels[label] ?? i
                }
                entries.append(entry)
            }
            draft.preset.practice.sections = TempoMap(sections: entries)
        }, write: { draft in
            draft.preset.practice.sections.map { map in .array(map.sections.map { section.write($0) }) }
        })
    }
}

extension FieldFormat where T == SpeedTrainer {
    static var trainer: FieldFormat {
        FieldFormat(allowed: "a string " + SpeedTrainer.allowed, read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            do throws(PracticeSyntaxError) { return try SpeedTrainer(parsing: s) } catch {
                throw FieldProblem(error.problem.map { "\(json.excerpt): \($0)" } ?? "\(json.excerpt) is not FROM-TO/BARS[:STEP]")
            }
        }, write: { t in .string("\(t.from)-\(t.to)/\(t.bars):\(JSONWriter.number(Double(t.stepHundredths) / 100))") })
    }
}

extension FieldFormat where T == GapTrainer {
    /// Written only when bars are muted.
    static var gapBars: FieldFormat {
        FieldFormat(allowed: "a string " + GapTrainer.allowed, read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            var gap = GapTrainer()
            do throws(PracticeSyntaxError) { try gap.parse(s) } catch { throw FieldProblem("\(json.excerpt) is not PLAY/MUTE") }
            return gap
        }, write: { g in g.mute > 0 ? .string("\(g.play)/\(g.mute)") : nil })
    }
}

extension FieldFormat where T == Double {
    /// `gapRandom`: written only when not 0.
    static var probability: FieldFormat { number(0...1, "(the probability that a bar is silent)").omitted { $0 == 0 } }
}

extension FieldFormat where T == String {
    static var sectionLabel: FieldFormat {
        FieldFormat(allowed: "a name of 1 to 64 characters without spaces or colons (e.g. \"verse1\")", read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            guard !s.isEmpty, s.count <= 64, !s.contains(where: { $0.isWhitespace || $0 == ":" }),
                  !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FieldProblem("\(json.excerpt) is not a label")
            }
            return s
        }, write: { .string($0) })
    }
}

extension FieldFormat where T == MapTempo {
    /// A number, "t1-t2" (a gradual change) or a list of numbers (one a beat), in quarter notes a minute as in klick's maps.
    static var mapTempo: FieldFormat {
        let allowed = "a tempo from 1 to 999 quarter notes a minute: a number, \"t1-t2\" (a gradual change) or a list [t1, t2, …] (one a beat)"
        func value(_ json: JSONValue) throws(FieldProblem) -> Double {
            guard case .number(let t) = json else { throw .found(json) }
            guard (1...999).contains(t) else { throw FieldProblem("\(JSONWriter.number(t)) is out of range") }
            return t
        }
        return FieldFormat(allowed: allowed, read: { json throws(FieldProblem) in
            switch json {
            case .number: return .constant(try value(json))
            case .array(let items):
                guard !items.isEmpty else { throw FieldProblem("the list is empty") }
                var tempi: [Double] = []
                for item in items { tempi.append(try value(item)) }
                return .perBeat(tempi)
            case .string(let s):
                guard !s.contains(","), s.dropFirst().contains("-") else { throw FieldProblem("\(json.excerpt) is not \"t1-t2\"") }
                do throws(TempoMapError) {
                    return try TempoMapParser.tempo(TempoMapParser.Word(text: s, column: 1), beats: 0) { column, message in
                        TempoMapError(file: "", line: 0, column: column, message: message)
                    }
                } catch {
                    throw FieldProblem("\(json.excerpt): " + (error.message.split(separator: ":").first.map(String.init) ?? error.message))
                }
            default: throw .found(json)
            }
        }, write: { tempo in
            switch tempo {
            case .constant(let t): .number(t)
            case .ramp(let a, let b): .string("\(JSONWriter.number(a))-\(JSONWriter.number(b))")
            case .perBeat(let tempi): .array(tempi.map { .number($0) })
            }
        })
    }
}
