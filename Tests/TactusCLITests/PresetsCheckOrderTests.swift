import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus presets check a b c | cat`: the lines in file order, whatever
/// buffers the streams, and every error with the line and column of its value.
@Suite("presets check: file order, line and column")
struct PresetsCheckOrderTests {
    @Test func pipedOutputKeepsFileOrderAndEveryErrorHasItsPlace() throws {
        let folder = NSTemporaryDirectory() + "tactus-check-order-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Good", "tempo": 120 }"#.write(toFile: folder + "/a.json", atomically: true, encoding: .utf8)
        try "{ \"format\": 1, \"name\": \"Fast\",\n  \"tempo\": 1200,\n  \"clock\": { \"ofset\": 3 } }".write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        try "{ \"format\": 1, \"name\": \"Cut\",\n  \"tempo\": 90".write(toFile: folder + "/c.json", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Also good", "tempo": 90 }"#.write(toFile: folder + "/d.json", atomically: true, encoding: .utf8)
        let tactus = TactusProcess.executable.path
        let run = try Shell.run("cd '\(folder)' && '\(tactus)' presets check a.json b.json c.json d.json 2>&1 | cat; echo \"status ${PIPESTATUS[0]}\"")
        #expect(run.output.split(separator: "\n").map(String.init) == [
            "ok a.json: Good, 120 BPM, 4/4",
            "b.json: line 2, column 12: tempo: 1200 is out of range; allowed: a number from 1 to 999 BPM (beats of the meter's unit a minute), at most two decimals",
            "b.json: line 3, column 23: clock.ofset: unknown key (did you mean offsetMs?); allowed: offsetMs, sendWhileStopped or sendSongPosition",
            "c.json: line 2, column 14: the file ends inside an object (expected a comma or }): it is truncated; allowed: JSON text (RFC 8259)",
            "ok d.json: Also good, 90 BPM, 4/4",
            "status 2",
        ], "\(run.output)")
    }

    @Test func positionsNameEveryValueByItsPath() {
        let text = "{ \"a\": 1,\n  \"b\": { \"c\": [10, { \"d\": true }] } }"
        let p = JSONReader.positions(Array(text.utf8))
        #expect(p["a"]?.line == 1 && p["a"]?.column == 8)
        #expect(p["b.c"]?.line == 2 && p["b.c"]?.column == 15)
        #expect(p["b.c[1].d"]?.line == 2 && p["b.c[1].d"]?.column == 27)
        // Broken text: what was read before the break.
        #expect(JSONReader.positions(Array("{ \"a\": 1, \"b\": ".utf8)).keys.sorted() == ["a", "b"])
    }
}
