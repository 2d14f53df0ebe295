import TactusCore

/// The practice options: tempo map, count-in, speed trainer, gap trainer
/// (README "Practice", docs/DESIGN.md §10).
extension OptionTable {
    static let trainerAllowed = "FROM-TO/BARS[:STEP]: tempi from 1 to 999, BARS from 1 to 1000, STEP a non-zero BPM toward TO (e.g. 80-120/10 or 120-90/4:-2.5)"
    static let gapAllowed = "PLAY/MUTE: bars heard, then bars silent, each from 1 to 1000 (e.g. 3/1)"

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
            let parts = v.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let play = Int(parts[0]), let mute = Int(parts[1]), (1...1000).contains(play), (1...1000).contains(mute) else {
                throw bad(n, v, gapAllowed)
            }
            o.gap.play = play
            o.gap.mute = mute
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

    /// `80-120/10`, `80-120/10:2`, `120-90/4:-2.5`.
    static func trainer(_ value: String, _ name: String) throws(OptionError) -> SpeedTrainer {
        let slash = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let tempi = slash[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard slash.count == 2, tempi.count == 2 else { throw bad(name, value, trainerAllowed) }
        let barsAndStep = slash[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let from: BPM, to: BPM
        do throws(OptionError) {
            from = try bpm(String(tempi[0]), name)
            to = try bpm(String(tempi[1]), name)
        } catch {
            throw bad(name, value, trainerAllowed)
        }
        guard let bars = Int(barsAndStep[0]), (1...1000).contains(bars) else { throw bad(name, value, trainerAllowed) }
        var step: Int32?
        if barsAndStep.count == 2 {
            let text = String(barsAndStep[1])
            let decimals = text.firstIndex(of: ".").map { text[text.index(after: $0)...].count } ?? 0
            guard let s = Double(text), s.isFinite, s != 0, abs(s) <= 100, decimals <= 2 else { throw bad(name, value, trainerAllowed) }
            guard (s > 0) == (to > from) || to == from else {
                throw OptionError("tactus: \(name) '\(value)': a step of \(text) goes away from \(to): STEP's sign is the direction from FROM to TO")
            }
            step = Int32((s * 100).rounded())
        }
        return SpeedTrainer(from: from, to: to, bars: bars, stepHundredths: step)
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
