/// Where the pulses of one tempo map segment fall: a tempo that moves linearly
/// in beat position from `fromTempo` at the segment's first pulse to `toTempo`
/// at its end (a constant tempo when they are equal), in quarter notes a minute.
///
/// The time to a position is the integral of 1/tempo: for a pulse k of the
/// segment's P, with s = (toTempo − fromTempo) / fromTempo,
///
///     frames(k) = framesPerPulse × P / s × ln(1 + s × k / P)
///
/// so a beat lasts 60 s over the logarithmic mean of the tempi at its two ends
/// ((b − a) / ln(b / a)), and every click and clock tick is rounded on its own
/// from the segment's exact (fractional) start: no rounded interval is ever
/// added to another, so nothing drifts across the ramp or the map
/// (docs/DESIGN.md §10.2). Doubles carry the arithmetic: a frame position of
/// an hour at 192 kHz (7 × 10⁸) keeps about 10⁻⁷ of a frame; the logarithm is
/// `RealtimeMath`'s, which the real-time checker can see through.
struct RampMapping: BitwiseCopyable {
    /// The integer frame the map's positions count from, and this segment's
    /// exact start after it, in frames.
    var originFrame: Int64
    var startOffset: Double
    /// The grid pulse of the segment's start, and its length in pulses.
    var pulse: Int64
    var pulses: Double
    /// Frames a pulse lasts at the segment's start.
    var framesPerPulse: Double
    /// The relative change of tempo over the segment, (to − from) / from; 0: constant.
    var slope: Double

    init(originFrame: Int64, startOffset: Double, pulse: Int64, pulses: Int64, fromTempo: Double, toTempo: Double, sampleRate: Int) {
        self.originFrame = originFrame
        self.startOffset = startOffset
        self.pulse = pulse
        self.pulses = Double(pulses)
        framesPerPulse = RampMapping.framesPerPulse(sampleRate: Double(sampleRate), quarterTempo: fromTempo)
        slope = (toTempo - fromTempo) / fromTempo
    }

    /// 60 s × rate / (tempo × 96 pulses a quarter note).
    static func framesPerPulse(sampleRate: Double, quarterTempo: Double) -> Double {
        sampleRate * 60 / (quarterTempo * Double(Grid.pulsesPerQuarterNote))
    }

    /// Exact frames from the segment's start to `k` pulses into it.
    @inline(__always) func offset(pulses k: Double) -> Double {
        guard slope != 0 else { return k * framesPerPulse }
        // Past the segment's end (only while the next segment is not yet applied)
        // a falling tempo would reach zero: held short of it, never NaN.
        return framesPerPulse * pulses / slope * RealtimeMath.logOnePlus(max(slope * k / pulses, -0.999_999))
    }

    /// Rounded half up, as `GridAnchor` rounds: within ±0.5 frame of the exact position.
    func frame(of p: Int64) -> Int64 {
        originFrame + floorToInt64(startOffset + offset(pulses: Double(p - pulse)) + 0.5)
    }

    /// The last pulse whose exact position is at or before frame `f`.
    func pulse(atOrBefore f: Int64) -> Int64 {
        pulse + floorToInt64(max(min(pulsesIn(at: f), 1e15), -1e15))
    }

    /// The exact (fractional) pulse at frame `f`.
    func pulsePosition(at f: Int64) -> Double { Double(pulse) + pulsesIn(at: f) }

    /// Pulses from the segment's start to frame `f`, fractional: the inverse of `offset`.
    private func pulsesIn(at f: Int64) -> Double {
        let x = Double(f - originFrame) - startOffset
        return slope == 0 ? x / framesPerPulse : pulses / slope * RealtimeMath.expMinusOne(x * slope / (framesPerPulse * pulses))
    }
}
