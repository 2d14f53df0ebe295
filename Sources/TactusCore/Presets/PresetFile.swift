#if canImport(Glibc)
import Glibc
#endif

/// Reading preset and set list files from disk. Never on the real-time thread:
/// the control thread or the command line reads, then hands a decoded `Preset` on.
public enum PresetFile {
    /// Reads and decodes the preset at `path`, and checks that its WAV samples exist.
    public static func load(path: String, home: String? = homeDirectory) throws(PresetError) -> Preset {
        let (preset, issues) = try inspect(path: path, home: home)
        guard issues.isEmpty else { throw PresetError(file: path, issues: issues) }
        return preset
    }

    /// The preset at `path` as far as it reads, with every problem of its fields
    /// and every sample file that cannot be read, together (`tactus presets check`
    /// shows them at once). A file that cannot be read or is not JSON throws.
    public static func inspect(path: String, home: String? = homeDirectory) throws(PresetError) -> (preset: Preset, issues: [PresetIssue]) {
        let bytes = try read(path: path, limit: Preset.maximumFileSize)
        let (preset, fieldIssues) = try Preset.read(bytes, file: path)
        var issues = fieldIssues
        // A sample field in error stays built in, so only files the preset names cleanly are looked for.
        let files = preset.sampleFiles(presetFile: path, home: home)
        for (key, sound) in sampleKeys {
            guard let file = files[sound] else { continue }
            if access(file, R_OK) != 0 {
                issues.append(PresetIssue(path: "sounds." + key, problem: "cannot read \(file): \(String(cString: strerror(errno)))",
                                          allowed: FieldFormat<SampleChoice>.sample.allowed))
            }
        }
        return (preset, issues)
    }

    /// The path of each sample key in the file, for messages.
    public static let sampleKeys: [(String, ClickSound)] = [
        ("accent.sample", .accent), ("beat.sample", .beat), ("subdivision.sample", .subdivision),
        ("feedback.impact", .impact), ("feedback.selection", .selection), ("feedback.maximum", .maximum), ("feedback.commit", .commit),
    ]

    public static var homeDirectory: String? { ProcessEnvironment.value("HOME") }

    /// The bytes of the regular file at `path`, at most `limit` of them: a larger
    /// file, a directory, a device or an unreadable file is refused with one message.
    public static func read(path: String, limit: Int) throws(PresetError) -> [UInt8] {
        do {
            return try FileSystem.read(path, limit: limit)
        } catch {
            switch error.problem {
            case .system(ENOENT):
                throw PresetError(file: path, problem: error.reason, allowed: "a readable file")
            case .system:
                throw PresetError(file: path, problem: "cannot be read: " + error.reason, allowed: "a readable file")
            case .isDirectory:
                throw PresetError(file: path, problem: error.reason, allowed: "a preset file (JSON), not a folder")
            case .notRegularFile:
                throw PresetError(file: path, problem: error.reason, allowed: "a preset file (JSON)")
            case .tooLarge:
                throw PresetError(file: path, problem: error.reason, allowed: "a file of at most \(FileError.size(limit))")
            }
        }
    }
}
