import Foundation
import Testing
@testable import TactusCore

/// `Presets/README.md` documents the schema; these tests keep it from drifting
/// when a key or a default changes (the pressure defaults belong to another part).
@Suite("Preset documentation")
struct PresetDocumentationTests {
    /// (path, default column) of every schema table row: "| `path` | type | default | meaning |".
    func documentedRows() throws -> [(path: String, defaultValue: String)] {
        let text = try String(contentsOfFile: shippedPresetsFolder + "/README.md", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"), !cells[1].hasSuffix(".json`") else { return nil }
            return (String(cells[1].dropFirst().dropLast()), cells[3])
        }
    }

    /// Every leaf of the default preset's JSON, by dotted path.
    func leaves(_ value: JSONValue, _ path: String = "") -> [String: JSONValue] {
        guard case .object(let members) = value else { return [path: value] }
        var result: [String: JSONValue] = [:]
        for m in members { result.merge(leaves(m.value, path.isEmpty ? m.key : path + "." + m.key)) { a, _ in a } }
        return result
    }

    @Test func everyKeyIsDocumentedAndNothingElse() throws {
        let defaults = leaves(Preset(name: "D", tempo: BPM(120)).json)
        let documented = Set(try documentedRows().map(\.path)).subtracting(["program", "swing", "pulse", "sounds", "clock", "pressure", "actions", "transport", "sync", "clockIn"])
        #expect(documented == Set(defaults.keys))
    }

    @Test func everyDocumentedDefaultIsTheDefault() throws {
        let defaults = leaves(Preset(name: "D", tempo: BPM(120)).json)
        var compared = 0
        for row in try documentedRows() where row.defaultValue.hasPrefix("`") && row.defaultValue.hasSuffix("`") {
            let literal = String(row.defaultValue.dropFirst().dropLast())
            #expect(try JSONReader.parse(Array(literal.utf8)) == defaults[row.path], "\(row.path)")
            compared += 1
        }
        #expect(compared == defaults.count - 3) // all but name, tempo (required) and accents (depends on the meter)
    }

    @Test func theExampleIsAValidPreset() throws {
        let text = try String(contentsOfFile: shippedPresetsFolder + "/README.md", encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let preset = try decode(String(text[start.upperBound..<end.lowerBound]), file: "README example")
        #expect(preset.bar.accents.description == "XxXxXxx")
        #expect(preset.program == UInt7(12))
    }
}
