#if canImport(Glibc)
import Glibc
#endif

/// Why a file cannot be written, in a musician's words, before a library's
/// (libsndfile says "System error" or nothing about the folder): a message
/// names what to fix first.
enum WritableCheck {
    /// The reason `path` cannot be created or replaced; nil when nothing we can
    /// see stands in the way (the library's own text is all there is then).
    static func reason(_ path: String) -> String? {
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return "it is a folder" }
            if access(path, W_OK) != 0 { return "the file is read-only" }
            return nil
        }
        guard stat(folder, &info) == 0 else { return "the folder \(folder) does not exist" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        if access(folder, W_OK) != 0 { return "the folder \(folder) is not writable" }
        return nil
    }

    /// `tactus: cannot write 'PATH': REASON (LIBRARY: TEXT)`: ours first, the library's after.
    static func message(_ path: String, library: String, _ text: String) -> String {
        "tactus: cannot write '\(path)': \(reason(path) ?? "the system refused it") (\(library): \(text))"
    }
}
