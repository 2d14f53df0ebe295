#if canImport(Glibc)
import Glibc
#endif

/// The stack of the threads Tactus starts (control-side helpers: the signal
/// watcher, the key reader, the ALSA clock and input threads, the standard-error
/// reader).
///
/// glibc gives a new thread a stack of RLIMIT_STACK (8 MB on most systems), and
/// the JACK client's `mlockall(MCL_CURRENT | MCL_FUTURE)` makes every page of a
/// mapping made after it resident: one default thread started after activation
/// costs 8 MB of locked memory. These threads need a few kilobytes; 256 kB
/// leaves ample room.
public enum ThreadStack {
    public static let bytes = 256 * 1024

    /// Thread attributes with that stack size, for `pthread_create`.
    public static func attributes() -> pthread_attr_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, bytes)
        return attributes
    }
}
