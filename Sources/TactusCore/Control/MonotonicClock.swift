#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in microseconds, the one clock of every thread but the
/// real-time one: it is the time base of JACK's cycle times (jack2's
/// `jack_get_time` reads CLOCK_MONOTONIC on Linux), so `FrameClockReference`
/// points, the stamps on controller input from JACK and from ALSA, the ALSA
/// queue calibration and the control thread's deadlines all compare directly.
/// The sleeps block: never on the real-time thread.
public struct MonotonicClock: ControlClock, Sendable {
    public init() {}

    public func now() -> ControlTime { ControlTime(microseconds: Self.microseconds()) }

    public static func microseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

    /// Sleeps until the clock reads `microseconds` (absolute, so a late wake-up
    /// does not push the next one later).
    public static func sleep(until microseconds: Int64) {
        var spec = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    public static func sleep(microseconds: Int64) {
        sleep(until: self.microseconds() + microseconds)
    }
}
