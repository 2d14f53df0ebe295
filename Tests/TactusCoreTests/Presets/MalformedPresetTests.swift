import Testing
@testable import TactusCore

/// Every way a preset file can be wrong gives one message naming the file, the
/// exact field path and what is allowed, and a refused preset changes nothing.
@Suite("Malformed presets")
struct MalformedPresetTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        /// The field path the one message must name ("" for the file as a whole).
        let path: String
        /// A fragment the problem must contain.
        let problem: String
        var testDescription: String { label }

        init(_ label: String, _ text: String, path: String, _ problem: String) {
            self.init(label, Array(text.utf8), path: path, problem)
        }

        init(_ label: String, _ bytes: [UInt8], path: String, _ problem: String) {
            self.label = label
            self.bytes = bytes
            self.path = path
            self.problem = problem
        }
    }

    /// A valid preset with `members` added (JSON object members, comma-separated).
    static func preset(_ members: String = "") -> String {
        "{ \"format\": 1, \"name\": \"Bad\", \"tempo\": 100\(members.isEmpty ? "" : ", " + members) }"
    }

    static let cases: [Case] = [
        Case("empty file", "", path: "", "the file is empty"),
        Case("only white space", " \n\t\n", path: "", "the file is empty"),
        Case("truncated inside the object", "{ \"format\": 1,\n  \"name\": \"Cut\",\n  \"tempo\": 1", path: "", "line 3, column 13: the file ends inside an object"),
        Case("truncated inside a string", "{ \"name\": \"Cu", path: "", "line 1, column 14: the file ends inside a string"),
        Case("not JSON", "tempo: 120", path: "", "line 1, column 1: unexpected 't'"),
        Case("trailing comma", "{ \"name\": \"A\", \"tempo\": 90, }", path: "", "line 1, column 29: unexpected '}' where a key in double quotes was expected"),
        Case("duplicate key", "{ \"name\": \"A\", \"tempo\": 90, \"tempo\": 91 }", path: "", "the key \"tempo\" appears twice"),
        Case("text after the object", preset() + " x", path: "", "after the end of the JSON value"),
        Case("invalid UTF-8 in a string", Array("{ \"name\": \"".utf8) + [0xC3, 0x28] + Array("\", \"tempo\": 90 }".utf8), path: "", "not valid UTF-8"),
        Case("nested 40 deep", preset("\"sounds\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)), path: "", "nesting deeper than 32"),
        Case("over 1 MiB", Array((preset().dropLast() + ", \"x\": \"" + String(repeating: "a", count: 1 << 20) + "\" }").utf8), path: "", "more than 1 MiB"),
        Case("an array, not an object", "[1, 2]", path: "", "found an array"),
        Case("unknown key", preset("\"tempi\": 120"), path: "tempi", "unknown key (did you mean tempo?)"),
        Case("unknown key far from any", preset("\"colour\": \"red\""), path: "colour", "unknown key; allowed: format, name, program, tempo, meter, accents, subdivision, swing, pulse, sounds, clock, pressure, actions, link, transport, sync, clockIn, countIn, trainer, gap, gapRandom or sections"),
        Case("missing name", "{ \"format\": 1, \"tempo\": 100 }", path: "name", "missing"),
        Case("missing tempo", "{ \"format\": 1, \"name\": \"No tempo\" }", path: "tempo", "missing"),
        Case("format 2", "{ \"format\": 2, \"name\": \"A\", \"tempo\": 100 }", path: "format", "format 2 is not known"),
        Case("empty name", "{ \"name\": \"\", \"tempo\": 100 }", path: "name", "the name is empty"),
        Case("name with a line break", "{ \"name\": \"Two\\nlines\", \"tempo\": 100 }", path: "name", "control character"),
        Case("tempo as a string", "{ \"name\": \"A\", \"tempo\": \"120\" }", path: "tempo", "found \"120\""),
        Case("tempo above 999", "{ \"name\": \"A\", \"tempo\": 1000 }", path: "tempo", "1000 is out of range"),
        Case("tempo below 1", "{ \"name\": \"A\", \"tempo\": 0.5 }", path: "tempo", "0.5 is out of range"),
        Case("tempo with three decimals", "{ \"name\": \"A\", \"tempo\": 97.333 }", path: "tempo", "97.333 has more than 2 decimals"),
        Case("meter 7/9", preset("\"meter\": \"7/9\""), path: "meter", "\"7/9\" is not a meter"),
        Case("meter as a number", preset("\"meter\": 7"), path: "meter", "found 7"),
        Case("transport dj", preset("\"transport\": \"dj\""), path: "transport", "\"dj\" is unknown"),
        Case("transport as a flag", preset("\"transport\": true"), path: "transport", "found true"),
        Case("accent symbol", preset("\"accents\": \"X.y.\""), path: "accents", "unknown symbol 'y' at beat 3"),
        Case("accents longer than the meter", preset("\"meter\": \"3/4\", \"accents\": \"Xxxx\""), path: "accents", "\"Xxxx\" has 4 beats but the meter 3/4 has 3"),
        Case("accents shorter than the default meter", preset("\"accents\": \"X.x\""), path: "accents", "has 3 beats but the meter 4/4 has 4"),
        Case("subdivision unknown", preset("\"subdivision\": \"quintuplets\""), path: "subdivision", "\"quintuplets\" is unknown"),
        Case("program 128", preset("\"program\": 128"), path: "program", "128 is out of range"),
        Case("program not whole", preset("\"program\": 1.5"), path: "program", "1.5 is not a whole number"),
        Case("sounds is an array", preset("\"sounds\": []"), path: "sounds", "found an array"),
        Case("negative gain", preset("\"sounds\": { \"beat\": { \"gain\": -1 } }"), path: "sounds.beat.gain", "-1 is out of range"),
        Case("sample not a WAV", preset("\"sounds\": { \"accent\": { \"sample\": \"click.mp3\" } }"), path: "sounds.accent.sample", "is not a .wav file"),
        Case("unknown feedback key", preset("\"sounds\": { \"feedback\": { \"volume\": 1 } }"), path: "sounds.feedback.volume", "unknown key"),
        Case("clock offset as a string", preset("\"clock\": { \"offsetMs\": \"10\" }"), path: "clock.offsetMs", "found \"10\""),
        Case("clock flag as a word", preset("\"clock\": { \"sendWhileStopped\": \"yes\" }"), path: "clock.sendWhileStopped", "found \"yes\""),
        Case("strong threshold above 1", preset("\"pressure\": { \"strongThreshold\": 1.5 }"), path: "pressure.strongThreshold", "1.5 is out of range"),
        Case("misspelt pressure key", preset("\"pressure\": { \"strongTreshold\": 0.8 }"), path: "pressure.strongTreshold", "unknown key (did you mean strongThreshold?)"),
        Case("key in the wrong case", preset("\"pressure\": { \"StrongThreshold\": 0.8 }"), path: "pressure.StrongThreshold", "did you mean strongThreshold?"),
        Case("pressure mode unknown", preset("\"pressure\": { \"mode\": \"hard\" }"), path: "pressure.mode", "\"hard\" is unknown"),
        Case("channel 17", preset("\"pressure\": { \"channel\": 17 }"), path: "pressure.channel", "17 is out of range"),
        Case("up key 128", preset("\"pressure\": { \"upKey\": 128 }"), path: "pressure.upKey", "128 is out of range"),
        Case("ticks per step not whole", preset("\"pressure\": { \"ticksPerStep\": 2.5 }"), path: "pressure.ticksPerStep", "2.5 is not a whole number"),
        Case("strong release above its threshold", preset("\"pressure\": { \"strongRelease\": 0.8 }"), path: "pressure.strongRelease", "0.8 is above strongThreshold (0.7)"),
        Case("calibration maximum 200", preset("\"pressure\": { \"calibration\": { \"maximum\": 200 } }"), path: "pressure.calibration.maximum", "200 is out of range"),
        Case("dead zone above maximum", preset("\"pressure\": { \"calibration\": { \"deadZone\": 100, \"maximum\": 90 } }"), path: "pressure.calibration.deadZone", "100 is not below maximum (90)"),
        Case("curve null", preset("\"pressure\": { \"continuousCurve\": null }"), path: "pressure.continuousCurve", "found null"),
    ]

    @Test("each malformed file gives one message with its field path", arguments: cases)
    func malformedFileNamesItsField(_ c: Case) throws {
        let error = #expect(throws: PresetError.self) { try Preset.decode(c.bytes, file: "Presets/bad.json") }
        let issues = try #require(error).issues
        #expect(issues.map(\.path) == [c.path])
        let message = try #require(error?.messages.first)
        #expect(message.hasPrefix("Presets/bad.json: " + (c.path.isEmpty ? "" : c.path + ": ")))
        #expect(message.contains(c.problem), "\(message)")
        #expect(message.contains("; allowed: "), "\(message)")
    }

    @Test("a refused preset leaves the engine and the current preset as they were", arguments: cases)
    func refusedPresetChangesNothing(_ c: Case) throws {
        let playing = try decode(#"{ "format": 1, "name": "Playing", "tempo": 120 }"#)
        let harness = EngineHarness(playing.engineConfiguration(sampleRate: 48_000))
        harness.control.pointee.commands.push(.start)
        harness.render(until: 4096)
        var switcher = PresetSwitcher(library: PresetLibrary(shipped: [], user: []), sampleRate: 48_000)
        switcher.started(with: PresetEntry(preset: playing, file: "playing.json", origin: .file))

        let outcome = switcher.load(bytes: c.bytes, file: "bad.json", control: harness.control.pointee)

        guard case .refused(let error) = outcome else { Issue.record("not refused: \(outcome)"); return }
        #expect(error.issues.map(\.path) == [c.path])
        #expect(switcher.current?.preset == playing)
        // Nothing pushed: the tempo too travels only as a command (and the status below plays 120).
        #expect(harness.control.pointee.commands.count == 0)
        harness.render(until: 96_000 * 2)
        #expect(harness.control.pointee.status.barRequestApplied.load(ordering: .relaxed) == 0)
        #expect(harness.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 12_000)
        #expect(harness.clocks.count == 192)
    }

    @Test func everyProblemOfAFileIsReportedNotOnlyTheFirst() throws {
        let text = """
        { "format": 1, "name": "Many", "tempo": 1200, "meter": "5/3",
          "pressure": { "mode": "soft", "lightThreshold": -1 }, "colour": "red" }
        """
        let error = #expect(throws: PresetError.self) { try decode(text, file: "many.json") }
        #expect(error?.issues.map(\.path) == ["tempo", "meter", "pressure.mode", "pressure.lightThreshold", "colour"])
    }

    @Test func messagesReadAsOneLineEachWithWhatIsAllowed() throws {
        let error = #expect(throws: PresetError.self) {
            try decode(#"{ "name": "A", "tempo": 97.333, "pressure": { "strongThreshold": 1.5 }, "meter": "7/9" }"#, file: "Presets/a.json")
        }
        #expect(error?.messages == [
            "Presets/a.json: tempo: 97.333 has more than 2 decimals; allowed: a number from 1 to 999 BPM (beats of the meter's unit a minute), at most two decimals",
            "Presets/a.json: pressure.strongThreshold: 1.5 is out of range; allowed: a number from 0 to 1 (fraction of full force)",
            "Presets/a.json: meter: \"7/9\" is not a meter; allowed: \"N/D\" with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. \"7/8\")",
        ])
    }
}
