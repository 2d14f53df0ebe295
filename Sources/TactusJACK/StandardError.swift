#if canImport(Glibc)
import Glibc
#endif

/// Messages for the musician go to standard error, one `write` per line so
/// lines from different threads never interleave.
public enum StandardError {
    public static func line(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
