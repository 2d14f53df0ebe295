import Foundation
import Testing
import TactusCore
@testable import TactusCLI

/// `controller.json`'s `"transport"` (README "JACK transport"): read as a
/// preset's is (`TransportSchema`), written back by `tactus learn`, and the
/// run's mode at start when neither `--transport` nor the starting preset
/// gives one.
@Suite("controller.json transport")
struct ControllerTransportFileTests {
    static let keys = #""version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70, "calibration": {"deadZone": 0, "maximum": 127, "curve": "linear"}"#

    static func decode(_ extra: String, path: String = "/cfg/tactus/controller.json") throws(OptionError) -> ControllerSettings {
        try ControllerFile.decode(Array(("{" + keys + extra + "}").utf8), path: path)
    }

    static func preset(_ transport: JackTransportMode?) -> Preset {
        var p = Preset(name: "P", tempo: BPM(120))
        p.transport = transport
        return p
    }

    @Test func everyModeReadsAndIsWrittenBackAndNoneIsNil() throws {
        for mode in JackTransportMode.allCases {
            let settings = try Self.decode(#", "transport": "\#(mode.rawValue)""#)
            #expect(settings.transport == mode)
            let text = ControllerFile.encode(settings)
            #expect(text.contains("\"transport\": \"\(mode.rawValue)\"\n"), "\(text)")
            #expect(try ControllerFile.decode(Array(text.utf8), path: "/c.json") == settings)
        }
        let none = try Self.decode("")
        #expect(none.transport == nil)
        #expect(!ControllerFile.encode(none).contains("transport"), "an older Tactus reads the file")
    }

    @Test func aBadModeNamesTheFileTheFieldAndTheFiveModesAsAPresetDoes() throws {
        var messages: [String] = []
        for bad in [#""dj""#, "true", "3"] {
            do {
                _ = try Self.decode(#", "transport": \#(bad)"#)
                Issue.record("\(bad) was taken")
            } catch {
                messages.append(error.message)
            }
        }
        #expect(messages == [
            #"tactus: /cfg/tactus/controller.json: field 'transport' "dj" is unknown; allowed: one of off, join, master, master-force, follow"#,
            "tactus: /cfg/tactus/controller.json: field 'transport' found true; allowed: one of off, join, master, master-force, follow",
            "tactus: /cfg/tactus/controller.json: field 'transport' found 3; allowed: one of off, join, master, master-force, follow",
        ])
        // The preset's message for the same value: the same words after its path.
        let presetError = #expect(throws: PresetError.self) {
            try Preset.decode(Array(#"{ "format": 1, "name": "DJ", "tempo": 120, "transport": "dj" }"#.utf8), file: "dj.json")
        }
        #expect(presetError?.messages == [#"dj.json: transport: "dj" is unknown; allowed: one of off, join, master, master-force, follow"#])
    }

    @Test func theCommandLineWinsThenTheStartingPresetThenControllerJSON() throws {
        let file = try Self.decode(#", "transport": "master""#)
        let free = try OptionParser.parse([])
        #expect(free.startTransport(controller: file, preset: nil) == .master)
        #expect(free.startTransport(controller: file, preset: Self.preset(nil)) == .master, "a preset without the key")
        #expect(free.startTransport(controller: nil, preset: nil) == .off)
        #expect(free.startTransport(controller: try Self.decode(""), preset: nil) == .off)
        // The starting preset's mode is in `transport` already (`PresetStart.applySettings`).
        var fromPreset = free
        fromPreset.transport = .follow
        #expect(fromPreset.startTransport(controller: file, preset: Self.preset(.follow)) == .follow)
        #expect(fromPreset.startTransport(controller: file, preset: Self.preset(.off)) == .follow)
        let pinned = try OptionParser.parse(["--transport", "join"])
        #expect(pinned.startTransport(controller: file, preset: nil) == .join)
        #expect(try OptionParser.parse(["--transport", "off"]).startTransport(controller: file, preset: nil) == .off)
    }

    @Test func theRunTakesTheFilesModeAndWithLinkSaysWhyNotAndKeepsItsOwn() throws {
        try withTemporaryFolder { (folder: String) throws in
            let path = folder + "/tactus/controller.json"
            var settings = try Self.decode("")
            settings.transport = .join
            try ControllerFile.save(settings, path: path)
            var options = try OptionParser.parse([])
            options.applyControllerTransport(path: path, preset: nil)
            #expect(options.transport == .join)
            var link = try OptionParser.parse(["--link"])
            link.applyControllerTransport(path: path, preset: nil)
            #expect(link.transport == .off, "join with Link is no row of docs/DESIGN.md §9")
            var missing = try OptionParser.parse([])
            missing.applyControllerTransport(path: folder + "/none.json", preset: nil)
            #expect(missing.transport == .off)
        }
    }
}
