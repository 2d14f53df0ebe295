/// The written forms of the speed and gap trainers, `FROM-TO/BARS[:STEP]` and
/// `PLAY/MUTE`, read the same from the command line (`--trainer`, `--gap`) and
/// from a preset (`trainer`, `gap`, Presets/README.md).
public struct PracticeSyntaxError: Error, Equatable {
    /// nil: the text is not of the form at all; otherwise what is wrong in it.
    public let problem: String?
}

extension SpeedTrainer {
    public static let allowed = "FROM-TO/BARS[:STEP]: tempi from 1 to 999, BARS from 1 to 1000, STEP a non-zero BPM toward TO (e.g. 80-120/10 or 120-90/4:-2.5)"

    /// `80-120/10`, `80-120/10:2`, `120-90/4:-2.5`; tempi from 1 to 999 with two decimals at most.
    public init(parsing value: String) throws(PracticeSyntaxError) {
        let malformed = PracticeSyntaxError(problem: nil)
        let slash = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let tempi = slash[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard slash.count == 2, tempi.count == 2 else { throw malformed }
        func hundredths(_ text: Substring, in range: ClosedRange<Double>) -> Double? {
            let decimals = text.firstIndex(of: ".").map { text[text.index(after: $0)...].count } ?? 0
            guard let x = Double(text), x.isFinite, range.contains(x), decimals <= 2 else { return nil }
            return x
        }
        let barsAndStep = slash[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let from = hundredths(tempi[0], in: 1...999), let to = hundredths(tempi[1], in: 1...999),
              let bars = Int(barsAndStep[0]), (1...1000).contains(bars) else { throw malformed }
        var step: Int32?
        if barsAndStep.count == 2 {
            guard let s = hundredths(barsAndStep[1], in: -100...100), s != 0 else { throw malformed }
            guard (s > 0) == (to > from) || to == from else {
                throw PracticeSyntaxError(problem: "a step of \(barsAndStep[1]) goes away from \(BPM(to)): STEP's sign is the direction from FROM to TO")
            }
            step = Int32((s * 100).rounded())
        }
        self.init(from: BPM(from), to: BPM(to), bars: bars, stepHundredths: step)
    }
}

extension GapTrainer {
    public static let allowed = "PLAY/MUTE: bars heard, then bars silent, each from 1 to 1000 (e.g. 3/1)"

    /// `3/1`: the bars heard and the bars silent; probability and seed stay as they are.
    public mutating func parse(_ value: String) throws(PracticeSyntaxError) {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let play = Int(parts[0]), let mute = Int(parts[1]), (1...1000).contains(play), (1...1000).contains(mute) else {
            throw PracticeSyntaxError(problem: nil)
        }
        self.play = play
        self.mute = mute
    }
}
