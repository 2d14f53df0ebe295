#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, taken synchronously: blocked in every thread (so no
/// handler runs at an arbitrary point, and JACK's threads, which inherit the
/// mask, never see them) and collected by the supervisor with `sigtimedwait`,
/// which doubles as its tick.
public enum TerminationSignals {
    private static func set() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks SIGINT and SIGTERM in the calling thread and the threads it starts
    /// afterwards. Call on the main thread before any other thread exists.
    public static func block() {
        var signals = set()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits up to `milliseconds` for SIGINT or SIGTERM; the signal number, or nil.
    public static func wait(milliseconds: Int) -> Int32? {
        var signals = set()
        var timeout = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        let received = sigtimedwait(&signals, nil, &timeout)
        return received > 0 ? received : nil
    }
}
