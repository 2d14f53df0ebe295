import TactusCore

/// The practice options: tempo map, count-in, speed trainer, gap trainer
/// (README "Practice", docs/DESIGN.md §10).
extension OptionTable {
    static let trainerAllowed = SpeedTrainer.allowed
    static let gapAllowed = GapTrainer.allowed

    static let practice: [OptionSpec] = [
        value("--map", nil, "FILE", .playing, .tempo, "play a tempo map in klick's format from the start (render: its whole length)",
              "a tempo map file: one entry a line, [label:] bars [meter] tempo [pattern] [volume]") { o, v, _ in o.mapFile = v },
        value("--start-at", nil, "LABEL", .playing, .tempo, "start the tempo map at the entry with this label (klick's -l)",
              "a label of the tempo map (label: at the start of an entry)") { o, v, _ in o.startAt = v },
        flag("--map-loop", .playing, .tempo, "at the tempo map's end, play it again from the start (default: stop)") { $0.mapLoop = true },
        value("--count-in", nil, "BARS", .playing, .tempo, "count in BARS bars before bar 1 (0: two beats); MIDI Start on bar 1",
              "a number of bars from 0 to 16 (0: two beats)") { o, v, n throws(OptionError) in
            o.countInBars = try integer(v, n, in: 0...16, "a number of bars from 0 to 16 (0: two beats)")
        },
        flag("--count-in-clock", .playing, .clock, "send the clock during the count-in too (Start still on bar 1)") { $0.countInClock = true },
        value("--trainer", nil, "FROM-TO/BARS[:STEP]", .playing, .tempo, "speed trainer: from FROM, STEP BPM (default 1) every BARS bars up to TO",
              trainerAllowed) { o, v, n throws(OptionError) in
            o.trainer = try trainer(v, n)
        },
        value("--gap", nil, "PLAY/MUTE", .playing, .tempo, "gap trainer: PLAY bars heard, MUTE bars silent; the clock runs on", gapAllowed) { o, v, n throws(OptionError) in
            do throws(PracticeSyntaxError) { try o.gap.parse(v) } catch { throw bad(n, v, gapAllowed) }
        },
        value("--gap-random", nil, "P", .playing, .tempo, "each bar silent with probability P (0 to 1)", "a probability from 0 to 1 (e.g. 0.2)") { o, v, n throws(OptionError) in
            o.gap.probability = try number(v, n, in: 0...1, "a probability from 0 to 1 (e.g. 0.2)")
        },
        value("--seed", nil, "N", .playing, .tempo, "the seed of --gap-random: the same seed silences the same bars",
              "a whole number from 0 to 18446744073709551615") { o, v, n throws(OptionError) in
            guard let seed = UInt64(v) else { throw bad(n, v, "a whole number from 0 to 18446744073709551615") }
            o.gap.seed = seed
        },
    ]

    /// `80-120/10`, `80-120/10:2`, `120-90/4:-2.5` (`SpeedTrainer(parsing:)`, the preset's `trainer` too).
    static func trainer(_ value: String, _ name: String) throws(OptionError) -> SpeedTrainer {
        do throws(PracticeSyntaxError) {
            return try SpeedTrainer(parsing: value)
        } catch {
            guard let problem = error.problem else { throw bad(name, value, trainerAllowed) }
            throw OptionError("tactus: \(name) '\(value)': \(problem)")
        }
    }
}

extension Options {
    /// The practice tools as the engine takes them.
    var countIn: CountIn? { countInBars.map { CountIn(bars: $0, sendsClock: countInClock) } }
    var gapTrainer: GapTrainer? { gap.mute > 0 || gap.probability > 0 ? gap : nil }

    /// What does not go together, said before anything plays.
    func checkPractice() throws(OptionError) {
        if trainer != nil && mapFile != nil {
            throw OptionError("tactus: --trainer and --map do not go together: the tempo map sets the tempo")
        }
        if trainer != nil && tempo != nil {
            throw OptionError("tactus: the tempo is given twice: the speed trainer starts at its FROM tempo, and --bpm")
        }
        if countInClock && countInBars == nil {
            throw OptionError("tactus: --count-in-clock needs a count-in: --count-in BARS")
        }
    }

    /// klick's positional trainer counts quarter notes: in the meter's beats.
    mutating func resolveTrainerQuarterNotes(meter: Meter) throws(OptionError) {
        guard trainerInQuarterNotes, var t = trainer else { return }
        func beats(_ hundredths: Int32) throws(OptionError) -> Int32 {
            let scaled = Int(hundredths) * meter.beatUnit
            guard scaled % 4 == 0, abs(scaled / 4) <= 99_900 else {
                throw OptionError("tactus: the speed trainer's tempi count quarter notes, as in klick; in \(meter) they are not tempi from 1 to 999 with two decimals at most")
            }
            return Int32(scaled / 4)
        }
        t.from = BPM(hundredths: try beats(t.from.hundredths))
        t.to = BPM(hundredths: try beats(t.to.hundredths))
        t.stepHundredths = try beats(t.stepHundredths)
        trainer = t
        trainerInQuarterNotes = false
    }
}
