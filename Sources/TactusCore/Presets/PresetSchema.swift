/// The keys of a preset file, in the order they are written, each tied to the
/// property it sets and the values it allows. `Presets/README.md` documents the
/// same table for musicians; the pressure keys are in `PressureSchema`.
enum PresetSchema {
    /// A preset while it is read: the accents stay apart until the meter is known,
    /// because a file may give them in any order and may leave either out.
    struct Draft {
        var preset: Preset
        var accents: AccentPattern?
    }

    static var root: PresetObject<Draft> {
        PresetObject(fields: [
            .constant("format", .formatVersion),
            .value("name", \.preset.name, .name, required: true),
            .value("program", \.preset.program, .optional(.midiValue("the Program Change number that selects the preset"))),
            .value("tempo", \.preset.tempo, .tempo, required: true),
            .value("meter", \.preset.bar.meter, .meter),
            .value("accents", \.accents, .optional(.accents)),
            .value("subdivision", \.preset.bar.subdivision, .choice),
            .value("swing", \.preset.bar.swingRatio, .swingRatio),
            .value("pulse", \.preset.bar.pulse, .pulse),
            .object("sounds", \.preset.sounds, sounds),
            .object("clock", \.preset.clock, clock),
            .object("pressure", \.preset.pressure, PressureSchema.pressure),
            .actions("actions", \.preset.actions),
            .value("link", \.preset.link, .flag),
            .value("transport", \.preset.transport, .optional(TransportSchema.format)),
            .value("sync", \.preset.sync, .optional(SyncSchema.format)),
            .value("clockIn", \.preset.clockIn, .optional(ClockInSchema.format)),
        ] + practiceFields, rules: practiceRules + [
            PresetRule(key: "swing") { draft in
                let bar = draft.preset.bar
                guard bar.swingRatio > 0, bar.subdivision != .none, bar.subdivision != .eighths else { return nil }
                return ("swing swings eighths: it does not go with the subdivision \(bar.subdivision.rawValue)",
                        "subdivision \"eighths\" or left out (swing then clicks eighths)")
            },
            PresetRule(key: "accents") { draft in
                let meter = draft.preset.bar.meter
                guard let accents = draft.accents, accents.count != meter.beatsPerBar else { return nil }
                return ("\"\(accents)\" has \(accents.count) beat\(accents.count == 1 ? "" : "s") but the meter \(meter) has \(meter.beatsPerBar)",
                        "\(meter.beatsPerBar) symbols, one a beat: X accent, x normal, o soft, . silent")
            },
        ])
    }

    static var sounds: PresetObject<PresetSounds> {
        func click(_ sample: WritableKeyPath<PresetSounds, SampleChoice>, _ gain: WritableKeyPath<PresetSounds, Float>) -> PresetObject<PresetSounds> {
            PresetObject(fields: [.value("sample", sample, .sample), .value("gain", gain, .gain)])
        }
        return PresetObject(fields: [
            .object("accent", \.self, click(\.accent, \.gains.accent)),
            .object("beat", \.self, click(\.beat, \.gains.beat)),
            .object("subdivision", \.self, click(\.subdivision, \.gains.subdivision)),
            // The pressure controller's cues share one gain; each may have its own sample.
            .object("feedback", \.self, PresetObject(fields: [
                .value("gain", \.gains.feedback, .gain),
                .value("impact", \.impact, .sample),
                .value("selection", \.selection, .sample),
                .value("maximum", \.maximum, .sample),
                .value("commit", \.commit, .sample),
            ])),
        ])
    }

    static var clock: PresetObject<ClockOptions> {
        PresetObject(fields: [
            .value("offsetMs", \.offsetMilliseconds, .number(-2000...2000, "milliseconds (positive: the clock after the click)")),
            .value("sendWhileStopped", \.sendWhileStopped, .flag),
            .value("sendSongPosition", \.sendSongPosition, .flag),
        ])
    }
}

// MARK: - The formats of preset values

extension FieldFormat where T == Void {
    static var formatVersion: FieldFormat {
        FieldFormat(allowed: "\(Preset.formatVersion) (the only format this version of Tactus reads)", read: { json throws(FieldProblem) in
            guard case .number(let x) = json else { throw .found(json) }
            guard x == Double(Preset.formatVersion) else { throw FieldProblem("format \(JSONWriter.number(x)) is not known") }
        }, write: { _ in .number(Double(Preset.formatVersion)) })
    }
}

extension FieldFormat where T == String {
    /// Names are matched on the command line and in set lists, so one line and no stray spaces.
    static var name: FieldFormat {
        FieldFormat(allowed: "a name of 1 to \(Preset.maximumNameLength) characters on one line, without leading or trailing spaces", read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            guard !s.isEmpty else { throw FieldProblem("the name is empty") }
            guard s.count <= Preset.maximumNameLength else { throw FieldProblem("the name has \(s.count) characters") }
            guard !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FieldProblem("the name contains a control character (a line break or tab)")
            }
            guard s.first?.isWhitespace == false, s.last?.isWhitespace == false else { throw FieldProblem("\(json.excerpt) starts or ends with a space") }
            return s
        }, write: { .string($0) })
    }
}

extension FieldFormat where T == BPM {
    /// The phone metronome's range, 1–999, at the engine's 0.01 BPM resolution (docs/DESIGN.md §3.1).
    static var tempo: FieldFormat {
        let number = FieldFormat<Double>.number(1...999, "BPM (beats of the meter's unit a minute)", decimals: 2)
        return FieldFormat(allowed: number.allowed, read: { json throws(FieldProblem) in BPM(try number.read(json)) },
                           write: { .number($0.value) })
    }
}

extension FieldFormat where T == Meter {
    static var meter: FieldFormat {
        let units = Meter.allowedUnits.map(String.init).joined(separator: ", ")
        return FieldFormat(allowed: "\"N/D\" with N from 1 to \(Meter.maximumBeats) and D one of \(units) (e.g. \"7/8\")", read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            guard let meter = Meter(s) else { throw FieldProblem("\(json.excerpt) is not a meter") }
            return meter
        }, write: { .string($0.description) })
    }
}

extension FieldFormat where T == AccentPattern {
    static var accents: FieldFormat {
        FieldFormat(allowed: "one symbol a beat of the meter: X accent, x normal, o soft, . silent (e.g. \"X.x.x..\")", read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            if let (index, symbol) = s.enumerated().first(where: { Accent(symbol: $0.element) == nil }) {
                throw FieldProblem("\(json.excerpt) has the unknown symbol '\(symbol)' at beat \(index + 1)")
            }
            guard let pattern = AccentPattern(s) else {
                throw FieldProblem(s.isEmpty ? "the pattern is empty" : "\(s.count) beats are more than \(Meter.maximumBeats)")
            }
            return pattern
        }, write: { .string($0.description) })
    }
}

extension FieldFormat where T == Double {
    /// `--swing`'s ratio; 0 (no swing) leaves the key out of the file.
    static var swingRatio: FieldFormat {
        number(0.5...0.75, "(the off-beat eighth at this fraction of the beat: 0.5 straight, 2/3 the triplet shuffle)").omitted { $0 == 0 }
    }
}

extension FieldFormat where T == Pulse {
    /// `--pulse`; the meter's beat, the default, leaves the key out of the file.
    static var pulse: FieldFormat { choice.omitted { $0 == .beat } }
}

extension FieldFormat where T == SampleChoice {
    static var sample: FieldFormat {
        FieldFormat(allowed: "\"builtin\" or the path of a .wav file (absolute, ~/…, or relative to the preset file)", read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            if s == "builtin" { return .builtin }
            guard s.lowercased().hasSuffix(".wav"), s.count > 4 else { throw FieldProblem("\(json.excerpt) is not a .wav file") }
            guard !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FieldProblem("the path contains a control character")
            }
            return .file(s)
        }, write: {
            switch $0 {
            case .builtin: .string("builtin")
            case .file(let path): .string(path)
            }
        })
    }
}

extension FieldFormat where T == MIDIChannel? {
    /// 1–16 as on a controller's display, or "omni" for every channel.
    static var channel: FieldFormat {
        let integer = FieldFormat<Int>.integer(1...16)
        return FieldFormat(allowed: "a MIDI channel from 1 to 16, or \"omni\" for every channel", read: { json throws(FieldProblem) in
            if case .string(let s) = json {
                guard s == "omni" else { throw FieldProblem("\(json.excerpt) is unknown") }
                return nil
            }
            return MIDIChannel(number: try integer.read(json))
        }, write: { channel in channel.map { .number(Double($0.number)) } ?? .string("omni") })
    }
}
