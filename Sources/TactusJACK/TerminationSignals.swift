#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TactusCore

/// SIGINT and SIGTERM, taken synchronously: blocked in every thread (so no
/// handler runs at an arbitrary point, and JACK's threads, which inherit the
/// mask, never see them) and collected by a thread of their own (`Watcher`,
/// `sigwait`) that wakes the control thread, or by a tool's loop with `wait`.
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

    /// A thread that waits for SIGINT or SIGTERM, notes it and posts `wakeup`,
    /// then ends: the control thread sleeps on its `ControlWakeup` and finds the
    /// signal in its next round. Start it after `block()` (the signals must be
    /// blocked in every thread for `sigwait` to take them).
    public final class Watcher: @unchecked Sendable {
        private let signal = Atomic<Int32>(0)
        private let wakeup: ControlWakeup
        private var thread: pthread_t?

        public init(wakeup: ControlWakeup) {
            self.wakeup = wakeup
            let box = Unmanaged.passRetained(self)
            var handle = pthread_t()
            var attributes = ThreadStack.attributes()
            let started = pthread_create(&handle, &attributes, { argument in
                let watcher = Unmanaged<Watcher>.fromOpaque(argument!).takeRetainedValue()
                var signals = TerminationSignals.set()
                var received: Int32 = 0
                while sigwait(&signals, &received) != 0 {}
                watcher.signal.store(received, ordering: .releasing)
                watcher.wakeup.post()
                return nil
            }, box.toOpaque())
            if started == 0 { thread = handle } else { box.release() }
        }

        /// SIGINT or SIGTERM once one came; nil before.
        public var received: Int32? {
            let s = signal.load(ordering: .acquiring)
            return s == 0 ? nil : s
        }

        /// Joins the thread, which has ended once `received` is set. Without a
        /// signal yet the thread is left waiting (detached): the process is ending.
        public func finish() {
            guard let thread else { return }
            if received != nil { pthread_join(thread, nil) } else { pthread_detach(thread) }
            self.thread = nil
        }
    }
}
