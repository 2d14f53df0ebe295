#if canImport(Glibc)
import Glibc
#endif

/// Counts the display's redraws into the file named by `TACTUS_REDRAW_COUNT_FILE`
/// (a test reads it twice and divides by the time between): the file always
/// holds the count so far, one decimal number and a newline. Without the
/// variable it counts in memory only.
public final class RedrawCounter {
    public static let environmentVariable = "TACTUS_REDRAW_COUNT_FILE"
    public private(set) var count = 0
    private let descriptor: Int32

    public init(environment: [String: String]) {
        if let path = environment[RedrawCounter.environmentVariable], !path.isEmpty {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        } else {
            descriptor = -1
        }
        publish()
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func redrew() {
        count += 1
        publish()
    }

    /// Rewrites the number in place: pwrite at 0, so a reader never sees a half line.
    private func publish() {
        guard descriptor >= 0 else { return }
        let text = Array("\(count)\n".utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
