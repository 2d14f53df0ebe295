/// The least-squares parabola through the arrival frames of the last `count`
/// ticks (count ≥ 4), for a tempo that is ramping: a line through a ramp lags
/// it by a sixth of its curvature times the window squared, a parabola does not.
///
/// Fitted in discrete orthogonal (Gram) polynomials of the tick index, so the
/// three coefficients are independent sums and the variance of the curve's value
/// k ticks after the newest is `1/n + u²/S₁ + p₂(u)²/S₂` times one arrival's
/// (u the distance from the window's middle). A parabola's value at the window's
/// end is 2.25 times as uncertain as a line's over the same ticks, which is why
/// the follower takes it only when the line has had to narrow more than that
/// (docs/DESIGN.md §9.1).
struct TickCurve: Sendable, BitwiseCopyable {
    private let newest: Int64
    private let count: Int
    private let mean: Double, slope: Double, curvature: Double

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    init(fitting ticks: borrowing TickTimes, count: Int) {
        newest = ticks[age: 0]
        self.count = count
        var sumY = 0.0, sumUY = 0.0, sumPY = 0.0
        for age in 0..<count {
            let y = Double(ticks[age: age] - newest)
            let u = TickCurve.u(-Double(age), count: count)
            sumY += y
            sumUY += u * y
            sumPY += TickCurve.p2(u, count: count) * y
        }
        mean = sumY / Double(count)
        slope = sumUY / TickLine.sumOfSquares(count)
        curvature = sumPY / TickCurve.sumOfP2Squares(count)
    }

    /// The curve's frame of the tick `k` ticks after the newest.
    @inline(__always) func frame(ticksAfterNewest k: Double) -> Double {
        let u = TickCurve.u(k, count: count)
        return Double(newest) + mean + slope * u + curvature * TickCurve.p2(u, count: count)
    }

    /// The variance of `frame(ticksAfterNewest: k)` in units of one arrival's variance.
    @inline(__always) func varianceFactor(ticksAfterNewest k: Double) -> Double {
        let u = TickCurve.u(k, count: count)
        let p = TickCurve.p2(u, count: count)
        return 1 / Double(count) + u * u / TickLine.sumOfSquares(count) + p * p / TickCurve.sumOfP2Squares(count)
    }

    /// The line the grid follows from the newest tick: through the curve's newest
    /// frame and its next, so the next tick is where the curve puts it.
    var tangent: TickLine {
        let here = frame(ticksAfterNewest: 0)
        return TickLine(newestFrame: here, framesPerTick: frame(ticksAfterNewest: 1) - here, count: count)
    }

    /// The distance of tick index x (0 the newest, negative before) from the window's middle.
    @inline(__always) static func u(_ x: Double, count: Int) -> Double { x + Double(count - 1) / 2 }

    /// The second Gram polynomial: u² − (n² − 1)/12.
    @inline(__always) static func p2(_ u: Double, count: Int) -> Double {
        let n = Double(count)
        return u * u - (n * n - 1) / 12
    }

    /// Σ p₂² over the window: n(n² − 1)(n² − 4)/180.
    @inline(__always) static func sumOfP2Squares(_ count: Int) -> Double {
        let n = Double(count)
        return n * (n * n - 1) * (n * n - 4) / 180
    }
}
