import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// A preset's `"transport"` at start and on a switch, against `--transport`
/// on the command line (which pins the mode) and `--link` (not with JACK
/// transport yet).
@Suite("Command-line transport over presets")
struct TransportOverPresetTests {
    static func preset(_ transport: JackTransportMode?) -> Preset {
        var p = Preset(name: "P", tempo: BPM(120))
        p.transport = transport
        return p
    }

    @Test func aPresetsModeIsTakenUnlessTheCommandLinePinnedItOrThePresetSaysNothing() throws {
        let free = try OptionParser.parse([])
        #expect(free.transport(of: Self.preset(.master), playing: .join) == .master)
        #expect(free.transport(of: Self.preset(.off), playing: .follow) == .off)
        #expect(free.transport(of: Self.preset(.join), playing: .join) == nil, "the mode playing: nothing to change")
        #expect(free.transport(of: Self.preset(nil), playing: .master) == nil, "a preset without the key keeps the mode")
        let pinned = try OptionParser.parse(["--transport", "off"])
        #expect(pinned.transportPinned)
        for mode in JackTransportMode.allCases { #expect(pinned.transport(of: Self.preset(mode), playing: .off) == nil) }
    }

    @Test func theStartingPresetsModeIsTheRunsUnlessPinnedAndNotWithLink() throws {
        let folder = NSTemporaryDirectory() + "tactus-transport-over-preset-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/presets", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Follow", "tempo": 120, "transport": "follow" }"#
            .write(toFile: folder + "/presets/follow.json", atomically: true, encoding: .utf8)
        let directories = PresetDirectories(shipped: folder + "/presets", user: nil)

        var options = try OptionParser.parse(["--preset", "Follow"])
        try PresetStart(options: options, directories: directories).applySettings(to: &options)
        #expect(options.transport == .follow)
        #expect(try RunCommand.jackOptions(options, tempo: BPM(120)).transport == .follow)

        var pinned = try OptionParser.parse(["--preset", "Follow", "--transport", "join"])
        try PresetStart(options: pinned, directories: directories).applySettings(to: &pinned)
        #expect(pinned.transport == .join)

        var linked = try OptionParser.parse(["--preset", "Follow", "--link"])
        let error = #expect(throws: PresetError.self) { try PresetStart(options: linked, directories: directories).applySettings(to: &linked) }
        #expect(error?.messages == [folder + "/presets/follow.json: transport: \"transport\": \"follow\" cannot be used with Link: the transport mode stays as it is (Link goes with off, master or master-force); allowed: \"off\", \"master\" or \"master-force\" with Link; any mode without it"])
    }
}
