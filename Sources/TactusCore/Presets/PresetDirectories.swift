#if canImport(Glibc)
import Glibc
#endif

/// Where presets live: the installation's `Presets/` (shipped with Tactus) and
/// the user's `$XDG_CONFIG_HOME/tactus/presets/` (XDG Base Directory spec:
/// `~/.config` when the variable is unset or empty). The shipped folder is the
/// clone's `Presets/` or `PREFIX/share/tactus/presets` beside the executable,
/// else the first `tactus/presets` of `$XDG_DATA_DIRS` (the spec's default
/// `/usr/local/share:/usr/share`), where the .deb puts them.
public struct PresetDirectories: Hashable, Sendable {
    public var shipped: String?
    public var user: String?

    public init(shipped: String?, user: String?) {
        self.shipped = shipped
        self.user = user
    }

    /// `TACTUS_PRESETS_DIR` overrides the shipped folder (a packager's or a test's choice).
    public static let overrideVariable = "TACTUS_PRESETS_DIR"

    /// The folders for this process, from its environment and the path of its executable.
    public static func standard(environment: [String: String], executablePath: String?,
                                isDirectory: (String) -> Bool = PresetDirectories.isDirectory) -> PresetDirectories {
        var shipped = environment[overrideVariable].flatMap { $0.isEmpty ? nil : $0 }
        if shipped == nil, let executablePath { shipped = installedFolder(executablePath: executablePath, isDirectory: isDirectory) }
        if shipped == nil { shipped = dataFolder(environment: environment, isDirectory: isDirectory) }
        var user: String?
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            user = config + "/tactus/presets"
        } else if let home = environment["HOME"], !home.isEmpty {
            user = home + "/.config/tactus/presets"
        }
        return PresetDirectories(shipped: shipped, user: user)
    }

    /// The shipped presets next to the executable: `PREFIX/share/tactus/presets` for an
    /// installed `PREFIX/bin/tactus`, or `Presets/` of the clone whose `.build/…/tactus` runs.
    static func installedFolder(executablePath: String, isDirectory: (String) -> Bool) -> String? {
        var folder = parent(of: executablePath)
        for _ in 0..<6 {
            guard let current = folder else { return nil }
            for candidate in [current + "/share/tactus/presets", current + "/Presets"] where isDirectory(candidate) {
                return candidate
            }
            folder = parent(of: current)
        }
        return nil
    }

    /// The XDG Base Directory spec's `$XDG_DATA_DIRS`: absolute folders, colon-separated, most
    /// important first; unset or empty means `/usr/local/share:/usr/share`. A relative entry is ignored.
    static func dataFolder(environment: [String: String], isDirectory: (String) -> Bool) -> String? {
        let list = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for base in list.split(separator: ":") where base.hasPrefix("/") {
            let candidate = (base.hasSuffix("/") ? String(base.dropLast()) : String(base)) + "/tactus/presets"
            if isDirectory(candidate) { return candidate }
        }
        return nil
    }

    private static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let parent = String(path[..<slash])
        return parent.isEmpty ? (path == "/" ? nil : "/") : parent
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The running executable (`/proc/self/exe`), for `standard(executablePath:)`.
    public static var currentExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `.json` files of `folder`, sorted by name; hidden files are skipped. Nil if the folder cannot be read.
    public static func presetFiles(in folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), name.lowercased().hasSuffix(".json") { names.append(name) }
        }
        return names.sorted().map { folder + "/" + $0 }
    }
}
