#if canImport(Glibc)
import Glibc
#endif

extension PressureConfiguration.Curve {
    /// How strongly the two bent curves bend: with k = 3 the exponential curve
    /// gives 0.18 at half way and the logarithmic one, its mirror image, 0.79.
    static let bend = 3.0

    /// Maps 0…1 onto 0…1, keeping both ends.
    ///
    /// * linear: unchanged.
    /// * exponential: (e^(k·x) − 1) / (e^k − 1): gentle at first, steep near the
    ///   top, for fine control at light force.
    /// * logarithmic: the inverse, ln(1 + x·(e^k − 1)) / k: steep at first, for
    ///   controllers whose sensor needs a hard push to move at all.
    public func shape(_ x: Double) -> Double {
        let x = min(max(x, 0), 1)
        switch self {
        case .linear:
            return x
        case .exponential:
            return (exp(Self.bend * x) - 1) / (exp(Self.bend) - 1)
        case .logarithmic:
            return log(1 + x * (exp(Self.bend) - 1)) / Self.bend
        }
    }
}

extension PressureConfiguration.Calibration {
    /// The force f, 0…1, of a raw pressure value.
    ///
    /// Values at or below the dead zone read 0; the maximum the controller
    /// actually reaches reads 1 (many controllers never send 127); in between,
    /// linearly, then bent by the curve. The articles' `force / maximumPossibleForce`
    /// (docs/DESIGN.md §5.2), with the player's own maximum.
    public func force(raw value: Int) -> Double {
        let span = maximum - deadZone
        guard span > 0 else { return value > deadZone ? 1 : 0 }
        let x = Double(value - deadZone) / Double(span)
        return curve.shape(x)
    }
}

extension PressureConfiguration {
    /// Continuous mode: the acceleration in BPM per second at force `f`, rising
    /// along `continuousCurve` from `continuousMinimumRate` at the light threshold
    /// to `continuousMaximumRate` at full force.
    public func continuousRate(force f: Double) -> Double {
        let span = 1 - lightThreshold
        let x = span > 0 ? (f - lightThreshold) / span : 1
        return continuousMinimumRate + (continuousMaximumRate - continuousMinimumRate) * continuousCurve.shape(x)
    }
}
