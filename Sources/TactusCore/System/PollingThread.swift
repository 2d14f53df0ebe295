import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A reader thread that sleeps in `poll` on its own descriptor and on a stop
/// pipe (the key reader, the OSC server): `stop()` writes a byte to the pipe,
/// so the thread wakes at once without a timeout to notice it, and joins it.
/// Without the pipe (`pipe()` failed, `stopDescriptor` is -1) the body must poll
/// with a timeout and look at `stopRequested`.
public final class PollingThread: @unchecked Sendable {
    /// Poll this for `POLLIN` beside your own descriptor; -1 when there is none.
    public var stopDescriptor: Int32 { stopPipe[0] }
    private var stopPipe: [Int32] = [-1, -1]
    private let stopFlag = Atomic<Bool>(false)
    private var thread: pthread_t?

    public init() {
        if pipe(&stopPipe) != 0 { stopPipe = [-1, -1] }
    }

    deinit {
        stop()
        for fd in stopPipe where fd >= 0 { close(fd) }
    }

    /// Whether `stop()` was called.
    public var stopRequested: Bool { stopFlag.load(ordering: .acquiring) }

    /// Runs `body` on a new thread (with `ThreadStack`'s stack), once.
    public func start(_ body: @escaping @Sendable () -> Void) {
        guard thread == nil else { return }
        final class Box: @unchecked Sendable { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body))
        var handle = pthread_t()
        var attributes = ThreadStack.attributes()
        let started = pthread_create(&handle, &attributes, { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
        if started == 0 { thread = handle } else { box.release() }
    }

    /// Asks the body to return, wakes it, and joins the thread.
    public func stop() {
        guard let thread else { return }
        stopFlag.store(true, ordering: .releasing)
        var byte: UInt8 = 0
        if stopPipe[1] >= 0 { _ = write(stopPipe[1], &byte, 1) }
        pthread_join(thread, nil)
        self.thread = nil
    }
}
