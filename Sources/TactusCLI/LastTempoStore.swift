import Foundation
import TactusCore

/// The last tempo (SPEC §4 rule 7): saved when a pressure hold ends, restored
/// at the next start unless a preset or `--bpm` is given. One line of text,
/// the tempo as `tactus --bpm` takes it ("123" or "97.30"), in
/// `$XDG_STATE_HOME/tactus/last-tempo`.
public struct LastTempoStore: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = UserFiles.lastTempoFile(environment)
    }

    /// The saved tempo; nil when nothing was saved yet. A damaged file throws
    /// one line naming it (the caller says so and starts at the default).
    public func load() throws(OptionError) -> BPM? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw OptionError("tactus: cannot read the last tempo from \(path)")
        }
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(word), let tempo = BPM(exactly: value), (value * 100).rounded() == value * 100 else {
            throw OptionError("tactus: \(path) holds '\(word.prefix(40))', not a tempo from 1 to 999 with two decimals at most; ignoring it")
        }
        return tempo
    }

    /// Writes the tempo (creating the folder), replacing the file atomically.
    public func save(_ tempo: BPM) throws(OptionError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data((tempo.description + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OptionError("tactus: cannot save the last tempo to \(path): \(error.localizedDescription)")
        }
    }
}
