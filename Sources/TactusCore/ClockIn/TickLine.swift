/// The least-squares line through the arrival frames of the last `count` ticks:
/// tick k (0 the newest, −1 the one before, …) at `newestFrame + k × framesPerTick`.
///
/// With arrival errors independent, of spread σ, the line's value k ticks after
/// the newest has variance σ² × `varianceFactor(ticksAfterNewest: k)` — the
/// textbook `1/n + (k − x̄)² / Sxx` — which is what the follower's window choice
/// weighs (docs/DESIGN.md §9.1). Frames are taken relative to the newest tick,
/// so no precision is lost however long the run.
struct TickLine: Sendable, BitwiseCopyable {
    /// The line's frame of the newest tick.
    var newestFrame: Double
    var framesPerTick: Double
    /// The ticks fitted.
    var count: Int

    init(newestFrame: Double, framesPerTick: Double, count: Int) {
        self.newestFrame = newestFrame
        self.framesPerTick = framesPerTick
        self.count = count
    }

    /// Fits the newest `count` ticks (2 ≤ count ≤ ticks.count).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    init(fitting ticks: borrowing TickTimes, count: Int) {
        let newest = ticks[age: 0]
        let n = Double(count)
        let meanX = -(n - 1) / 2
        var sumY = 0.0, sumXY = 0.0
        for age in 0..<count {
            let y = Double(ticks[age: age] - newest)
            sumY += y
            sumXY += -Double(age) * y
        }
        let meanY = sumY / n
        let slope = (sumXY - n * meanX * meanY) / TickLine.sumOfSquares(count)
        self.init(newestFrame: Double(newest) + meanY - slope * meanX, framesPerTick: slope, count: count)
    }

    /// The line's frame of the tick `k` ticks after the newest (negative: before).
    @inline(__always) func frame(ticksAfterNewest k: Double) -> Double { newestFrame + k * framesPerTick }

    /// The variance of `frame(ticksAfterNewest: k)` in units of one arrival's variance.
    @inline(__always) func varianceFactor(ticksAfterNewest k: Double) -> Double {
        let n = Double(count)
        let d = k + (n - 1) / 2
        return 1 / n + d * d / TickLine.sumOfSquares(count)
    }

    /// Σ(x − x̄)² of n consecutive integers: n(n² − 1)/12.
    @inline(__always) static func sumOfSquares(_ count: Int) -> Double {
        let n = Double(count)
        return n * (n * n - 1) / 12
    }
}
