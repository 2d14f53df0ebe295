/// Where each pulse of the grid falls in frames during one stretch of time: the
/// engine's own exact anchor, or the linear map an outside time source gives for
/// one cycle (docs/DESIGN.md §8).
///
/// `.exact` is the engine's own time: `GridAnchor`'s rational arithmetic, so no
/// error accumulates over any run length. `.measured` is a time source's word
/// for the current cycle: the (fractional) pulse at one frame and how many
/// frames a pulse lasts there; positions are rounded to the nearest frame, which
/// is as exact as the source itself (a JACK timebase master's BBT, Link's beat
/// at a host time).
enum GridMapping: BitwiseCopyable {
    case exact(GridAnchor)
    case measured(MeasuredMapping)
    /// A tempo map's segment: a tempo linear in beats, integrated (`RampMapping`).
    case ramp(RampMapping)

    /// The frame of `pulse` (at or after the mapping's own pulse).
    func frame(of pulse: Int64) -> Int64 {
        switch self {
        case .exact(let anchor): anchor.frame(of: pulse)
        case .measured(let map): map.frame(of: pulse)
        case .ramp(let ramp): ramp.frame(of: pulse)
        }
    }

    /// The last pulse whose ideal position is at or before `frame`.
    func pulse(atOrBefore frame: Int64) -> Int64 {
        switch self {
        case .exact(let anchor): anchor.pulse(atOrBefore: frame)
        case .measured(let map): map.pulse(atOrBefore: frame)
        case .ramp(let ramp): ramp.pulse(atOrBefore: frame)
        }
    }

    /// The exact (fractional) pulse at `frame`, unrounded: what a JACK
    /// timebase master publishes as the position of a cycle's first frame.
    func pulsePosition(at frame: Int64) -> Double {
        switch self {
        case .exact(let anchor):
            Double(anchor.pulse) + Double(frame - anchor.frame) * Double(anchor.pulsesDenominator) / Double(anchor.framesNumerator)
        case .measured(let map): map.pulsePosition(at: frame)
        case .ramp(let ramp): ramp.pulsePosition(at: frame)
        }
    }
}

/// A time source's mapping for one cycle: `pulse` (grid pulses, fractional) is
/// at `frame`, and a pulse lasts `framesPerPulse` frames.
struct MeasuredMapping: BitwiseCopyable {
    var frame: Int64
    var pulse: Double
    var framesPerPulse: Double

    /// Rounded half up, as `GridAnchor` rounds: within ±0.5 frame of the source's position.
    func frame(of p: Int64) -> Int64 {
        frame + floorToInt64((Double(p) - pulse) * framesPerPulse + 0.5)
    }

    func pulse(atOrBefore f: Int64) -> Int64 {
        floorToInt64(pulse + Double(f - frame) / framesPerPulse)
    }

    /// The (fractional) pulse at frame `f`, for telling a continuation from a jump.
    func pulsePosition(at f: Int64) -> Double { pulse + Double(f - frame) / framesPerPulse }
}

/// ⌊x⌋ as an integer, without `FloatingPointRoundingRule` (whose metadata the
/// real-time checker cannot rule out). `x` must be within Int64's range.
@inline(__always) func floorToInt64(_ x: Double) -> Int64 {
    let t = Int64(x)
    return Double(t) > x ? t - 1 : t
}

/// ⌈x⌉ as an integer, likewise.
@inline(__always) func ceilToInt64(_ x: Double) -> Int64 {
    let t = Int64(x)
    return Double(t) < x ? t + 1 : t
}
