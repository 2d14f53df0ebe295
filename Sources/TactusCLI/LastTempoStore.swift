#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// The last tempo (docs/DESIGN.md §5.7): saved when `LastTempo`'s rule says (a
/// pressure hold's end, a tempo step, a typed tempo or a tap of the player's, once
/// it has stood 2 s, and on the way out), restored at the next start unless a
/// preset or `--bpm` is given. One line of text,
/// the tempo as `tactus --bpm` takes it ("123" or "97.30"), in
/// `$XDG_STATE_HOME/tactus/last-tempo`.
public struct LastTempoStore: Sendable {
    public let path: String

    /// "97.30\n" is six bytes; a file larger than this is not ours.
    static let maximumFileSize = 1 << 10

    public init(path: String) { self.path = path }

    public init(environment: [String: String] = ProcessEnvironment.current) {
        path = UserFiles.lastTempoFile(environment)
    }

    /// The saved tempo; nil when nothing was saved yet. A damaged file throws
    /// one line naming it (the caller says so and starts at the default).
    public func load() throws(OptionError) -> BPM? {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: LastTempoStore.maximumFileSize)
        } catch {
            if error.problem == .system(ENOENT) { return nil }
            throw OptionError("tactus: cannot read the last tempo from \(path): \(error.reason); ignoring it")
        }
        let word = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        guard let value = Double(word), let tempo = BPM(exactly: value), (value * 100).rounded() == value * 100 else {
            throw OptionError("tactus: \(path) holds '\(word.prefix(40))', not a tempo from 1 to 999 with two decimals at most; ignoring it")
        }
        return tempo
    }

    /// Writes the tempo (creating the folder), replacing the file atomically.
    public func save(_ tempo: BPM) throws(OptionError) {
        do {
            try FileSystem.replace(path, with: Array((tempo.description + "\n").utf8))
        } catch {
            throw OptionError("tactus: cannot save the last tempo to \(path): \(error.path == path ? error.reason : error.description)")
        }
    }
}

private extension String {
    /// Without the spaces, tabs and line breaks around it.
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
