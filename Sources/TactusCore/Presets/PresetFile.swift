#if canImport(Glibc)
import Glibc
#endif

/// Reading preset and set list files from disk. Never on the real-time thread:
/// the control thread or the command line reads, then hands a decoded `Preset` on.
public enum PresetFile {
    /// Reads and decodes the preset at `path`, and checks that its WAV samples exist.
    public static func load(path: String, home: String? = homeDirectory) throws(PresetError) -> Preset {
        let bytes = try read(path: path, limit: Preset.maximumFileSize)
        let preset = try Preset.decode(bytes, file: path)
        var issues: [PresetIssue] = []
        for (key, sound) in sampleKeys {
            guard let file = preset.sounds[sound].path(presetFile: path, home: home) else { continue }
            if access(file, R_OK) != 0 {
                issues.append(PresetIssue(path: "sounds." + key, problem: "cannot read \(file): \(String(cString: strerror(errno)))",
                                          allowed: FieldFormat<SampleChoice>.sample.allowed))
            }
        }
        guard issues.isEmpty else { throw PresetError(file: path, issues: issues) }
        return preset
    }

    /// The path of each sample key in the file, for messages.
    static let sampleKeys: [(String, ClickSound)] = [
        ("accent.sample", .accent), ("beat.sample", .beat), ("subdivision.sample", .subdivision),
        ("feedback.impact", .impact), ("feedback.selection", .selection), ("feedback.maximum", .maximum), ("feedback.commit", .commit),
    ]

    public static var homeDirectory: String? { getenv("HOME").map { String(cString: $0) } }

    /// The bytes of the regular file at `path`, at most `limit` of them: a larger
    /// file, a directory, a device or an unreadable file is refused with one message.
    public static func read(path: String, limit: Int) throws(PresetError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw PresetError(file: path, problem: reason(errno), allowed: "a readable file") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PresetError(file: path, problem: reason(errno), allowed: "a readable file") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw PresetError(file: path, problem: "is a directory", allowed: "a preset file (JSON), not a folder")
        default: throw PresetError(file: path, problem: "is not a regular file", allowed: "a preset file (JSON)")
        }
        guard Int(info.st_size) <= limit else {
            throw PresetError(file: path, problem: "the file has \(info.st_size) bytes, more than \(size(limit))", allowed: "a file of at most \(size(limit))")
        }
        // Read until end of file, one byte past the limit at most: the file may grow after fstat.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit + 1 - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw PresetError(file: path, problem: reason(errno), allowed: "a readable file")
            }
            count += n
        }
        guard count <= limit else { throw PresetError(file: path, problem: "the file has more than \(size(limit))", allowed: "a file of at most \(size(limit))") }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "cannot be read: permission denied"
        default: "cannot be read: " + String(cString: strerror(code))
        }
    }
}
