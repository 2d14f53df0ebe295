import TactusCore

/// The words of `tactus [run]` that are not options.
///
/// A JACK port name always has a colon (`client:port`), so a word with one is a
/// port the click is connected to. The others are klick's positional form,
/// `[METER] TEMPO [PATTERN]` in klick's order (`klick [bars] [meter]
/// tempo[-tempo2/accel] [pattern]`, klick(1)): `tactus 7/8 133 X.x.x..`, and the
/// speed trainer in the tempo's place (`tactus 80-120/10`). As in
/// klick, that tempo counts quarter notes whatever the meter ("a beat always
/// referring to quarter notes", klick's manual), so a klick user's command plays
/// what it played there; `--bpm` counts the meter's unit. Any other word is a
/// mistyped command, said with the command it most likely meant.
enum RunArguments {
    static func read(_ words: [String], into options: inout Options) throws(OptionError) {
        var klick: [String] = []
        for word in words {
            if word.contains(":") { options.arguments.append(word) } else { klick.append(word) }
        }
        try readKlickForm(klick[...], commandGiven: options.commandGiven, into: &options)
    }

    private static func readKlickForm(_ words: ArraySlice<String>, commandGiven: Bool, into options: inout Options) throws(OptionError) {
        var rest = words
        guard let first = rest.first else { return }
        if rest.count >= 2, Int(first) != nil, Meter(rest[rest.startIndex + 1]) != nil || Double(rest[rest.startIndex + 1]) != nil {
            throw OptionError("tactus: '\(first)' is klick's bar count; Tactus plays until stopped (a click track of a set length: tactus render OUT.wav --seconds N)")
        }
        if let word = rest.first, let meter = Meter(word) {
            guard options.meter == nil else { throw twice("meter", word, "--meter") }
            options.meter = meter
            rest = rest.dropFirst()
        }
        if let word = rest.first, word.first?.isNumber == true {
            if isSpeedTrainer(word) {
                // klick's `80-120/10`: the same as --trainer, its tempi in quarter notes.
                guard options.trainer == nil else { throw twice("speed trainer", word, "--trainer") }
                options.trainer = try OptionTable.trainer(word, "the speed trainer")
                options.trainerInQuarterNotes = true
            } else {
                guard options.tempo == nil else { throw twice("tempo", word, "--bpm") }
                options.quarterNoteTempo = try OptionTable.bpm(word, "the tempo")
            }
            rest = rest.dropFirst()
            if let pattern = rest.first, let accents = AccentPattern(pattern) {
                guard options.accents == nil else { throw twice("accent pattern", pattern, "--accents") }
                options.accents = accents
                rest = rest.dropFirst()
            }
        }
        guard let word = rest.first else { return }
        if word == first && !commandGiven { throw unknownCommand(word) }
        throw OptionError("tactus: '\(word)' is not a JACK port (a port name has a colon: system:playback_1) "
                          + "nor in klick's order METER TEMPO PATTERN (e.g. 7/8 133 X.x.x..)")
    }

    /// `80-120/10`: from 80 to 120, a BPM faster every 10 bars.
    private static func isSpeedTrainer(_ word: String) -> Bool {
        let parts = word.split(separator: "-", maxSplits: 1)
        return parts.count == 2 && Double(parts[0]) != nil && Double(parts[1].split(separator: "/").first ?? "") != nil
    }

    private static func twice(_ what: String, _ word: String, _ option: String) -> OptionError {
        OptionError("tactus: the \(what) is given twice: '\(word)' and \(option)")
    }

    static func unknownCommand(_ word: String) -> OptionError {
        if ["man", "manual", "help"].contains(word.lowercased()) {
            return OptionError("tactus: unknown command '\(word)': " + Help.whereIsTheManual)
        }
        let commands = Options.Command.allCases.map(\.rawValue)
        if let near = Spelling.nearest(to: word, among: commands) {
            return OptionError("tactus: unknown command '\(word)' (did you mean \(near)?)")
        }
        return OptionError("tactus: unknown command '\(word)': one of \(commands.joined(separator: ", ")); "
                           + "a JACK port has a colon (system:playback_1); klick's form is METER TEMPO PATTERN (e.g. 7/8 133 X.x.x..)")
    }
}

extension Options {
    /// Klick's quarter-note tempo as the meter's beats a minute: 7/8 at 133
    /// quarter notes is 266 eighths. Call once the meter is known (a preset may give it).
    public mutating func resolveQuarterNoteTempo(meter: Meter) throws(OptionError) {
        try resolveTrainerQuarterNotes(meter: meter)
        guard let quarter = quarterNoteTempo else { return }
        let hundredths = Int(quarter.hundredths) * meter.beatUnit
        guard hundredths % 4 == 0, let tempo = BPM(exactly: Double(hundredths / 4) / 100) else {
            throw OptionError("tactus: the tempo \(quarter) counts quarter notes, as in klick; in \(meter) that is "
                              + "\(Format.decimal(Double(hundredths) / 400, decimals: 4)) beats a minute, not a tempo from 1 to 999 with two decimals at most")
        }
        self.tempo = tempo
    }
}
