import Testing
@testable import TactusCore

/// A preset's `swing` and `pulse` (Presets/README.md "Top level"), as `--swing`
/// and `--pulse`: read, checked and written back.
@Suite("Preset swing and pulse")
struct PresetFeelSchemaTests {
    @Test("swing 0.58 with eighths and pulse dotted are read into the bar, and written back to an equal preset")
    func readAndWritten() throws {
        let p = try decode(#"{ "format": 1, "name": "Jig", "tempo": 120, "meter": "6/8", "subdivision": "eighths", "swing": 0.58, "pulse": "dotted" }"#)
        #expect(p.bar.swingRatio == 0.58 && p.bar.subdivision == .eighths && p.bar.pulse == .dotted)
        let text = p.encoded()
        #expect(text.contains("\"subdivision\": \"eighths\",\n  \"swing\": 0.58,\n  \"pulse\": \"dotted\",\n"))
        #expect(try decode(text) == p)
    }

    @Test("swing without a subdivision clicks eighths, as --swing does; left out, no swing and the meter's beat")
    func swingAloneIsEighths() throws {
        let swung = try decode(#"{ "format": 1, "name": "S", "tempo": 120, "swing": 0.6 }"#)
        #expect(swung.bar.subdivision == .eighths && swung.bar.swingRatio == 0.6 && swung.bar.pulse == .beat)
        let plain = try decode(#"{ "format": 1, "name": "P", "tempo": 120 }"#)
        #expect(plain.bar.swingRatio == 0 && plain.bar.pulse == .beat)
        // Neither key is written for a preset without them.
        #expect(!plain.encoded().contains("swing") && !plain.encoded().contains("pulse"))
    }

    @Test("A bad swing or pulse: one message each, with the field and what is allowed, all at once")
    func badValues() {
        let swingAllowed = "a number from 0.5 to 0.75 (the off-beat eighth at this fraction of the beat: 0.5 straight, 2/3 the triplet shuffle)"
        #expect(throws: PresetError(file: "test.json", issues: [
            PresetIssue(path: "swing", problem: "0.9 is out of range", allowed: swingAllowed),
            PresetIssue(path: "pulse", problem: "\"quarter\" is unknown", allowed: "one of beat, dotted"),
        ])) {
            try decode(#"{ "format": 1, "name": "B", "tempo": 120, "swing": 0.9, "pulse": "quarter" }"#)
        }
        #expect(throws: PresetError(file: "test.json", issues: [
            PresetIssue(path: "swing", problem: "swing swings eighths: it does not go with the subdivision triplets",
                        allowed: "subdivision \"eighths\" or left out (swing then clicks eighths)"),
        ])) {
            try decode(#"{ "format": 1, "name": "T", "tempo": 120, "subdivision": "triplets", "swing": 0.6 }"#)
        }
    }
}
