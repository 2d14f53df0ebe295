import Synchronization
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads the computer keyboard on a thread of its own and hands the keys to
/// the control thread, as the JACK and ALSA inputs hand over MIDI: each key
/// stamped on the monotonic clock when its bytes arrived (so tap tempo measures
/// the player, not the control thread's polling), through a lock-free ring.
///
/// An Escape byte with nothing after it for 50 ms is the Escape key, not the
/// start of an arrow key's sequence: the decoder is flushed. Otherwise the
/// thread sleeps in `poll` until a key or `stop()` (a byte on a pipe of its
/// own) arrives: no wake-ups while nobody types. After each read it posts the
/// control thread's `ControlWakeup`.
public final class KeyReader: @unchecked Sendable {
    /// The ring the control thread drains (`drain()`).
    public let keys: UnsafeMutablePointer<SPSCRing<TimedKeyAction>>
    private let input: Int32
    private let wakeup: ControlWakeup?
    /// The reading thread; `stop()` wakes it through its pipe.
    private let thread = PollingThread()

    public init(input: Int32 = STDIN_FILENO, capacity: Int = 256, wakeup: ControlWakeup? = nil) {
        self.input = input
        self.wakeup = wakeup
        keys = .allocate(capacity: 1)
        keys.initialize(to: SPSCRing(capacity: capacity))
    }

    deinit {
        stop()
        keys.deinitialize(count: 1)
        keys.deallocate()
    }

    /// Starts the reading thread.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Stops and joins the thread.
    public func stop() {
        thread.stop()
    }

    /// Control thread: the keys that arrived since the last call, oldest first.
    public func drain() -> [TimedKeyAction] {
        var out: [TimedKeyAction] = []
        while let key = keys.pointee.pop() { out.append(key) }
        return out
    }

    private func run() {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 64)
        let clock = MonotonicClock()
        // Without the pipe (pipe() failed), a 50 ms poll notices `stop()`.
        let stop = thread.stopDescriptor
        let idleTimeout: Int32 = stop >= 0 ? -1 : 50
        while !thread.stopRequested {
            var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, stop >= 0 ? 2 : 1, decoder.isInsideSequence ? 50 : idleTimeout)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                if decoder.isInsideSequence { decoder.flush() }
                continue
            }
            let descriptor = descriptors[0]
            if ready < 0 || descriptor.revents & Int16(POLLIN) == 0 {
                // Hung up or an error: no more keys (the display goes on).
                if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { return }
            let now = clock.now().microseconds
            for action in decoder.decode(buffer[0..<count]) {
                keys.pointee.push(TimedKeyAction(action, microseconds: now))
            }
            wakeup?.post()
        }
    }
}
