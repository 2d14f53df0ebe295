#if canImport(Glibc)
import Glibc
#endif

/// Where the control thread reads the time: the monotonic clock in the
/// application, a hand-moved clock in tests, so every timing rule of the
/// pressure controller is tested without sleeping.
public protocol ControlClock {
    func now() -> ControlTime
}

/// CLOCK_MONOTONIC in microseconds: the clock the JACK and ALSA inputs stamp
/// `ControlInputEvent`s with (the JACK side moves jack2's CLOCK_MONOTONIC_RAW
/// cycle times onto it, `RealtimeJack.cycleTimes`).
public struct MonotonicClock: ControlClock, Sendable {
    public init() {}

    public func now() -> ControlTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return ControlTime(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }
}

/// Virtual time for tests: stands still until the test moves it.
public final class VirtualClock: ControlClock, @unchecked Sendable {
    public var time: ControlTime

    public init(_ time: ControlTime = .zero) { self.time = time }

    public func now() -> ControlTime { time }
}
