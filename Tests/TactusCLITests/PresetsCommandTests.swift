import Foundation
import Testing
@testable import TactusCLI
import TactusCore

@Suite("tactus presets")
struct PresetsCommandTests {
    /// A folder with a shipped and a user preset folder.
    final class Folders {
        let root: String
        var directories: PresetDirectories { PresetDirectories(shipped: root + "/shipped", user: root + "/user") }

        init() {
            root = NSTemporaryDirectory() + "tactus-cli-presets-" + UUID().uuidString
            try! FileManager.default.createDirectory(atPath: root + "/shipped", withIntermediateDirectories: true)
            try! FileManager.default.createDirectory(atPath: root + "/user", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        @discardableResult
        func write(_ name: String, _ text: String) -> String {
            let path = root + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }
    }

    func options(_ words: [String]) throws -> Options { try OptionParser.parse(words) }

    @Test func listShowsProgramNameTempoMeterAndFileInListOrder() throws {
        let f = Folders()
        f.write("shipped/largo.json", #"{ "format": 1, "name": "Largo", "program": 0, "tempo": 50 }"#)
        f.write("shipped/seven.json", #"{ "format": 1, "name": "7/8 (2+2+3)", "tempo": 210, "meter": "7/8", "accents": "XxXxXxx" }"#)
        f.write("user/ballad.json", #"{ "format": 1, "name": "Ballad", "tempo": 72.5, "meter": "12/8" }"#)
        f.write("user/bad.json", #"{ "format": 1, "name": "Bad", "tempo": "fast" }"#)
        let out = PresetsCommand.output(try options(["presets"]), directories: f.directories)
        #expect(out.status == 0)
        #expect(out.standardOutput == [
            "PROGRAM  NAME         TEMPO  METER  FILE",
            "      0  Largo           50  4/4    \(f.root)/shipped/largo.json",
            "      1  7/8 (2+2+3)    210  7/8    \(f.root)/shipped/seven.json",
            "      2  Ballad       72.50  12/8   \(f.root)/user/ballad.json",
        ])
        #expect(out.standardError == [
            "tactus: \(f.root)/user/bad.json: tempo: found \"fast\"; allowed: a number from 1 to 999 BPM (beats of the meter's unit a minute), at most two decimals",
        ])
    }

    @Test func listFollowsTheSetList() throws {
        let f = Folders()
        f.write("shipped/a.json", #"{ "name": "Alpha", "tempo": 100 }"#)
        f.write("shipped/b.json", #"{ "name": "Beta", "tempo": 110 }"#)
        let gig = f.write("gig.txt", "# set 1\nBeta\n\nAlpha\nBeta\n")
        let out = PresetsCommand.output(try options(["presets", "--setlist", gig]), directories: f.directories)
        #expect(out.standardOutput.map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ") }
                == ["PROGRAM NAME", "0 Beta", "1 Alpha", "2 Beta"])
        let bad = f.write("bad.txt", "Beta\nGamma\n")
        let refused = PresetsCommand.output(try options(["presets", "--setlist", bad]), directories: f.directories)
        #expect(refused.status == 2)
        #expect(refused.standardError == ["tactus: \(bad): line 2: no preset is named \"Gamma\"; allowed: one preset name a line, as tactus presets lists them; # starts a comment"])
    }

    @Test func anEmptyLibrarySaysWhereItLooked() throws {
        let f = Folders()
        let out = PresetsCommand.output(try options(["presets"]), directories: f.directories)
        #expect(out.status == 0)
        #expect(out.standardOutput.isEmpty)
        #expect(out.standardError == ["tactus: no presets found in \(f.root)/shipped or \(f.root)/user"])
    }

    @Test func checkPrintsEveryErrorOfEveryFileAndExitsWithStatus2() throws {
        let f = Folders()
        let good = f.write("good.json", #"{ "format": 1, "name": "Good", "tempo": 97.3, "meter": "5/4" }"#)
        let bad = f.write("bad.json", "{ \"format\": 1, \"name\": \"Bad\", \"tempo\": 1200,\n  \"pressure\": { \"strongTreshold\": 0.8 } }")
        let cut = f.write("cut.json", #"{ "name": "Cut", "tempo": 1"#)
        let empty = f.write("empty.json", "")
        let out = PresetsCommand.output(try options(["presets", "check", good, bad, cut, empty, f.root]), directories: f.directories)
        #expect(out.status == 2)
        #expect(out.standardOutput == ["ok \(good): Good, 97.30 BPM, 5/4"])
        #expect(out.standardError == [
            "\(bad): line 1, column 40: tempo: 1200 is out of range; allowed: a number from 1 to 999 BPM (beats of the meter's unit a minute), at most two decimals",
            "\(bad): line 2, column 35: pressure.strongTreshold: unknown key (did you mean strongThreshold?); allowed: " + [
                "mode", "channel", "upKey", "downKey", "presetKey", "tapStep", "lightThreshold", "lightRelease", "strongThreshold",
                "strongRelease", "holdDelay", "stepTimer", "ticksPerStep", "lightStep", "strongStep", "longPressDelay", "longPressInterval",
                "longPressSlowSteps", "longPressMediumSteps", "longPressSlowAmount", "longPressMediumAmount", "longPressFastAmount",
                "continuousMinimumRate", "continuousMaximumRate", "continuousCurve", "deepPressMinimumHold", "deepPressThreshold", "calibration",
            ].joined(separator: ", ") + " or stuckKeyTimeout",
            "\(cut): line 1, column 28: the file ends inside an object (expected a comma or }): it is truncated; allowed: JSON text (RFC 8259)",
            "\(empty): the file is empty; allowed: a JSON object with at least \"name\" and \"tempo\"",
            "\(f.root): is a directory; allowed: a preset file (JSON), not a folder",
        ])
    }

    /// A preset's `actions` are checked as controller.json's are, each mistake by its field.
    @Test func checkNamesTheFieldOfABrokenAction() throws {
        let f = Folders()
        let good = f.write("pedal.json", #"{ "format": 1, "name": "Pedal", "tempo": 90, "actions": [{ "action": "startStop", "cc": 65 }] }"#)
        let bad = f.write("bad-pedal.json", #"{ "format": 1, "name": "Bad pedal", "tempo": 90, "actions": [{ "action": "startstop", "cc": 65 }, { "action": "tap" }] }"#)
        let out = PresetsCommand.output(try options(["presets", "check", good, bad]), directories: f.directories)
        #expect(out.status == 2)
        #expect(out.standardOutput == ["ok \(good): Pedal, 90 BPM, 4/4"])
        #expect(out.standardError == [
            "\(bad): line 1, column 74: actions[0].action: \"startstop\": must be one of tap, startStop, start, stop, nextPreset, previousPreset, mute, tempoUp, tempoDown, countIn",
            "\(bad): line 1, column 99: actions[1]: needs a \"note\" or a \"cc\" number, 0 to 127 (one of them)",
        ])
    }

    /// A sample that libsndfile cannot decode fails the check by its field, as it would fail start and switch.
    @Test func checkDecodesTheSamples() throws {
        let f = Folders()
        f.write("junk.wav", "not audio")
        let bad = f.write("sampled.json", #"{ "format": 1, "name": "Sampled", "tempo": 100, "sounds": { "subdivision": { "sample": "junk.wav" } } }"#)
        let out = PresetsCommand.output(try options(["presets", "check", bad]), directories: f.directories)
        #expect(out.status == 2)
        #expect(out.standardOutput.isEmpty)
        #expect(out.standardError.count == 1)
        #expect(out.standardError.first?.hasPrefix("\(bad): line 1, column 88: sounds.subdivision.sample: cannot read '\(f.root)/junk.wav': ") == true, "\(out.standardError)")
    }

    @Test func checkWithoutFilesChecksBothFoldersAndPassesWhenAllAreGood() throws {
        let f = Folders()
        f.write("shipped/a.json", #"{ "name": "Alpha", "tempo": 100 }"#)
        f.write("user/b.json", #"{ "name": "Beta", "tempo": 110 }"#)
        let out = PresetsCommand.output(try options(["presets", "check"]), directories: f.directories)
        #expect(out == PresetsCommand.Output(status: 0, standardOutput: [
            "ok \(f.root)/shipped/a.json: Alpha, 100 BPM, 4/4", "ok \(f.root)/user/b.json: Beta, 110 BPM, 4/4",
        ], standardError: []))
    }

    @Test func everyShippedPresetPassesCheck() throws {
        let shipped = PresetDirectories.standard(environment: [:], executablePath: PresetDirectories.currentExecutable)
        let out = PresetsCommand.output(try options(["presets", "check"]), directories: PresetDirectories(shipped: shipped.shipped, user: nil))
        #expect(out.status == 0)
        #expect(out.standardError.isEmpty)
        #expect(out.standardOutput.count >= 12)
    }

    @Test func anUnknownPresetsArgumentIsAUsageError() throws {
        let out = PresetsCommand.output(try options(["presets", "show"]), directories: PresetDirectories(shipped: nil, user: nil))
        #expect(out == PresetsCommand.Output(status: 2, standardOutput: [], standardError: ["tactus: presets: unknown argument 'show': tactus presets [check FILE|NAME...]"]))
    }

    // MARK: - --preset at start

    @Test func aBadPresetAtStartExitsWithStatus2() throws {
        let f = Folders()
        let bad = f.write("bad.json", #"{ "name": "Bad", "tempo": 100, "meter": "7/9" }"#)
        #expect(Tactus.main(["render", f.root + "/out.wav", "--seconds", "1", "--preset", bad]) == 2)
        #expect(!FileManager.default.fileExists(atPath: f.root + "/out.wav"))
        #expect(Tactus.main(["--preset", "No such preset"]) == 2)
        let error = #expect(throws: PresetError.self) {
            try PresetStart(options: try OptionParser.parse(["--preset", bad]), directories: PresetDirectories(shipped: nil, user: nil))
        }
        #expect(error?.messages == ["\(bad): meter: \"7/9\" is not a meter; allowed: \"N/D\" with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. \"7/8\")"])
    }

    @Test func renderPlaysTheNamedPresetAndOptionsGivenWin() throws {
        let f = Folders()
        // The shipped "Waltz": 3/4 at 168, a clock every 48 000 × 60 / 168 / 24 = 714.29 frames.
        #expect(Tactus.main(["render", f.root + "/w.wav", "--seconds", "1", "--preset", "Waltz", "--midi-log", f.root + "/w.txt"]) == 0)
        let waltz = try String(contentsOfFile: f.root + "/w.txt", encoding: .utf8).split(separator: "\n")
        #expect(waltz[0...3] == ["0 FA start", "0 F8 clock", "714 F8 clock", "1429 F8 clock"])
        let start = try PresetStart(options: try OptionParser.parse(["--preset", "Waltz", "--bpm", "90"]), directories: PresetStart.directories)
        let settings = try start.settings(try OptionParser.parse(["--preset", "Waltz", "--bpm", "90"]))
        #expect(settings.tempo == BPM(90))
        #expect(settings.bar.meter.description == "3/4")
    }
}
