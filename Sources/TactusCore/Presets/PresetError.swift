/// One thing wrong in a preset file: where (the field path, as the musician
/// would write it: `pressure.strongThreshold`), what, and what is allowed there.
public struct PresetIssue: Hashable, Sendable, CustomStringConvertible {
    /// Dotted path of the field; empty for the file as a whole (syntax, size).
    public var path: String
    public var problem: String
    /// What the field accepts, in words; nil when the problem says it all.
    public var allowed: String?

    public init(path: String, problem: String, allowed: String? = nil) {
        self.path = path
        self.problem = problem
        self.allowed = allowed
    }

    /// `pressure.strongThreshold: 1.5 is out of range; allowed: a number from 0 to 1`
    public var description: String { (path.isEmpty ? "" : path + ": ") + explanation }

    /// The problem and what is allowed, without the path (for a reader that
    /// names the field its own way, as `controller.json`'s does).
    public var explanation: String { problem + (allowed.map { "; allowed: " + $0 } ?? "") }
}

/// Why a preset file (or a set list) was refused: the file and every issue found.
/// Each issue is one message line naming the file, so a musician sees all the
/// mistakes of a file at once instead of fixing them one run at a time.
public struct PresetError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var issues: [PresetIssue]

    public init(file: String, issues: [PresetIssue]) {
        self.file = file
        self.issues = issues
    }

    public init(file: String, path: String = "", problem: String, allowed: String? = nil) {
        self.init(file: file, issues: [PresetIssue(path: path, problem: problem, allowed: allowed)])
    }

    /// One line per issue: `Presets/fast.json: tempo: 1200 is out of range; allowed: …`
    public var messages: [String] { issues.map { "\(file): \($0)" } }

    public var description: String { messages.joined(separator: "\n") }
}
