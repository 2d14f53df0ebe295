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
/// start of an arrow key's sequence: the decoder is flushed.
public final class KeyReader: @unchecked Sendable {
    /// The ring the control thread drains (`drain()`).
    public let keys: UnsafeMutablePointer<SPSCRing<TimedKeyAction>>
    private let input: Int32
    private let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?

    public init(input: Int32 = STDIN_FILENO, capacity: Int = 256) {
        self.input = input
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
        guard thread == nil else { return }
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { argument in
            let reader = Unmanaged<KeyReader>.fromOpaque(argument!).takeRetainedValue()
            reader.run()
            return nil
        }, box.toOpaque())
        if started == 0 { thread = handle } else { box.release() }
    }

    /// Stops and joins the thread (it notices within 50 ms).
    public func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        pthread_join(thread, nil)
        self.thread = nil
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
        while !stopRequested.load(ordering: .acquiring) {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                if decoder.isInsideSequence { decoder.flush() }
                continue
            }
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
        }
    }
}
