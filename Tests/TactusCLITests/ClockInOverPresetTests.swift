import Foundation
import Testing
import TactusCore
@testable import TactusCLI

/// A preset's and `controller.json`'s `"clockIn"` (README "Following a MIDI
/// clock"): the command line wins, then the starting preset's, then the
/// controller's; refused, naming the file and field, where the run cannot
/// follow a clock; taken at start only.
@Suite("Clock in over presets and controller.json")
struct ClockInOverPresetTests {
    static func withPresets(_ files: [String: String], _ body: (PresetDirectories, String) throws -> Void) throws {
        try withTemporaryFolder { (folder: String) throws in
            try FileManager.default.createDirectory(atPath: folder + "/presets", withIntermediateDirectories: true)
            for (name, text) in files { try text.write(toFile: folder + "/presets/\(name).json", atomically: true, encoding: .utf8) }
            try body(PresetDirectories(shipped: folder + "/presets", user: nil), folder)
        }
    }

    static func started(_ words: [String], _ directories: PresetDirectories) throws -> Options {
        var options = try OptionParser.parse(words)
        try PresetStart(options: options, directories: directories).applySettings(to: &options)
        return options
    }

    static let presets = [
        "drums": #"{ "format": 1, "name": "Drums", "tempo": 120, "clockIn": "jack" }"#,
        "tr8s": #"{ "format": 1, "name": "TR8S", "tempo": 120, "clockIn": "alsa:TR-8S:0" }"#,
        "own": #"{ "format": 1, "name": "Own", "tempo": 120, "clockIn": "off" }"#,
    ]

    @Test func theStartingPresetsClockInputIsTheRunsUnlessTheCommandLineNamesOne() throws {
        try Self.withPresets(Self.presets) { directories, _ in
            let drums = try Self.started(["--preset", "Drums", "--connect-clock-in", "a2j:TR-8S:midi"], directories)
            #expect(drums.clockIn && drums.alsaClockFrom == nil)
            try drums.checkTimeSources()
            #expect(try RunCommand.jackOptions(drums, tempo: BPM(120)).clockIn, "the run makes clock_in and follows it")
            let tr8s = try Self.started(["--preset", "TR8S"], directories)
            #expect(!tr8s.clockIn && tr8s.alsaClockFrom == "TR-8S:0")
            #expect(try RunCommand.jackOptions(tr8s, tempo: BPM(120)).clockInFromALSA)
            let own = try Self.started(["--preset", "Own"], directories)
            #expect(!own.followsClock)
            // The command line's input wins; the preset's is not added to it.
            let pinned = try Self.started(["--preset", "Drums", "--alsa-clock-from", "20:0"], directories)
            #expect(!pinned.clockIn && pinned.alsaClockFrom == "20:0")
            let jack = try Self.started(["--preset", "TR8S", "--clock-in"], directories)
            #expect(jack.clockIn && jack.alsaClockFrom == nil)
        }
    }

    @Test func aPresetsClockInputTheRunCannotFollowIsRefusedNamingTheFileAndField() throws {
        try Self.withPresets(Self.presets) { directories, folder in
            var follow = try OptionParser.parse(["--preset", "Drums", "--transport", "follow"])
            let error = #expect(throws: PresetError.self) { try PresetStart(options: follow, directories: directories).applySettings(to: &follow) }
            #expect(error?.messages == [folder + "/presets/drums.json: clockIn: \"clockIn\": \"jack\" cannot be used with this run: --clock-in and --transport follow cannot be used together: the incoming clock owns start and stop; allowed: \(ClockInSchema.allowed)"])
            var noALSA = try OptionParser.parse(["--preset", "TR8S", "--no-alsa"])
            let alsa = #expect(throws: PresetError.self) { try PresetStart(options: noALSA, directories: directories).applySettings(to: &noALSA) }
            #expect(alsa?.messages.first?.hasPrefix(folder + "/presets/tr8s.json: clockIn: \"clockIn\": \"alsa:TR-8S:0\" cannot be used with this run: --alsa-clock-from and --no-alsa cannot be used together") == true,
                    "\(alsa?.messages ?? [])")
            // A conflict of the command line's own is its own, said by the check at start.
            var linkJoin = try Self.started(["--preset", "Drums", "--link", "--transport", "join"], directories)
            #expect(throws: OptionError.self) { try linkJoin.checkTimeSources() }
            linkJoin = try OptionParser.parse(["--connect-clock-in", "x:y"])
            #expect(throws: OptionError.self, "--connect-clock-in without any clock input") { try linkJoin.checkTimeSources() }
        }
    }

    @Test func controllerJSONsClockInputWhenNeitherTheCommandLineNorTheStartingPresetNamesOne() throws {
        let file = try ControllerTransportFileTests.decode(#", "clockIn": "alsa:TR-8S:0""#)
        #expect(file.clockIn == .alsa("TR-8S:0"))
        let text = ControllerFile.encode(file)
        #expect(text.contains("\"clockIn\": \"alsa:TR-8S:0\"\n"), "\(text)")
        #expect(try ControllerFile.decode(Array(text.utf8), path: "/c.json") == file)
        #expect(!ControllerFile.encode(try ControllerTransportFileTests.decode("")).contains("clockIn"), "an older Tactus reads the file")

        let free = try OptionParser.parse([])
        #expect(free.startClockIn(controller: file, preset: nil) == .alsa("TR-8S:0"))
        var own = Preset(name: "Own", tempo: BPM(120))
        #expect(free.startClockIn(controller: file, preset: own) == .alsa("TR-8S:0"), "a preset without the key")
        own.clockIn = .off
        #expect(free.startClockIn(controller: file, preset: own) == nil, "the starting preset's off: Tactus leads")
        #expect(try OptionParser.parse(["--clock-in"]).startClockIn(controller: file, preset: nil) == nil)
        #expect(free.startClockIn(controller: nil, preset: nil) == nil)
    }

    @Test func aBadClockInputInControllerJSONNamesTheFileAndTheFieldAsAPresetDoes() throws {
        do {
            _ = try ControllerTransportFileTests.decode(#", "clockIn": "usb""#)
            Issue.record("\"usb\" was taken")
        } catch {
            #expect(error.message == "tactus: /cfg/tactus/controller.json: field 'clockIn' \"usb\" is unknown; allowed: \(ClockInSchema.allowed)")
        }
    }

    @Test func theRunTakesTheFilesClockInputAndWhereItCannotFollowOneKeepsItsOwn() throws {
        try withTemporaryFolder { (folder: String) throws in
            let path = folder + "/tactus/controller.json"
            var settings = try ControllerTransportFileTests.decode("")
            settings.clockIn = .jack
            try ControllerFile.save(settings, path: path)
            var options = try OptionParser.parse(["--connect-clock-in", "a2j:Drums:midi"])
            options.applyControllerClockIn(path: path, preset: nil)
            #expect(options.clockIn)
            try options.checkTimeSources()
            var follow = try OptionParser.parse(["--transport", "follow"])
            follow.applyControllerClockIn(path: path, preset: nil)
            #expect(!follow.followsClock, "the DAW leads: the file's clock input is said and left")
            var missing = try OptionParser.parse([])
            missing.applyControllerClockIn(path: folder + "/none.json", preset: nil)
            #expect(!missing.followsClock)
        }
    }

    @Test func aSwitchToAPresetNamingAnotherClockInputSaysItIsTakenAtStartOnly() throws {
        var drums = Preset(name: "Drums", tempo: BPM(120))
        drums.clockIn = .jack
        var own = Preset(name: "Own", tempo: BPM(120))
        let free = try OptionParser.parse([])
        #expect(free.clockInSwitchRefusal(drums) == "\"clockIn\": \"jack\" is taken at start only: the clock input stays \"off\"")
        #expect(free.clockInSwitchRefusal(own) == nil, "a preset without the key")
        own.clockIn = .off
        #expect(free.clockInSwitchRefusal(own) == nil, "the input playing")
        let following = try OptionParser.parse(["--clock-in"])
        #expect(following.clockInSwitchRefusal(drums) == nil)
        #expect(following.clockInSwitchRefusal(own) == "\"clockIn\": \"off\" is taken at start only: the clock input stays \"jack\"")
    }
}
