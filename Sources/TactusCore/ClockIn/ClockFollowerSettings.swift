/// The follower's constants, each with where it comes from (docs/DESIGN.md §9.1).
public struct ClockFollowerSettings: Sendable, BitwiseCopyable {
    /// The widest fit, in ticks: 192 = 8 beats. With arrival jitter of spread σ the
    /// next tick's frame is known to σ × 0.145 over 192 ticks (σ × √(1/n + (n+1)²/(4·Sxx))),
    /// so USB's uniform ±2 ms (σ = 1.15 ms) becomes 0.17 ms: 2.1 % of the jitter's
    /// power passes, an equivalent noise bandwidth of 0.021 × 24 ≈ 0.5 Hz at 120 BPM
    /// (48 ticks a second, 24 Hz to Nyquist) at its widest. A tempo change narrows
    /// it at once (`confidence`), so width costs no lag.
    public var maximumWindow: Int = 192
    /// The narrower fits each new tick is checked against (ticks): a doubling ladder
    /// from 3, the fewest that show a tempo and a phase with one point to spare.
    public var windowLadder: (Int, Int, Int, Int, Int, Int) = (3, 6, 12, 24, 48, 96)
    /// How many standard deviations apart two fits' predictions of the next tick may
    /// lie before the wider one is taken as biased (a tempo change inside it): the
    /// intersection-of-confidence-intervals rule. At 3, ±2 ms of jitter narrows the
    /// fit by chance a few times in 200 beats (at 2.5, fifteen: the beats' spread
    /// grew by a fifth), while a step of 1 % of the period is still seen within a beat.
    public var confidence: Double = 3
    /// Whether a parabola may be followed through a ramp (`TickCurve`), and the
    /// fewest ticks it is fitted to: 6, two more than it has coefficients plus one,
    /// so that its first prediction is not the noise of three points.
    public var followsRamps = true
    public var minimumCurvedWindow: Int = 6
    /// The smallest arrival spread the fit assumes (frames): a clock written to the
    /// frame has ±0.5 frame of rounding, spread 0.29.
    public var minimumSpread: Double = 0.5
    /// Ticks that make a lock: 3, two intervals that agree on a tempo (Ardour's MIDI
    /// clock follower locks after 3 as well).
    public var lockTicks: Int = 3
    /// Intervals in a row that each differ from the followed period by more than
    /// `jumpRatio` in one direction make a jump straight to the new tempo: 3 of
    /// 20 %, as the reference follower jumps. Jitter cannot do it: three intervals
    /// off the same way telescope to one arrival error of 60 % of a period.
    public var jumpIntervals: Int = 3
    public var jumpRatio: Double = 1.2
    /// Intervals whose arrival frames must share a lattice before it counts as a
    /// period lattice (a bridge that delivers every tick at a JACK period's first
    /// frame), and the smallest lattice step that counts (frames).
    public var latticeIntervals: Int = 16
    public var minimumLatticeStep: Int64 = 32
    /// On a lattice the arrival errors are a sawtooth, not independent: the fit is
    /// not narrowed below this many ticks (a beat and a half, several teeth at any
    /// tempo where the lattice is seen), and a jump still applies.
    public var latticeMinimumWindow: Int = 48
    /// An interval this many periods long, after one that was not, while locked, is
    /// one tick lost in transit (a MIDI byte dropped): counted, and a tick put where
    /// the line expected it, so the song and the grid do not slip a tick. From 1.5
    /// to 2.5: nearer two periods than one or three, the arrival nearer the next
    /// tick's place than its own, as a tick delivered late by more than half a
    /// period (up to one and a half) also makes it; the tick after tells the two
    /// apart and undoes the inference for a late one (`ClockFollower.inferLostTick`),
    /// so no arrival is taken for the wrong tick. Jitter of ±2 ms reaches 1.5
    /// periods only above 312 BPM (4 ms in an interval of 8 ms), and is then a
    /// late tick, undone; a tempo halved shows a second such interval at once,
    /// which undoes the inference too.
    public var lostTickRatios: (lowest: Double, highest: Double) = (1.5, 2.5)
    /// No tick for this many tick periods: the tempo is held (the display says so).
    public var holdingAfterTicks: Double = 3
    /// No tick for this many beats at the held tempo, or `maximumHoldSeconds` if
    /// shorter: the clock is gone, the follower stops and says so once.
    public var dropoutBeats: Double = 2
    public var maximumHoldSeconds: Double = 2

    public init() {}
}
