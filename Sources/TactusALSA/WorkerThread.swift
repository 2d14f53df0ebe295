import CALSAShims
import TactusCore
import Glibc

/// A named POSIX thread that can be joined: the ALSA clock and input threads run
/// at normal priority (they hand work to the kernel ahead of time, so they need no
/// real-time scheduling) and must be finished before their sequencer is closed.
final class WorkerThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) { self.name = name; self.run = run }
    }

    private var thread = pthread_t()
    private var joined = false

    /// Starts `run` on a new thread named `name` (at most 15 bytes show in `top -H`).
    init(name: String, run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(name: name, run: run)).toOpaque()
        var attributes = ThreadStack.attributes()
        let result = pthread_create(&thread, &attributes, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            _ = tactus_set_thread_name(body.name)
            body.run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to return. Call once.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}
