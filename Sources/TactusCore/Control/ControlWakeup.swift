#if canImport(Glibc)
import Glibc
#endif

/// What the control thread sleeps on between rounds: one POSIX semaphore that
/// every source of work posts, waited on with an absolute CLOCK_MONOTONIC
/// deadline (the earliest time a round has work of its own: a pressure step,
/// a redraw, a server retry).
///
/// Who posts: the JACK process callback, once in a cycle that received control
/// input (and only then); the ALSA input thread and the terminal key reader
/// after each batch they hand over; JACK's notification callbacks (server gone,
/// sample rate, period, xrun, graph change); the thread that waits for SIGINT
/// and SIGTERM. `sem_post` is async-signal-safe (POSIX), takes no lock and
/// makes a system call only when a thread is waiting (glibc: a futex wake when
/// the waiter count is non-zero), the pattern of LV2's worker and Ardour's
/// butler. The real-time probe (Tests/RTProbe) counts the callback's posts.
///
/// Posts coalesce: after a wake-up the count is drained, so a thousand MIDI
/// events while the thread was busy cost one more round, not a thousand.
public final class ControlWakeup: @unchecked Sendable {
    /// The semaphore at a fixed address: the real-time thread posts it through
    /// this pointer, holding no reference to the object.
    public let semaphore: UnsafeMutablePointer<sem_t>

    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes the control thread (or makes its next wait return at once). Any thread.
    public func post() {
        sem_post(semaphore)
    }

    /// Sleeps until a post or `deadline` on CLOCK_MONOTONIC (nil: until a post).
    /// Control thread only (the one waiter).
    public func wait(until deadline: ControlTime?) {
        if let deadline {
            var spec = timespec(tv_sec: Int(deadline.microseconds / 1_000_000),
                                tv_nsec: Int(deadline.microseconds % 1_000_000) * 1_000)
            while Self.clockWait(semaphore, CLOCK_MONOTONIC, &spec) != 0 && errno == EINTR {}
        } else {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
        }
        while sem_trywait(semaphore) == 0 {}
    }

    private typealias ClockWait = @convention(c) (UnsafeMutablePointer<sem_t>, clockid_t, UnsafePointer<timespec>?) -> Int32

    /// `sem_clockwait` (glibc 2.30) waits on CLOCK_MONOTONIC, which no wall-clock
    /// step moves; glibc declares it only under _GNU_SOURCE, out of Swift's
    /// sight, so it is looked up once by name. Without it, `sem_timedwait` on
    /// CLOCK_REALTIME (POSIX) with the deadline translated at the call.
    private static let clockWait: ClockWait = {
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "sem_clockwait") {
            return unsafeBitCast(symbol, to: ClockWait.self)
        }
        return { semaphore, _, monotonic in
            guard let monotonic else { return sem_wait(semaphore) }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            var wall = timespec()
            clock_gettime(CLOCK_REALTIME, &wall)
            let left = max(0, (monotonic.pointee.tv_sec - now.tv_sec) * 1_000_000_000 + (monotonic.pointee.tv_nsec - now.tv_nsec))
            let total = wall.tv_nsec + left % 1_000_000_000
            var spec = timespec(tv_sec: wall.tv_sec + left / 1_000_000_000 + total / 1_000_000_000, tv_nsec: total % 1_000_000_000)
            return sem_timedwait(semaphore, &spec)
        }
    }()
}
