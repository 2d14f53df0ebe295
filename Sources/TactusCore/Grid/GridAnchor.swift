/// The frame of every pulse under one tempo: `frame(p) = anchorFrame +
/// round((p − anchorPulse) × framesPerPulse)`, with framesPerPulse kept as the
/// exact fraction `sampleRate × 6000 / (tempo in hundredths × pulsesPerBeat)`.
///
/// Every position is computed from the anchor, never by adding rounded
/// intervals, so no error accumulates whatever the tempo or the run length; the
/// products are 128-bit, so they cannot overflow either. A tempo change makes a
/// new anchor at the clock tick where it takes effect.
public struct GridAnchor: Hashable, Sendable, BitwiseCopyable {
    public var frame: Int64
    public var pulse: Int64
    /// Numerator and denominator of frames per pulse.
    public let framesNumerator: Int64
    public let pulsesDenominator: Int64

    public init(frame: Int64, pulse: Int64, sampleRate: Int, tempo: BPM, pulsesPerBeat: Int64) {
        self.frame = frame
        self.pulse = pulse
        framesNumerator = Int64(sampleRate) * 6000
        pulsesDenominator = Int64(tempo.hundredths) * pulsesPerBeat
    }

    /// The frame of `pulse` (≥ the anchor's), rounded half up: within ±0.5 frame of the ideal.
    @inlinable public func frame(of pulse: Int64) -> Int64 {
        let k = Int128(pulse - self.pulse)
        let twice = 2 * k * Int128(framesNumerator) + Int128(pulsesDenominator)
        let q = twice / (2 * Int128(pulsesDenominator))
        return frame + Int64(twice < 0 && twice % (2 * Int128(pulsesDenominator)) != 0 ? q - 1 : q)
    }

    /// The last pulse whose ideal (unrounded) position is at or before `frame`.
    @inlinable public func pulse(atOrBefore frame: Int64) -> Int64 {
        let d = Int128(frame - self.frame) * Int128(pulsesDenominator)
        var q = d / Int128(framesNumerator)
        if d < 0 && d % Int128(framesNumerator) != 0 { q -= 1 }
        return pulse + Int64(q)
    }

    /// Ideal frames per pulse, for display and tests.
    public var framesPerPulse: Double { Double(framesNumerator) / Double(pulsesDenominator) }
}

/// The smallest multiple of `step` that is ≥ `value` (step > 0).
@inlinable func roundUp(_ value: Int64, toMultipleOf step: Int64) -> Int64 {
    let r = value % step
    return r == 0 ? value : (r > 0 ? value + step - r : value - r)
}
