/// A filtered mapping from an audio frame counter to a clock in microseconds,
/// fed one measured point per audio cycle: a second-order delay-locked loop in
/// the form of Fons Adriaensen's "Using a DLL to filter time" (2005), the filter
/// JACK itself runs on its wake-up times, here driven by frames rather than
/// cycle counts so that a skipped cycle or a new period size needs no special case.
///
/// Each cycle gives a frame, its measured time and the measured microseconds per
/// frame (for JACK: `jack_get_cycle_times`' `current_usecs` and
/// `(next_usecs − current_usecs) / nframes`). The loop predicts the cycle's time
/// from the previous one with its own rate, and moves its time by `b·e` and its
/// rate by `c·e` per frame of the prediction error `e`, with `ω = 2π·B·Δt`,
/// `b = √2·ω`, `c = ω²` (critically damped, bandwidth `B`). The point's own
/// rate estimate is only read at a reset.
///
/// One disturbed cycle (jack2 after an xrun reports `current_usecs` or a period
/// several ms off for a cycle or two) must move nothing, so a point whose error
/// exceeds the gate is held out of the loop. Only when `confirmations` points in a
/// row lie off the old line and on one new line (a server restart, jack2's timed
/// driver re-anchoring its schedule after a stall, the frame counter jumping, a
/// sample-rate change) does the filter reset to that line. Meanwhile
/// `isSettled` is false, so a consumer can hold what it would schedule from the
/// suspect cycle until the next point tells which it was.
///
/// A plain value: no allocation, no lock, no reference. One thread updates it;
/// to share it, copy it out through a seqlock as `FrameClockReference` does.
public struct FrameTimeFilter: Sendable, BitwiseCopyable {
    public struct Settings: Sendable, BitwiseCopyable {
        /// Loop bandwidth (Hz). JACK's own DLL runs far narrower; 1 Hz follows a
        /// sound card's rate within seconds and averages wake-up jitter over ~30
        /// cycles of 256 frames at 48 kHz.
        public var bandwidth: Double = 1.0
        /// The smallest gate (µs): an error beyond it (and beyond `gateSpread` times
        /// the loop's running RMS error) makes a point suspect.
        public var minimumGate: Double = 1_000
        /// The gate in units of the running RMS prediction error, for sources whose
        /// times jitter more than the minimum gate (raw wake-up times).
        public var gateSpread: Double = 6
        /// Suspect points in a row, on one line, that make a reset.
        public var confirmations: Int = 3
        /// How closely (relative) a cycle's rate estimate must agree with the rate
        /// a new line's points show to confirm a new sample rate, and how far the
        /// first estimate may be from the first two points' rate: 44.1 against
        /// 48 kHz is 8.8 %, a crystal's error 0.01 %.
        public var rateTolerance: Double = 0.02
        /// The least change of rate (relative) a new line may bring: standard sample
        /// rates differ by 8.8 % at the least (44.1 against 48 kHz), while two or three
        /// wake-up times a period apart, jittering by a few hundred µs, show rates up
        /// to several % off, and jack2's own report is off for a while after an xrun.
        public var sampleRateStep: Double = 0.05
        /// Suspect points in a row after which the filter resets to the latest one
        /// even though they agree on no line, so a source that changed for good and
        /// stays noisy cannot keep it unsettled.
        public var maximumSuspect: Int = 16

        @_noLocks @_noAllocation
        public init() {}
    }

    /// What one point did.
    public enum Update: Sendable, Hashable, BitwiseCopyable {
        /// The first point: the mapping starts there.
        case started
        /// Followed: the point's prediction error (µs).
        case tracked(error: Double)
        /// Held out of the loop as suspect; the mapping did not move.
        case suspect(error: Double)
        /// A discontinuity confirmed: the mapping restarted on the new line.
        case reset
        /// The same frame as the last point (a reader polling faster than cycles come), or
        /// a point older than it: nothing to learn.
        case ignored
    }

    public let settings: Settings

    // The loop: the time of `frame` and the rate from there.
    private var frame: Int64 = 0
    private var time: Double = 0
    private var rate: Double = 0
    private var started = false
    /// Running mean of the squared prediction error (µs²), for the adaptive gate.
    private var meanSquareError: Double = 0

    // The line suspect points agree on, if any: its first point and rate.
    private var suspectCount = 0
    private var candidateFrame: Int64 = 0
    private var candidateTime: Double = 0
    private var candidateRate: Double = 0
    private var lastFrame: Int64 = 0
    /// The first point's rate estimate is all the filter has until the second point;
    /// a server starting up may report one far off (jack2 under load: 50 %).
    private var firstRateUnchecked = false

    /// Resets done since the start (the first point not counted).
    public private(set) var resets = 0

    /// Made, read and fed in the JACK cycle (`LinkTimeline.bridged`, in
    /// another module): annotated so that cycle is checked through them.
    @_noLocks @_noAllocation
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// True once started and while no suspect point awaits confirmation.
    public var isSettled: Bool { started && suspectCount == 0 }

    /// The filtered rate (µs per frame); nil before the first point.
    public var microsecondsPerFrame: Double? { started ? rate : nil }

    /// The filtered time of `frame` (µs); nil before the first point.
    @inline(__always) @_noLocks @_noAllocation
    public func microseconds(atFrame f: Int64) -> Double? {
        started ? time + Double(f - frame) * rate : nil
    }

    /// The gate (µs) a point's error is held against.
    public var gate: Double { gateSquared.squareRoot() }

    /// The gate squared, so the cycle path needs no square root (a library call the
    /// real-time check cannot see into).
    private var gateSquared: Double {
        max(settings.minimumGate * settings.minimumGate, settings.gateSpread * settings.gateSpread * meanSquareError)
    }

    /// Takes one cycle's point: its first frame, its measured time (µs) and the
    /// measured µs per frame.
    @discardableResult @_noLocks @_noAllocation
    public mutating func update(frame f: Int64, microseconds t: Double, microsecondsPerFrame measuredRate: Double) -> Update {
        guard started else {
            restart(frame: f, time: t, rate: measuredRate > 0 ? measuredRate : 0)
            started = true
            firstRateUnchecked = true
            return .started
        }
        if f == lastFrame { return .ignored }
        // A frame counter that runs backwards is a new timeline (FrameTimeline maps a
        // new server onto the old one's end, so this is a fault or a reinit): start over.
        if f < lastFrame {
            restart(frame: f, time: t, rate: measuredRate > 0 ? measuredRate : rate)
            firstRateUnchecked = true
            resets += 1
            return .reset
        }
        lastFrame = f
        let elapsed = Double(f - frame)
        let error = t - (time + elapsed * rate)
        if firstRateUnchecked {
            // The second point: the rate the first two points show wins over a first
            // estimate that disagrees with it, so a bad one cannot hold the mapping.
            firstRateUnchecked = false
            let observed = (t - time) / elapsed
            if observed > 0 && abs(observed - rate) > settings.rateTolerance * max(rate, observed) {
                restart(frame: f, time: t, rate: observed)
                return .tracked(error: error)
            }
        }
        // A cycle's own rate estimate is no evidence alone (jack2's is off for a while
        // after an xrun, and far off under load): only times make a point suspect.
        if error * error > gateSquared {
            return suspect(frame: f, time: t, measuredRate: measuredRate, error: error)
        }
        suspectCount = 0
        // ω per update from the time the update spans: the loop's bandwidth holds for
        // any period, and a skipped cycle is just a longer step.
        let omega = 2 * Double.pi * settings.bandwidth * elapsed * rate / 1_000_000
        let b = 1.414_213_562_373_095_1 * omega, c = omega * omega   // √2·ω
        time += elapsed * rate + b * error
        rate += c * error / elapsed
        frame = f
        meanSquareError += (error * error - meanSquareError) * min(1, omega)
        return .tracked(error: error)
    }

    /// A point off the line: remembered as the start of a candidate line, or
    /// checked against the candidate; a reset once enough agree.
    private mutating func suspect(frame f: Int64, time t: Double, measuredRate: Double, error: Double) -> Update {
        guard suspectCount > 0 else {
            suspectCount = 1
            candidateFrame = f; candidateTime = t; candidateRate = rate
            return .suspect(error: error)
        }
        var offCandidate = t - (candidateTime + Double(f - candidateFrame) * candidateRate)
        // Off the old rate too: a new sample rate, if the rate these points show is the
        // one the cycle reports (a new line's rate is learnt from its own times, and the
        // report only corroborates it).
        let observed = (t - candidateTime) / Double(f - candidateFrame)
        if offCandidate * offCandidate > gateSquared && suspectCount == 1 && observed > 0 && measuredRate > 0
            && abs(observed - measuredRate) <= settings.rateTolerance * measuredRate
            && abs(observed - rate) > settings.sampleRateStep * rate {
            candidateRate = observed
            offCandidate = 0
        }
        if offCandidate * offCandidate > gateSquared {
            // Not the same line: this point starts a new candidate, unless the
            // source has been off for too long to wait any more.
            if suspectCount + 1 >= settings.maximumSuspect {
                restart(frame: f, time: t, rate: observed > 0 ? observed : rate)
                resets += 1
                return .reset
            }
            suspectCount += 1
            candidateFrame = f; candidateTime = t; candidateRate = rate
            return .suspect(error: error)
        }
        suspectCount += 1
        if suspectCount >= settings.confirmations {
            // The new line's rate: the one it was confirmed with (the loop's own, or a new
            // sample rate found above), unless its points show a rate a sample-rate step
            // from that and the cycle's report agrees with them. Three points a period
            // apart, each a wake-up time jittering by a few hundred µs, show a rate
            // 1–4 % off; taken at jack2's re-anchoring after an xrun, it holds until
            // the loop learns the rate back (a Link peer's clock ticks were 992–995
            // frames for 1 000 for a second after two xruns before this).
            let agrees = measuredRate > 0 && abs(observed - measuredRate) <= settings.rateTolerance * measuredRate
            let moved = abs(observed - candidateRate) > settings.sampleRateStep * candidateRate
            restart(frame: f, time: t, rate: agrees && moved ? observed : candidateRate)
            resets += 1
            return .reset
        }
        return .suspect(error: error)
    }

    private mutating func restart(frame f: Int64, time t: Double, rate r: Double) {
        frame = f
        lastFrame = f
        time = t
        rate = r
        suspectCount = 0
        meanSquareError = 0
        firstRateUnchecked = false
    }
}

#if REALTIME_CHECKS
/// The compiler's proof that the filter takes no lock and allocates nothing, so
/// any thread may run it (compiled in release builds only; never called).
@_noLocks @_noAllocation
func realtimeCheckOfFrameTimeFilter(_ filter: inout FrameTimeFilter) -> Double? {
    filter.update(frame: 256, microseconds: 5_333, microsecondsPerFrame: 20.833)
    return filter.microseconds(atFrame: 512)
}
#endif
