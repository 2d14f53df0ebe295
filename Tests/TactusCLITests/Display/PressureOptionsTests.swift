import Testing
@testable import TactusCLI
import TactusCore

@Suite("Pressure settings of the run: preset, then controller.json, then the command line")
struct PressureOptionsTests {
    @Test func eachLayerWinsOverTheOneBefore() throws {
        var preset = PressureConfiguration()
        preset.mode = .continuous
        preset.upKey = UInt7(60)!
        preset.strongThreshold = 0.8
        let learned = ControllerSettings(channel: MIDIChannel(number: 3), upKey: UInt7(48)!, downKey: UInt7(47)!, presetKey: UInt7(46)!)
        let options = try OptionParser.parse(["--down-key", "40", "--pressure-mode", "levels"])
        let c = options.pressureConfiguration(base: preset, controller: learned)
        #expect(c.mode == .levels, "command line over preset")
        #expect(c.upKey == UInt7(48)!, "controller.json over preset")
        #expect(c.downKey == UInt7(40)!, "command line over controller.json")
        #expect(c.presetKey == UInt7(46)!)
        #expect(c.channel == MIDIChannel(number: 3))
        #expect(c.strongThreshold == 0.8, "what nobody else sets stays the preset's")
    }

    @Test func withNothingGivenTheDefaultsStay() throws {
        let c = try OptionParser.parse([]).pressureConfiguration()
        #expect(c == PressureConfiguration())
    }
}
