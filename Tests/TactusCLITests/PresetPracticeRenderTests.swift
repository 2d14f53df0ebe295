import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// A preset's `countIn`, `trainer`, `gap`, `gapRandom` and `sections` render
/// exactly as the options they stand for (Presets/README.md "Practice").
@Suite("Preset practice keys render as their options")
struct PresetPracticeRenderTests {
    func render(_ folder: String, _ name: String, _ arguments: [String]) throws -> [Int] {
        let wav = folder + "/\(name).wav"
        let r = try TactusProcess.run(["render", wav, "--format", "float"] + arguments)
        #expect(r.status == 0, "\(r.standardError)")
        return clickOnsets(try WAVReader.read(path: wav).samples)
    }

    func folder() throws -> String {
        let f = NSTemporaryDirectory() + "tactus-preset-practice-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true)
        return f
    }

    @Test func countInTrainerAndGapFromAPresetAreTheOptions() throws {
        let f = try folder()
        defer { try? FileManager.default.removeItem(atPath: f) }
        try #"{ "format": 1, "name": "Drill", "tempo": 100, "countIn": 1, "trainer": "100-110/2:5", "gap": "3/1" }"#
            .write(toFile: f + "/drill.json", atomically: true, encoding: .utf8)
        let fromPreset = try render(f, "preset", ["--seconds", "30", "--preset", f + "/drill.json"])
        let fromOptions = try render(f, "options", ["--seconds", "30", "--count-in", "1", "--trainer", "100-110/2:5", "--gap", "3/1"])
        let plain = try render(f, "plain", ["--seconds", "30", "--bpm", "100"])
        // 30 s: a 4-beat count-in, then bars 1–2 at 100, 3–4 at 105, then 110, every 4th bar silent: 4 + 38 clicks.
        #expect(fromPreset == fromOptions)
        #expect(fromPreset.count == 42 && plain.count == 50, "\(fromPreset.count) \(plain.count) \(fromPreset)")
        // Bar 3 (after 4 + 8 beats of 28 800 frames at 48 kHz) steps to 105 BPM: 27 428.57 frames a beat; bar 4 is silent.
        #expect(fromPreset.prefix(17) == [0, 28800, 57600, 86400, 115200, 144000, 172800, 201600, 230400, 259200, 288000, 316800,
                                          345600, 373029, 400457, 427886, 565029])
        // The command line wins: --count-in 0 is two beats, not the preset's bar.
        let countInZero = try render(f, "zero", ["--seconds", "30", "--preset", f + "/drill.json", "--count-in", "0"])
        #expect(countInZero == (try render(f, "zero-options", ["--seconds", "30", "--count-in", "0", "--trainer", "100-110/2:5", "--gap", "3/1"])))
        #expect(countInZero != fromPreset)
    }

    @Test func sectionsAndGapRandomFromAPresetAreTheMapAndTheOptions() throws {
        let f = try folder()
        defer { try? FileManager.default.removeItem(atPath: f) }
        try """
        intro: 2 4/4 120 X.x. 0.5
        verse: 3 3/4 90-140
        4 6/8 100,110,120,130,140,150,160,170,180,190,200,210,220,230,240,250,260,270,280,290,300,310,320,330
        """.write(toFile: f + "/song.map", atomically: true, encoding: .utf8)
        let tempi = (0..<24).map { String(100 + 10 * $0) }.joined(separator: ", ")
        try """
        { "format": 1, "name": "Song", "tempo": 120, "gapRandom": 0.25, "sections": [
          { "label": "intro", "bars": 2, "meter": "4/4", "tempo": 120, "pattern": "X.x.", "volume": 0.5 },
          { "label": "verse", "bars": 3, "meter": "3/4", "tempo": "90-140" },
          { "bars": 4, "meter": "6/8", "tempo": [\(tempi)] } ] }
        """.write(toFile: f + "/song.json", atomically: true, encoding: .utf8)
        let fromPreset = try render(f, "preset", ["--preset", f + "/song.json", "--seed", "3"])
        let fromMap = try render(f, "map", ["--map", f + "/song.map", "--gap-random", "0.25", "--seed", "3"])
        let noGap = try render(f, "nogap", ["--map", f + "/song.map"])
        #expect(fromPreset == fromMap)
        #expect(!fromPreset.isEmpty && fromPreset != noGap, "\(fromPreset.count) \(noGap.count)")
        // --start-at picks the preset's entry as it picks a map file's.
        let fromVerse = try render(f, "verse", ["--preset", f + "/song.json", "--start-at", "verse"])
        let verseMap = try render(f, "verse-map", ["--map", f + "/song.map", "--start-at", "verse", "--gap-random", "0.25"])
        #expect(fromVerse.count < fromPreset.count && fromVerse == verseMap)
        // A preset without sections gives --start-at no map: refused, nothing written.
        try #"{ "format": 1, "name": "Plain", "tempo": 100 }"#.write(toFile: f + "/plain.json", atomically: true, encoding: .utf8)
        let r = try TactusProcess.run(["render", f + "/none.wav", "--preset", f + "/plain.json", "--start-at", "verse"])
        #expect(r.status == 2 && r.standardError == "tactus: \(f)/plain.json: sections: --start-at 'verse' needs a tempo map: --map FILE or the preset's sections\n",
                "\(r.standardError)")
        #expect(!FileManager.default.fileExists(atPath: f + "/none.wav"))
    }
}
