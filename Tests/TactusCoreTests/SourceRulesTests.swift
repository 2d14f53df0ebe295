import Foundation
import Testing

/// Rules about the source text itself, read from the package's files.
///
/// Comments cite what a reader of the repository can open: a section of
/// `docs/DESIGN.md` or the README, never the product specification, the seed
/// articles or "the source app", which are not in the repository. And the parts
/// of the core that the engine is made of do no I/O (docs/DESIGN.md §1.2).
@Suite struct SourceRulesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Package-relative paths of the source files under `folder`, sorted.
    static func files(under folder: String, extensions: Set<String> = ["swift", "c", "h"]) -> [String] {
        let base = root.appendingPathComponent(folder).path
        let found = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
        return found.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }
            .map { "\(folder)/\($0)" }.sorted()
    }

    static func lines(of path: String) -> [Substring] {
        let text = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The comment part of a line: what follows its first `//`.
    static func comment(_ line: Substring) -> Substring? {
        guard let start = line.range(of: "//") else { return nil }
        return line[start.upperBound...]
    }

    static var bareCitation: Regex<AnyRegexOutput> { try! Regex(#"\bSPEC\b|(?i:\bseeds?(\s+0*\d+|/))|(?i:source app)|\(source[:\s`]"#) }
    static var citationOfRepository: Regex<AnyRegexOutput> { try! Regex(#"DESIGN\.md §\d|README"#) }

    /// `file:line: text` of every comment line citing a document outside the
    /// repository without a DESIGN.md section or the README beside it.
    static func bareCitations(in path: String) -> [String] {
        lines(of: path).enumerated().compactMap { index, line in
            guard let comment = comment(line), comment.contains(bareCitation), !comment.contains(citationOfRepository) else { return nil }
            return "\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))"
        }
    }

    @Test func noCommentCitesADocumentOutsideTheRepository() throws {
        let checked = Self.files(under: "Sources")
        try #require(checked.count > 100, "found only \(checked.count) source files under \(Self.root.path)")
        let offenders = checked.flatMap(Self.bareCitations)
        #expect(offenders.isEmpty, "cite docs/DESIGN.md §N or the README instead:\n\(offenders.joined(separator: "\n"))")
    }

    /// Headings of DESIGN.md: `## §5 Pressure control`, `### §5.4 The hold delay …`.
    static func designSections() -> Set<String> {
        let heading = try! Regex(#"^#{2,} §(\d+(?:\.\d+)*) "#)
        return Set(lines(of: "docs/DESIGN.md").compactMap { line in
            (try? heading.firstMatch(in: line))?.output[1].substring.map(String.init)
        })
    }

    @Test func everyCitedSectionOfTheDesignExists() throws {
        let sections = Self.designSections()
        try #require(sections.contains("5.4") && sections.count > 40, "\(sections.sorted())")
        let citation = try Regex(#"DESIGN\.md §(\d+(?:\.\d+)*)"#)
        var missing: [String] = []
        for path in Self.files(under: "Sources") + Self.files(under: "Tests") + ["README.md"] {
            for (index, line) in Self.lines(of: path).enumerated() {
                for match in line.matches(of: citation) {
                    let section = match.output[1].substring.map(String.init) ?? ""
                    if !sections.contains(section) { missing.append("\(path):\(index + 1): §\(section)") }
                }
            }
        }
        #expect(missing.isEmpty, "no such section in docs/DESIGN.md:\n\(missing.joined(separator: "\n"))")
    }

    /// The design document is read without anything outside the repository.
    @Test func theDesignStandsOnItsOwn() {
        let text = Self.lines(of: "docs/DESIGN.md").joined(separator: "\n")
        #expect(!text.isEmpty)
        for outside in ["../shared", "SPEC", "seeds/", "seed 0"] {
            #expect(!text.contains(outside), "docs/DESIGN.md mentions \(outside)")
        }
    }

    /// Each C library has its own shim target, and each layer imports only its own
    /// (docs/DESIGN.md §1.1): the ALSA client never sees a JACK header, the JACK
    /// client never an ALSA one, and the command line calls neither library.
    @Test func eachLayerImportsOnlyItsOwnCLibrary() throws {
        let forbidden: [(folder: String, modules: [String])] = [
            ("Sources/TactusALSA", ["CJack", "CJackShims"]),
            ("Sources/TactusJACK", ["CALSA", "CALSAShims"]),
            ("Sources/TactusCLI", ["CJack", "CJackShims", "CALSA", "CALSAShims"]),
            ("Sources/TactusCore", ["CJack", "CJackShims", "CALSA", "CALSAShims"]),
        ]
        var offenders: [String] = []
        for (folder, modules) in forbidden {
            let files = Self.files(under: folder, extensions: ["swift"])
            try #require(!files.isEmpty, "\(folder)")
            for path in files {
                for (index, line) in Self.lines(of: path).enumerated() where modules.contains(where: { line == "import \($0)" }) {
                    offenders.append("\(path):\(index + 1): \(line)")
                }
            }
        }
        // Code, not comments, of the command line: no libjack call.
        for path in Self.files(under: "Sources/TactusCLI", extensions: ["swift"]) {
            for (index, line) in Self.lines(of: path).enumerated() {
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
                if code.contains("jack_") { offenders.append("\(path):\(index + 1): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// Only `System/` and `Presets/` (through `System/`) touch files or the
    /// environment; the engine's parts and the controller do no I/O.
    @Test func theEnginesPartsDoNoFileIO() throws {
        let io = try Regex(#"\bFileSystem\b|\bProcessEnvironment\b|\bfopen\b|\bgetenv\b|import Foundation"#)
        let parts = ["Realtime", "Grid", "Clock", "ClockIn", "Sound", "MIDI", "Control"].flatMap { Self.files(under: "Sources/TactusCore/\($0)") }
        try #require(parts.count > 30)
        let offenders = parts.flatMap { path in
            Self.lines(of: path).enumerated().filter { $0.element.contains(io) }.map { "\(path):\($0.offset + 1)" }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
