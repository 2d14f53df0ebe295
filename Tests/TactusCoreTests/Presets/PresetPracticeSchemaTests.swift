import Testing
@testable import TactusCore

/// The practice keys of a preset (`countIn`, `trainer`, `gap`, `gapRandom`,
/// `sections`): read as their options are, and each mistake one issue naming
/// its exact path, `sections[i].key` for an entry (from 0).
@Suite("Preset practice keys")
struct PresetPracticeSchemaTests {
    static func preset(_ members: String) -> String { "{ \"format\": 1, \"name\": \"P\", \"tempo\": 100, \(members) }" }
    static func decode(_ text: String) throws(PresetError) -> Preset { try Preset.decode(Array(text.utf8), file: "p.json") }

    @Test func everyKeyReadsAsItsOptionAndWritesBack() throws {
        let text = Self.preset("""
        "countIn": 0, "gap": "3/1", "gapRandom": 0.2,
        "sections": [ { "label": "a", "bars": 2, "meter": "6/8", "tempo": "90-140", "pattern": "Xxo.x.", "volume": 0.5 },
                      { "bars": 1, "meter": "2/4", "tempo": [100, 110] }, { "bars": 3, "tempo": 120 } ]
        """)
        let p = try Self.decode(text)
        #expect(p.practice.countIn == 0)
        #expect(p.practice.gap == GapTrainer(play: 3, mute: 1, probability: 0.2))
        #expect(p.practice.sections?.sections.map(\.tempo) == [.ramp(from: 90, to: 140), .perBeat([100, 110]), .constant(120)])
        #expect(p.practice.sections?.sections.first == MapSection(label: "a", bars: 2, meter: Meter("6/8")!, tempo: .ramp(from: 90, to: 140),
                                                                  accents: AccentPattern("Xxo.x."), volume: 0.5, line: 1))
        #expect(try Self.decode(p.encoded()) == p)
        let t = try Self.decode(Self.preset(#""trainer": "120-90/4:-2.5""#))
        #expect(t.practice.trainer == SpeedTrainer(from: BPM(120), to: BPM(90), bars: 4, stepHundredths: -250))
        #expect(try Self.decode(t.encoded()) == t)
    }

    @Test("One issue each, at its path", arguments: [
        (#""countIn": 17"#, "countIn", "17 is out of range"),
        (#""countIn": "1""#, "countIn", "found \"1\""),
        (#""trainer": "80-120""#, "trainer", "\"80-120\" is not FROM-TO/BARS[:STEP]"),
        (#""trainer": "80-120/10:-1""#, "trainer", "a step of -1 goes away from 120"),
        (#""gap": "3/0""#, "gap", "\"3/0\" is not PLAY/MUTE"),
        (#""gap": 3"#, "gap", "found 3"),
        (#""gapRandom": 1.5"#, "gapRandom", "1.5 is out of range"),
        (#""sections": []"#, "sections", "the list is empty"),
        (#""sections": { "bars": 1 }"#, "sections", "found an object"),
        (#""sections": [ { "bars": 1, "tempo": 90 }, { "tempo": 90 } ]"#, "sections[1].bars", "missing (required)"),
        (#""sections": [ { "bars": 1, "tempo": 90 }, { "bars": 1, "tempo": 90 }, { "bars": 2, "tempo": 0 } ]"#, "sections[2].tempo", "0 is out of range"),
        (#""sections": [ { "bars": 1, "tempo": "90-" } ]"#, "sections[0].tempo", "\"90-\""),
        (#""sections": [ { "bars": 1, "tempo": "90,100" } ]"#, "sections[0].tempo", "is not \"t1-t2\""),
        (#""sections": [ { "bars": 1, "meter": "3/4", "tempo": [90, 100] } ]"#, "sections[0].tempo", "2 tempi for an entry of 3 beats"),
        (#""sections": [ { "bars": 1, "meter": "3/4", "tempo": 90, "pattern": "Xx" } ]"#, "sections[0].pattern", "has 2 beats but the meter 3/4 has 3"),
        (#""sections": [ { "bars": 1, "tempo": 90, "pattern": "Xy.." } ]"#, "sections[0].pattern", "unknown symbol 'y' at beat 2"),
        (#""sections": [ { "bars": 1, "meter": "5/3", "tempo": 90 } ]"#, "sections[0].meter", "\"5/3\" is not a meter"),
        (#""sections": [ { "bars": 0, "tempo": 90 } ]"#, "sections[0].bars", "0 is out of range"),
        (#""sections": [ { "bars": 1, "tempo": 90, "volume": 11 } ]"#, "sections[0].volume", "11 is out of range"),
        (#""sections": [ { "bars": 1, "tempo": 90, "label": "a b" } ]"#, "sections[0].label", "\"a b\" is not a label"),
        (#""sections": [ { "label": "v", "bars": 1, "tempo": 90 }, { "label": "v", "bars": 1, "tempo": 90 } ]"#, "sections[1].label", "already the label of sections[0]"),
        (#""sections": [ { "bars": 1, "tempo": 90, "tempi": 90 } ]"#, "sections[0].tempi", "unknown key (did you mean tempo?)"),
        (#""trainer": "80-90/1", "sections": [ { "bars": 1, "tempo": 90 } ]"#, "trainer", "do not go together"),
    ])
    func malformed(members: String, path: String, problem: String) {
        let error = #expect(throws: PresetError.self) { try Self.decode(Self.preset(members)) }
        #expect(error?.issues.map(\.path) == [path], "\(error?.issues ?? [])")
        #expect(error?.issues.first?.problem.contains(problem) == true, "\(error?.issues.first?.problem ?? "")")
    }
}
