import Synchronization
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// While the live display owns the screen, a line written to standard error
/// (libjack's own messages, the JACK and ALSA clients' notes) would land in the
/// middle of it and stay there. So standard error goes into a pipe for that
/// time: each line becomes the display's message, and after the screen is
/// left they are all written to the real standard error, in order, so nothing
/// said during the session is lost.
public final class StandardErrorCapture: @unchecked Sendable {
    private let savedError: Int32
    private let readEnd: Int32
    private let lines = Mutex<[String]>([])
    private let fresh = Mutex<[String]>([])
    private var thread: pthread_t?
    private var finished = false
    private let stopRequested = Atomic<Bool>(false)
    /// At most this many lines are kept for the replay (the newest).
    static let kept = 500

    /// Nil when the pipe cannot be made (standard error stays as it is).
    public init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(ends[1], STDERR_FILENO) >= 0 else {
            close(ends[0]); close(ends[1])
            if saved >= 0 { close(saved) }
            return nil
        }
        close(ends[1])
        savedError = saved
        readEnd = ends[0]
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        var attributes = ThreadStack.attributes()
        if pthread_create(&handle, &attributes, { argument in
            let capture = Unmanaged<StandardErrorCapture>.fromOpaque(argument!).takeRetainedValue()
            capture.run()
            return nil
        }, box.toOpaque()) == 0 {
            thread = handle
        } else {
            box.release()
        }
    }

    deinit { finish() }

    /// Lines written since the last call (control thread).
    public func take() -> [String] {
        fresh.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    /// Puts standard error back, waits for the pipe to drain, and writes every
    /// captured line to it.
    public func finish() {
        guard !finished else { return }
        finished = true
        dup2(savedError, STDERR_FILENO)
        close(savedError)
        // The reader takes what is still in the pipe, then ends (it does not
        // wait for end of file: a child may still hold the write end).
        stopRequested.store(true, ordering: .releasing)
        if let thread { pthread_join(thread, nil) }
        close(readEnd)
        let all = lines.withLock { $0 }
        for line in all { printError(line) }
    }

    private func run() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let stopping = stopRequested.load(ordering: .acquiring)
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, stopping ? 0 : 100)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { if stopping { break } else { continue } }
            if ready < 0 { break }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                add(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { add(String(decoding: pending, as: UTF8.self)) }
    }

    private func add(_ line: String) {
        lines.withLock { all in
            all.append(line)
            if all.count > StandardErrorCapture.kept { all.removeFirst(all.count - StandardErrorCapture.kept) }
        }
        fresh.withLock { $0.append(line) }
    }
}
