import TactusCore

/// The supervisor keeps its own deadlines (the next retry, a connection
/// snapshot) on Swift's `ContinuousClock`; the control thread sleeps on
/// CLOCK_MONOTONIC (`ControlWakeup`). One conversion between them.
extension ContinuousClock.Instant {
    /// This instant on the control thread's clock, as the time left from `now`
    /// (an instant already past is due at once).
    func controlTime(from now: ContinuousClock.Instant) -> ControlTime {
        let left = max(.zero, self - now).components
        return MonotonicClock().now() + left.seconds * 1_000_000 + left.attoseconds / 1_000_000_000_000
    }

    /// The earlier of two deadlines, either of which may be absent.
    static func earliest(_ a: Self?, _ b: Self?) -> Self? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
