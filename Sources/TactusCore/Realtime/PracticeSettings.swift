/// The count-in before bar 1 (`--count-in`, docs/DESIGN.md §10.4).
public struct CountIn: Sendable, Hashable, BitwiseCopyable {
    /// Bars of the meter; 0 means two beats, as klick's `-c 0`.
    public var bars: Int
    /// The count-in's click is the accent sound at this gain factor (−6 dB by default).
    public var gain: Float
    /// Timing clocks (0xF8) during the count-in too; Start still goes out on the downbeat after it.
    public var sendsClock: Bool

    public init(bars: Int, gain: Float = 0.5, sendsClock: Bool = false) {
        self.bars = bars
        self.gain = gain
        self.sendsClock = sendsClock
    }

    func pulses(of meter: Meter) -> Int64 { bars == 0 ? 2 * meter.pulsesPerBeat : Int64(bars) * meter.pulsesPerBar }
}

/// The speed trainer (`--trainer FROM-TO/BARS[:STEP]`, docs/DESIGN.md §10.5):
/// from FROM, every BARS bars the tempo moves by STEP toward TO, then holds.
/// A step starts from the tempo playing at its bar line, so a tempo the player
/// set in between is where the trainer goes on from.
public struct SpeedTrainer: Sendable, Hashable, BitwiseCopyable {
    public var from: BPM
    public var to: BPM
    public var bars: Int
    /// Hundredths of a BPM a step; its sign is the direction.
    public var stepHundredths: Int32

    public init(from: BPM, to: BPM, bars: Int, stepHundredths: Int32? = nil) {
        self.from = from
        self.to = to
        self.bars = bars
        self.stepHundredths = stepHundredths ?? (to < from ? -100 : 100)
    }

    /// The tempo after a step from `tempo`; nil once TO is reached or passed (hold).
    func next(after tempo: BPM) -> BPM? {
        if stepHundredths > 0 {
            guard tempo < to else { return nil }
            return BPM(hundredths: min(tempo.hundredths + stepHundredths, to.hundredths))
        }
        guard tempo > to else { return nil }
        return BPM(hundredths: max(tempo.hundredths + stepHundredths, to.hundredths))
    }
}

/// The gap trainer (`--gap PLAY/MUTE`, `--gap-random P`, docs/DESIGN.md
/// §10.6): bars whose clicks are silent while the clock runs on.
public struct GapTrainer: Sendable, Hashable, BitwiseCopyable {
    /// PLAY bars heard, then MUTE bars silent, from bar 1 (0/0: none).
    public var play: Int
    public var mute: Int
    /// Each bar also silent with this probability, drawn from `seed` and the bar number.
    public var probability: Double
    public var seed: UInt64

    public init(play: Int = 0, mute: Int = 0, probability: Double = 0, seed: UInt64 = 0) {
        self.play = play
        self.mute = mute
        self.probability = probability
        self.seed = seed
    }

    /// Whether bar `bar` (from 1) is silent. The same seed silences the same
    /// bars, whatever the block size or the moment of rendering.
    public func mutes(bar: Int) -> Bool {
        if mute > 0 && (bar - 1) % (play + mute) >= play { return true }
        guard probability > 0 else { return false }
        return GapTrainer.uniform(seed: seed, index: UInt64(truncatingIfNeeded: bar)) < probability
    }

    /// SplitMix64 (Steele, Lea and Flood 2014) of the seed and the bar: a
    /// number in [0, 1) with no state to carry between bars.
    static func uniform(seed: UInt64, index: UInt64) -> Double {
        var z = seed &+ index &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / 9_007_199_254_740_992
    }
}

/// What the practice tools hold while the engine plays.
struct PracticeState: BitwiseCopyable {
    var countIn: CountIn?
    var trainer: SpeedTrainer?
    var gap: GapTrainer?
    /// Between Start and the downbeat after the count-in; its first pulse.
    var countingIn = false
    var countInStart: Int64 = 0
    /// The grid pulse of the trainer's next step.
    var nextStep: Int64 = 0

    /// The clock waits for the count-in's end (unless asked for during it).
    func holdsClock(whileStopped: Bool) -> Bool { countingIn && !whileStopped && countIn?.sendsClock != true }
}

/// A practice tool changed while Tactus runs: the count-in and the speed trainer
/// from the next Start (they belong to a run's beginning, §10.7), the gap
/// trainer from the next bar (its bars count from bar 1). nil clears the tool.
public enum PracticeChange: Sendable, Hashable, BitwiseCopyable {
    case countIn(CountIn?)
    case trainer(SpeedTrainer?)
    case gap(GapTrainer?)
}
