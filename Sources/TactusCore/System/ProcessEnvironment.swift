#if canImport(Glibc)
import Glibc
#endif

/// The process environment (`environ`, POSIX) as a dictionary: the XDG folders,
/// `HOME`, `TACTUS_PRESETS_DIR`. Read at start-up on the control thread;
/// callers pass the dictionary on, so tests give their own.
public enum ProcessEnvironment {
    /// One variable (`getenv`), nil when unset or empty: for a value read again
    /// and again (the JACK server's name on every redraw), without copying `environ`.
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    public static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { result[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            pointer += 1
        }
        return result
    }
}
