/// The follower's filter: which ticks the line is fitted to (docs/DESIGN.md §9.1).
///
/// * **Width by confidence.** Each new tick, the line over the current window is
///   checked against lines over the last 3, 6, 12 … 96 ticks: each predicts the
///   next tick's frame with a standard deviation `spread × √varianceFactor`; the
///   widest window whose prediction interval (± `confidence` deviations) still
///   meets every narrower one's is kept (the intersection-of-confidence-intervals
///   rule of Goldenshluger and Nemirovski, 1997). Steady ticks grow the window to
///   `maximumWindow`; a tempo step or ramp makes the wide line disagree with the
///   narrow ones, and the window shrinks to the ticks after the change.
/// * **Ramp.** The same choice is made for parabolas over the ticks; when the
///   parabola's window knows the next tick better than the line's (a ramp has
///   narrowed the line), the grid follows the parabola's tangent at the newest tick.
/// * **Jump.** Three intervals in a row more than 20 % off the followed period,
///   all one way: the window restarts at the change (the reference follower's rule).
/// * **Spread.** Estimated from the second differences of arrival frames (a line
///   leaves none, a ramp almost none): their mean absolute value over the last 64 ticks
///   divided by 1.954 (√6 · √(2/π), independent errors, nearly normal).
/// * **Period lattice.** A bridge that delivers every tick at the first frame of a
///   JACK period makes every interval a multiple of the period, while the
///   intervals still differ (the tick grid slides over the period grid). Seen over
///   `latticeIntervals` intervals, the arrival errors are a sawtooth of one period:
///   the spread is taken as step/√12, the window is not narrowed below
///   `latticeMinimumWindow`, and since a tick so delivered happened during the
///   period before its arrival, the grid is placed half a step earlier.
extension ClockFollower {
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func refit() -> ClockFollowerChanges {
        guard ticks.count >= 2 else {
            if state != .holding { state = .acquiring }
            return .nothing
        }
        var changes = ClockFollowerChanges.nothing
        findLattice()
        measureSpread()
        if state == .locked, let line, jumped(from: line.framesPerTick) {
            regime = settings.jumpIntervals + 1
            curvedRegime = regime
            changes.insert(.jumped)
        } else {
            let kept = consistentWindow(curved: false)
            if kept < regime {
                regime = kept
                changes.insert(.narrowed)
            }
            curvedRegime = consistentWindow(curved: true)
        }
        // While holding, the held line stands until the new ticks make a lock.
        if state == .holding && regime < settings.lockTicks { return changes }
        var fitted = TickLine(fitting: ticks, count: min(regime, ticks.count))
        // A ramp: the parabola, when it may be wide enough to know the next tick better.
        if settings.followsRamps && latticeStep == 0 && curvedRegime >= settings.minimumCurvedWindow && curvedRegime <= ticks.count {
            let curve = TickCurve(fitting: ticks, count: curvedRegime)
            if curve.varianceFactor(ticksAfterNewest: 1) < fitted.varianceFactor(ticksAfterNewest: 1) { fitted = curve.tangent }
        }
        line = fitted
        lineSerial = serial
        state = regime >= settings.lockTicks ? .locked : .acquiring
        return changes
    }

    /// The last `jumpIntervals` intervals all more than `jumpRatio` off `period`, one way.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    func jumped(from period: Double) -> Bool {
        guard period > 0, ticks.count > settings.jumpIntervals else { return false }
        var longer = 0, shorter = 0
        for age in 0..<settings.jumpIntervals {
            let interval = Double(ticks.interval(age: age))
            if interval > period * settings.jumpRatio { longer += 1 }
            if interval * settings.jumpRatio < period { shorter += 1 }
        }
        return longer == settings.jumpIntervals || shorter == settings.jumpIntervals
    }

    /// The widest window (the current one, or a ladder step below it) whose
    /// prediction of the next tick agrees with every narrower one's: lines, or
    /// parabolas (`curved`, from `minimumCurvedWindow` ticks).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    func consistentWindow(curved: Bool) -> Int {
        let available = min(curved ? curvedRegime : regime, ticks.count)
        let floor = curved ? settings.minimumCurvedWindow : (latticeStep > 0 ? settings.latticeMinimumWindow : 0)
        var lower = -Double.infinity, upper = Double.infinity
        var kept = 0
        let ladder = settings.windowLadder
        for index in 0...6 {
            let width: Int
            switch index {
            case 0: width = ladder.0
            case 1: width = ladder.1
            case 2: width = ladder.2
            case 3: width = ladder.3
            case 4: width = ladder.4
            case 5: width = ladder.5
            default: width = available
            }
            guard width >= 2, width >= floor, width <= available, index == 6 || width < available else { continue }
            let predicted: Double, variance: Double
            if curved {
                let fit = TickCurve(fitting: ticks, count: width)
                (predicted, variance) = (fit.frame(ticksAfterNewest: 1), fit.varianceFactor(ticksAfterNewest: 1))
            } else {
                let fit = TickLine(fitting: ticks, count: width)
                (predicted, variance) = (fit.frame(ticksAfterNewest: 1), fit.varianceFactor(ticksAfterNewest: 1))
            }
            let margin = settings.confidence * arrivalSpread * ClockMath.squareRoot(variance)
            lower = max(lower, predicted - margin)
            upper = min(upper, predicted + margin)
            if lower > upper { return kept > 0 ? kept : width }
            kept = width
        }
        return kept > 0 ? kept : available
    }

    /// The arrival spread from the second differences of the last 64 ticks.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func measureSpread() {
        let terms = min(ticks.count - 2, 64)
        var spread = settings.minimumSpread
        if terms >= 1 {
            var sum = 0.0
            for age in 0..<terms {
                let second = ticks.interval(age: age) - ticks.interval(age: age + 1)
                sum += Double(second < 0 ? -second : second)
            }
            spread = max(spread, sum / Double(terms) / 1.954)
        }
        if latticeStep > 0 { spread = max(spread, Double(latticeStep) / 3.464_101_615_137_754_6) }   // √12
        arrivalSpread = spread
    }

    /// Whether the last `latticeIntervals` intervals are multiples of one step of at
    /// least `minimumLatticeStep` frames, not all equal, and the step under half the
    /// shortest (a steady clock with a lost tick is no lattice).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func findLattice() {
        let intervals = settings.latticeIntervals
        guard ticks.count > intervals else { latticeStep = 0; return }
        var step: Int64 = 0
        var shortest = Int64.max, longest = Int64.min
        for age in 0..<intervals {
            let interval = ticks.interval(age: age)
            guard interval > 0 else { latticeStep = 0; return }
            step = ClockMath.gcd(step, interval)
            shortest = min(shortest, interval)
            longest = max(longest, interval)
        }
        let lattice = step >= settings.minimumLatticeStep && shortest != longest && 2 * step <= shortest
        latticeStep = lattice ? step : 0
    }
}
