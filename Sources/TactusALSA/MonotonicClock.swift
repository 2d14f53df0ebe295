import Glibc

/// CLOCK_MONOTONIC in microseconds: the time base JACK's cycle times use (jack2
/// reads CLOCK_MONOTONIC on Linux), so `FrameClockReference` points, controller
/// input stamps and the ALSA queue calibration all share one clock.
public enum MonotonicClock {
    public static func microseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// Sleeps until the monotonic clock reads `microseconds` (absolute, so a late
    /// wake-up does not push the next one later).
    public static func sleep(until microseconds: Int64) {
        var ts = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    public static func sleep(microseconds: Int64) {
        sleep(until: self.microseconds() + microseconds)
    }
}
