import Foundation
import Testing
import TactusCore
@testable import TactusCLI

/// A fresh folder under the system's temporary directory, removed afterwards.
func withTemporaryFolder(_ body: (String) throws -> Void) rethrows {
    let folder = NSTemporaryDirectory() + "tactus-test-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
}

@Suite("Pressure control files: controller.json, last tempo, learn")
struct PressureFilesTests {
    let settings = ControllerSettings(channel: MIDIChannel(number: 2)!, upKey: UInt7(60)!, downKey: UInt7(59)!, presetKey: UInt7(57)!,
                                      calibration: .init(deadZone: 2, maximum: 112, curve: .exponential))

    @Test func xdgPathsDefaultUnderHomeAndIgnoreRelativeValues() {
        #expect(UserFiles.controllerFile(["HOME": "/home/ann"]) == "/home/ann/.config/tactus/controller.json")
        #expect(UserFiles.lastTempoFile(["HOME": "/home/ann"]) == "/home/ann/.local/state/tactus/last-tempo")
        #expect(UserFiles.controllerFile(["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"]) == "/cfg/tactus/controller.json")
        #expect(UserFiles.lastTempoFile(["HOME": "/home/ann", "XDG_STATE_HOME": "relative"]) == "/home/ann/.local/state/tactus/last-tempo")
    }

    @Test func controllerFileRoundTrips() throws {
        try withTemporaryFolder { (folder: String) throws in
            let path = folder + "/tactus/controller.json"
            #expect(try ControllerFile.load(path: path) == nil)
            try ControllerFile.save(settings, path: path)
            #expect(try ControllerFile.load(path: path) == settings)
            var omni = settings
            omni.channel = nil
            omni.hasAftertouch = false
            try ControllerFile.save(omni, path: path)
            #expect(try ControllerFile.load(path: path) == omni)
        }
    }

    func error(_ json: String) -> String? {
        do {
            _ = try ControllerFile.decode(Array(json.utf8), path: "/c.json")
            return nil
        } catch {
            return error.message
        }
    }

    let good = #""version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70"#
    let calibration = #""calibration": {"deadZone": 0, "maximum": 127, "curve": "linear"}"#

    @Test func controllerFileErrorsNameTheFileAndTheField() {
        #expect(error("{" + good + ", " + calibration + "}") == nil)
        #expect(error("{") == "tactus: /c.json is not valid JSON: line 1, column 2: the file ends inside an object (expected a key): it is truncated")
        #expect(error("[1]") == "tactus: /c.json: must be a JSON object")
        #expect(error("{" + good + ", " + calibration + #", "upkey": 3}"#)
                == "tactus: /c.json: field 'upkey' is not known (known fields: version, channel, upKey, downKey, presetKey, hasAftertouch, calibration, actions, transport, clockIn)")
        #expect(error(#"{"version": 1, "channel": 17, "upKey": 72, "downKey": 71, "presetKey": 70, "# + calibration + "}")
                == #"tactus: /c.json: field 'channel' 17 is not a channel: 1 to 16, or "omni""#)
        #expect(error(#"{"version": 1, "channel": 1, "upKey": true, "downKey": 71, "presetKey": 70, "# + calibration + "}")
                == "tactus: /c.json: field 'upKey' true is not a whole number from 0 to 127")
        #expect(error(#"{"version": 1, "channel": 1, "upKey": 71, "downKey": 71, "presetKey": 70, "# + calibration + "}")
                == "tactus: /c.json: field 'presetKey' upKey 71, downKey 71 and presetKey 70 must be three different notes")
        #expect(error("{" + good + #", "calibration": {"deadZone": 0, "maximum": 200, "curve": "linear"}}"#)
                == "tactus: /c.json: field 'calibration.maximum' 200 is not a whole number from 1 to 127")
        #expect(error("{" + good + #", "calibration": {"deadZone": 50, "maximum": 50, "curve": "linear"}}"#)
                == "tactus: /c.json: field 'calibration.deadZone' 50 must be below the maximum 50")
        #expect(error("{" + good + #", "calibration": {"deadZone": 0, "maximum": 100, "curve": "cubic"}}"#)
                == #"tactus: /c.json: field 'calibration.curve' "cubic": must be one of linear, exponential, logarithmic"#)
        #expect(error("{" + good + "}") == "tactus: /c.json: field 'calibration' is missing")
        #expect(error(#"{"version": 2, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70, "# + calibration + "}")
                == "tactus: /c.json: field 'version' 2 is not a whole number from 1 to 1")
    }

    @Test func controllerFileSyntaxErrorsNameTheLineAndColumn() {
        #expect(error(#"{"version": 1, "version": 1}"#)
                == #"tactus: /c.json is not valid JSON: line 1, column 16: the key "version" appears twice in the same object"#)
        #expect(error("{\n" + good + ",\n" + calibration + ",\n}")
                == "tactus: /c.json is not valid JSON: line 4, column 1: unexpected '}' where a key in double quotes was expected")
    }

    @Test func aControllerFileThatCannotBeWrittenNamesTheFolderInTheWay() throws {
        try withTemporaryFolder { (folder: String) throws in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "".write(toFile: folder + "/config", atomically: true, encoding: .utf8)
            let path = folder + "/config/tactus/controller.json"
            #expect(throws: OptionError("tactus: cannot write \(path): \(folder)/config: Not a directory")) {
                try ControllerFile.save(settings, path: path)
            }
            #expect(throws: OptionError("tactus: cannot read \(path): Not a directory")) { try ControllerFile.load(path: path) }
        }
    }

    @Test func lastTempoSavesAndRestoresTwoDecimals() throws {
        try withTemporaryFolder { (folder: String) throws in
            let store = LastTempoStore(path: folder + "/state/tactus/last-tempo")
            #expect(try store.load() == nil)
            try store.save(BPM(97.3))
            #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "97.30\n")
            #expect(try store.load() == BPM(97.3))
            try store.save(BPM(133))
            #expect(try store.load() == BPM(133))
        }
    }

    @Test func aDamagedLastTempoFileIsOneClearError() throws {
        try withTemporaryFolder { (folder: String) throws in
            let store = LastTempoStore(path: folder + "/last-tempo")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for bad in ["fast\n", "1000\n", "120.005\n", ""] {
                try bad.write(toFile: store.path, atomically: true, encoding: .utf8)
                #expect(throws: OptionError.self) { try store.load() }
            }
            try "fast\n".write(toFile: store.path, atomically: true, encoding: .utf8)
            #expect(throws: OptionError("tactus: \(store.path) holds 'fast', not a tempo from 1 to 999 with two decimals at most; ignoring it")) {
                try store.load()
            }
        }
    }

    @Test func learnConversationSavesTheControllerFileAndPrintsIt() throws {
        try withTemporaryFolder { (folder: String) throws in
            let ch = MIDIChannel(number: 1)!
            var script: [MIDIMessage] = [60, 59, 57].map { .noteOn(channel: ch, note: UInt7($0)!, velocity: UInt7(80)!) }
            script += [.noteOn(channel: ch, note: UInt7(60)!, velocity: UInt7(80)!), .channelPressure(channel: ch, pressure: UInt7(1)!),
                       .noteOff(channel: ch, note: UInt7(60)!, velocity: .zero)]
            script += [.noteOn(channel: ch, note: UInt7(60)!, velocity: UInt7(80)!), .channelPressure(channel: ch, pressure: UInt7(118)!),
                       .noteOff(channel: ch, note: UInt7(60)!, velocity: .zero)]
            var lines: [String] = []
            let path = folder + "/tactus/controller.json"
            var iterator = script.makeIterator()
            let status = LearnCommand.converse(next: { iterator.next() }, say: { lines.append($0) }, path: path)
            #expect(status == 0)
            #expect(try ControllerFile.load(path: path)
                    == ControllerSettings(channel: ch, upKey: UInt7(60)!, downKey: UInt7(59)!, presetKey: UInt7(57)!,
                                          calibration: .init(deadZone: 1, maximum: 118, curve: .linear)))
            #expect(lines.suffix(6) == ["Saved to \(path):", "  up key:     60 (C4)", "  down key:   59 (B3)", "  preset key: 57 (A3)",
                                        "  channel:    1", "  pressure:   dead zone 1, maximum 118, curve linear"])
        }
    }

    @Test func learnGivesUpWithoutSavingWhenTheControllerIsSilent() throws {
        try withTemporaryFolder { (folder: String) throws in
            var lines: [String] = []
            let path = folder + "/controller.json"
            #expect(LearnCommand.converse(next: { nil }, say: { lines.append($0) }, path: path) == 1)
            #expect(lines.last == "tactus: no MIDI from the controller for 60 s: nothing saved (is it connected to tactus:control?)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
