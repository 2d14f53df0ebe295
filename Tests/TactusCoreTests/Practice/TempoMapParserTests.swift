import Testing
@testable import TactusCore

/// klick's tempo map format, read as klick reads it, and every mistake said
/// with its file, line and column.
@Suite("Tempo map files")
struct TempoMapParserTests {
    @Test("klick's manual example reads entry by entry: labels, meters, ramps, patterns, volumes, comments")
    func klicksExample() throws {
        let text = """
        intro:    8 120           # play 8 measures at 120 bpm (4/4)
        verse1:   12 120 X.x.     # 12 measures at 120 bpm, playing only the 1st and 3rd beat
                  4 120-140 X.x.  # gradually increase tempo to 140 bpm
        chorus1:  16 140

        bridge:   8 3/4 140 0.5   # change to 3/4 time, reduce volume
                  8 3/4 140       # normal volume again
        # a comment line
        outro:    1 2/4 100,110 x.
        """
        let map = try TempoMapParser.parse(text, file: "song.map")
        #expect(map.sections.count == 7)
        #expect(map.sections[0] == MapSection(label: "intro", bars: 8, tempo: .constant(120), line: 1))
        #expect(map.sections[1] == MapSection(label: "verse1", bars: 12, tempo: .constant(120), accents: AccentPattern("X.x."), line: 2))
        #expect(map.sections[2] == MapSection(bars: 4, tempo: .ramp(from: 120, to: 140), accents: AccentPattern("X.x."), line: 3))
        #expect(map.sections[4] == MapSection(label: "bridge", bars: 8, meter: Meter("3/4")!, tempo: .constant(140), volume: 0.5, line: 6))
        #expect(map.sections[6] == MapSection(label: "outro", bars: 1, meter: Meter("2/4")!, tempo: .perBeat([100, 110]),
                                              accents: AccentPattern("x."), line: 9))
        #expect(map.labels == ["intro", "verse1", "chorus1", "bridge", "outro"])
        #expect(map.starting(at: "bridge")?.sections.count == 3)
        #expect(map.starting(at: "coda") == nil)
    }

    @Test("A ramp to the same tempo is a constant tempo; decimals and tabs are read")
    func smallForms() throws {
        let map = try TempoMapParser.parse("2\t97.5-97.5\n1 6/8 60.25 X..x.. 1.25\r\n", file: "f")
        #expect(map.sections[0].tempo == .constant(97.5))
        #expect(map.sections[1] == MapSection(bars: 1, meter: Meter("6/8")!, tempo: .constant(60.25), accents: AccentPattern("X..x.."),
                                              volume: 1.25, line: 2))
    }

    static let malformed: [(text: String, message: String)] = [
        ("4 7/3 120", "m.map:1:3: '7/3' is not a meter: a meter N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
        ("4 0/4 120", "m.map:1:3: '0/4' is not a meter: a meter N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
        ("8 120\n4 0", "m.map:2:3: the tempo 0 is out of range: " + TempoMapParser.tempoAllowed),
        ("4 1000", "m.map:1:3: the tempo 1000 is out of range: " + TempoMapParser.tempoAllowed),
        ("4 fast", "m.map:1:3: 'fast' is not a tempo: " + TempoMapParser.tempoAllowed),
        ("  4 120-", "m.map:1:9: '' is not a tempo: " + TempoMapParser.tempoAllowed),
        ("4 120-x4", "m.map:1:7: 'x4' is not a tempo: " + TempoMapParser.tempoAllowed),
        ("1 3/4 100,110", "m.map:1:7: 2 tempi for an entry of 3 beats: one tempo a beat, bars × beats a bar"),
        ("1 3/4 100,,120", "m.map:1:11: '' is not a tempo: " + TempoMapParser.tempoAllowed),
        ("4 120 X-x.", "m.map:1:8: '-' is not a pattern symbol: X accent, x normal, o soft, . silent, one a beat"),
        ("4 5/4 120 Xxx", "m.map:1:11: the pattern 'Xxx' has 3 beats, a bar of 5/4 has 5: one symbol a beat"),
        ("4 120 big", "m.map:1:7: 'big' is neither a pattern (X accent, x normal, o soft, . silent, one a beat) nor a volume ("
            + TempoMapParser.volumeAllowed + ")"),
        ("4 120 X.x. -1", "m.map:1:12: the volume -1 is out of range: " + TempoMapParser.volumeAllowed),
        ("a: 4 120\n# again\na: 2 120", "m.map:3:1: the label 'a' is already used on line 1: each label names one entry"),
        ("   : 4 120", "m.map:1:4: ':' is not a label: a name followed by one colon (e.g. verse1:)"),
        ("intro:", "m.map:1:7: the entry 'intro' has no bars and tempo: [label:] bars [meter] tempo [pattern] [volume]"),
        ("4 3/4", "m.map:1:6: the entry has no tempo: [label:] bars [meter] tempo [pattern] [volume]"),
        ("four 120", "m.map:1:1: 'four' is not a bar count: a whole number of bars from 1 to 100000"),
        ("0 120", "m.map:1:1: '0' is not a bar count: a whole number of bars from 1 to 100000"),
        ("4 120 X.x. 0.5 more", "m.map:1:16: 'more' is one word too many: [label:] bars [meter] tempo [pattern] [volume]"),
        ("# only a comment\n\n", "m.map:3:1: the map has no entries: one a line, [label:] bars [meter] tempo [pattern] [volume]"),
        ("4 33/4 120", "m.map:1:3: '33/4' is not a meter: a meter N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
    ]

    @Test("Each malformed map is one message with file:line:column and what is allowed", arguments: 0..<malformed.count)
    func malformedMap(index: Int) {
        let (text, message) = Self.malformed[index]
        #expect(throws: TempoMapError.self) { _ = try TempoMapParser.parse(text, file: "m.map") }
        do {
            _ = try TempoMapParser.parse(text, file: "m.map")
        } catch {
            #expect(error.description == message)
        }
    }
}
