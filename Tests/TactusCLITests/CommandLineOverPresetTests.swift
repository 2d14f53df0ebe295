import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `--clock-offset`, `--clock-while-stopped` and `--no-song-position` hold at
/// start and through every preset switch of the run mode's control session:
/// a preset never undoes what the player asked for on the command line.
@Suite("Command-line clock options over presets")
struct CommandLineOverPresetTests {
    @Test func theCommandLinesClockOptionsHoldThroughAPresetSwitch() throws {
        let folder = NSTemporaryDirectory() + "tactus-clock-over-preset-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/presets", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Start", "tempo": 120, "clock": { "offsetMs": 5, "sendWhileStopped": false } }"#
            .write(toFile: folder + "/presets/start.json", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Next", "tempo": 90, "clock": { "offsetMs": 20, "sendWhileStopped": false, "sendSongPosition": true } }"#
            .write(toFile: folder + "/presets/next.json", atomically: true, encoding: .utf8)

        var options = try OptionParser.parse(["--preset", "Start", "--clock-offset", "7", "--clock-while-stopped", "--no-song-position"])
        let start = try PresetStart(options: options, directories: PresetDirectories(shipped: folder + "/presets", user: nil))
        try start.applySettings(to: &options)
        // At start: 7 ms, clock while stopped, no Song Position, whatever the preset says.
        #expect(options.clock == ClockOptions(offsetMilliseconds: 7, sendWhileStopped: true, sendSongPosition: false))

        let jack = try RunCommand.jackOptions(options, tempo: BPM(120))
        #expect(jack.clockOffsetMilliseconds == 7 && jack.engine.clockWhileStopped && !jack.engine.sendSongPosition)
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let session = RunCommand.controlSession(options, jack: jack, control: control, presets: start,
                                                environment: ["XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder], inputs: [])
        var switcher = try #require(session.presets)
        guard case .switched = switcher.select(named: "Next", control: control.pointee) else { Issue.record("not switched"); return }
        var commands: [EngineCommand] = []
        while let c = control.pointee.commands.pop() { commands.append(c) }
        var offset: Int32?, whileStopped: Bool?, songPosition: Bool?
        for c in commands {
            switch c {
            case .setClockOffset(let frames): offset = frames
            case .setClockWhileStopped(let on): whileStopped = on
            case .setSongPositionEnabled(let on): songPosition = on
            default: break
            }
        }
        // The switch to "Next" (20 ms, no clock while stopped, Song Position): still 7 ms = 336 frames at 48 kHz, on, off.
        #expect(offset == 336 && whileStopped == true && songPosition == false, "\(commands)")
        #expect(switcher.current?.preset.clock.offsetMilliseconds == 7)
    }
}
