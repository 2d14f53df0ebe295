#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_REALTIME` for log timestamps (the control timeline uses the monotonic clock).
public enum WallClock {
    public static func microsecondsSinceEpoch() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}

/// Whole lines to standard output, unbuffered: a log reader sees each at once.
public enum StandardOutput {
    public static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }
}
