import Glibc
import Synchronization
import TactusCore

/// Whether the machine itself kept real time: a thread at SCHED_FIFO that wakes every
/// 2 ms (an absolute clock_nanosleep) and notes each wake-up more than `threshold` µs
/// late. Under an emulated CPU on a loaded host the VM's CPUs wait for a host core
/// without any xrun on a 43 ms JACK period, and every timer in the guest (the
/// sequencer's queue that delivers and stamps the clock) fires that late too: a test
/// judges timing only away from these stalls.
final class MachineStallWatch: @unchecked Sendable {
    struct Stall { var at: Int64; var lateMicroseconds: Int64 }

    let threshold: Int64
    private let running = Atomic<Bool>(true)
    private let stalls = Mutex<[Stall]>([])
    private var thread = pthread_t()

    init(threshold: Int64 = 1_000) {
        self.threshold = threshold
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { arg in
            let watch = Unmanaged<MachineStallWatch>.fromOpaque(arg!).takeRetainedValue()
            var parameter = sched_param(sched_priority: 80)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter)
            watch.watch()
            return nil
        }, box)
    }

    private func watch() {
        var next = MonotonicClock.microseconds()
        while running.load(ordering: .relaxed) {
            next += 2_000
            MonotonicClock.sleep(until: next)
            let now = MonotonicClock.microseconds()
            if now - next > threshold { stalls.withLock { $0.append(Stall(at: next, lateMicroseconds: now - next)) } }
            if now > next + 2_000 { next = now }
        }
    }

    /// Stops the thread; the stalls seen (CLOCK_MONOTONIC µs of the wake-up due, and how late).
    func stop() -> [Stall] {
        running.store(false, ordering: .relaxed)
        pthread_join(thread, nil)
        return stalls.withLock { $0 }
    }
}
