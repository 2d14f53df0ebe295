import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// What a newcomer types that is nearly right: a mistyped value gets the one
/// it most likely meant, as a mistyped option does; the manual is found from
/// `--help`, `tactus man` and `--man`; small words of the output are right.
@Suite("Hints for a newcomer")
struct NewcomerHintsTests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-hints-\(UUID().uuidString)-\(name)"
    }

    @Test func mistypedValuesGetTheNearestChoice() throws {
        let d = try TactusProcess.run(["render", temporary("x.wav"), "--seconds", "1", "-d", "triplet"])
        #expect(d.status == 2)
        #expect(d.standardError == "tactus: -d 'triplet' is not valid: one of none, eighths, triplets, sixteenths, swing (did you mean triplets?)\n")
        #expect(throws: OptionError("tactus: --transport 'mastr' is not valid: " + OptionTable.transportAllowed + " (did you mean master?)")) {
            try OptionParser.parse(["--transport", "mastr"])
        }
        // Nothing near: no guess.
        #expect(throws: OptionError("tactus: --pulse 'xyzzy' is not valid: beat or dotted")) { try OptionParser.parse(["--pulse", "xyzzy"]) }
        let preset = try TactusProcess.run(["render", temporary("x.wav"), "--seconds", "1", "--preset", "Walz"])
        #expect(preset.status == 2)
        #expect(preset.standardError.hasPrefix("tactus: --preset: no preset is named \"Walz\" (did you mean Waltz?); "), "\(preset.standardError)")
        // A preset key without its unit, mistyped: the key it meant.
        let file = temporary("ofset.json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{ "format": 1, "name": "T", "tempo": 100, "clock": { "ofset": 3 } }"#.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try TactusProcess.run(["presets", "check", file])
        #expect(check.status == 2)
        #expect(check.standardError.contains("clock.ofset: unknown key (did you mean offsetMs?)"), "\(check.standardError)")
        #expect(Spelling.nearest(to: "offset", among: ["offsetMs", "sendWhileStopped"]) == "offsetMs")
        #expect(Spelling.nearest(to: "sendwhile", among: ["offsetMs", "sendWhileStopped"]) == nil, "a head of four letters or more, within two edits only")
        // A decimal comma.
        #expect(throws: OptionError("tactus: --bpm '97,3' is not valid: " + OptionTable.bpmAllowed + "; a decimal point, not a comma: 97.3")) {
            try OptionParser.parse(["--bpm", "97,3"])
        }
    }

    @Test func aStrayWordAfterRendersFileIsNamed() throws {
        let r = try TactusProcess.run(["render", temporary("x.wav"), "--seconds", "1", "system:playback_1"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: render needs exactly one output file: tactus render OUT.wav --seconds N "
                + "('system:playback_1' is one word too many; JACK ports belong to run)\n")
    }

    @Test func theManualIsFoundFromHelpManAndDashDashMan() throws {
        let help = try TactusProcess.run(["--help"])
        #expect(help.standardOutput.contains("The manual: man tactus once installed; from a clone, tactus --help-man | man -l -"))
        for words in [["man"], ["help"], ["--man"]] {
            let r = try TactusProcess.run(words)
            #expect(r.status == 2)
            #expect(r.standardError.hasSuffix(": the manual is man tactus once installed; from a clone, tactus --help-man | man -l -; tactus --help lists the commands\n"),
                    "\(words): \(r.standardError)")
        }
    }

    @Test func aPresetFileInTheCurrentFolderIsTakenByItsName() throws {
        let folder = temporary("cwd")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Here", "tempo": 100 }"#.write(toFile: folder + "/bad.map", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = TactusProcess.executable
        p.arguments = ["render", "out.wav", "--seconds", "1", "--preset", "bad.map"]
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        // Two clicks in a second at 100 BPM; one in half a second at 60: "1 click", not "1 clicks".
        #expect(text.contains(", 2 clicks, "), "\(text)")
        let single = temporary("one.wav")
        defer { try? FileManager.default.removeItem(atPath: single) }
        let one = try TactusProcess.run(["render", single, "--seconds", "0.5", "--bpm", "60"])
        #expect(one.standardOutput.contains(", 1 click, "), "\(one.standardOutput)")
    }
}
