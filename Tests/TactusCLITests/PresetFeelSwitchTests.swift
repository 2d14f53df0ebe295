import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `--swing` and `--pulse` hold through every preset switch, as the clock
/// options do; without them each preset's own `swing` and `pulse` play, and a
/// preset that leaves them out is straight and on the meter's beat.
@Suite("Swing and pulse through preset switches")
struct PresetFeelSwitchTests {
    struct Run {
        let folder = NSTemporaryDirectory() + "tactus-feel-switch-\(UUID().uuidString)"
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        var switcher: PresetSwitcher
        let start: BarSettings

        init(_ arguments: [String]) throws {
            try FileManager.default.createDirectory(atPath: folder + "/presets", withIntermediateDirectories: true)
            for (file, text) in [
                ("start", #"{ "format": 1, "name": "Start", "tempo": 120, "meter": "6/8" }"#),
                ("jig", #"{ "format": 1, "name": "Jig", "tempo": 180, "meter": "12/8", "swing": 0.55, "pulse": "dotted" }"#),
                ("plain", #"{ "format": 1, "name": "Plain", "tempo": 90, "meter": "9/8" }"#),
                ("triplets", #"{ "format": 1, "name": "Triplets", "tempo": 100, "subdivision": "triplets" }"#),
            ] {
                try text.write(toFile: folder + "/presets/\(file).json", atomically: true, encoding: .utf8)
            }
            var options = try OptionParser.parse(["--preset", "Start"] + arguments)
            let presets = try PresetStart(options: options, directories: PresetDirectories(shipped: folder + "/presets", user: nil))
            try presets.applySettings(to: &options)
            start = try presets.settings(options).bar
            control.initialize(to: EngineControl())
            let jack = try RunCommand.jackOptions(options, tempo: BPM(120))
            let session = RunCommand.controlSession(options, jack: jack, control: control, presets: presets,
                                                    environment: ["XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder], inputs: [])
            switcher = try #require(session.presets)
        }

        /// The bar the engine is asked for by a switch to `name`.
        mutating func switchTo(_ name: String) throws -> BarSettings? {
            guard case .switched = switcher.select(named: name, control: control.pointee) else { Issue.record("not switched to \(name)"); return nil }
            var bar: BarSettings?
            while let c = control.pointee.commands.pop() {
                if case .changeBar(let settings, _, _, _, _, _) = c { bar = settings }
            }
            return bar
        }

        func remove() {
            control.deinitialize(count: 1)
            control.deallocate()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test("--swing 0.6 --pulse dotted: every preset's eighths swung at 0.6 and its compound meter on the dotted quarter")
    func theCommandLineHolds() throws {
        var run = try Run(["--swing", "0.6", "--pulse", "dotted"])
        defer { run.remove() }
        #expect(run.start.swingRatio == 0.6 && run.start.subdivision == .eighths && run.start.pulse == .dotted)
        let jig = try #require(try run.switchTo("Jig"))
        #expect(jig.meter == Meter("12/8") && jig.swingRatio == 0.6 && jig.subdivision == .eighths && jig.pulse == .dotted)
        let plain = try #require(try run.switchTo("Plain"))
        #expect(plain.meter == Meter("9/8") && plain.swingRatio == 0.6 && plain.subdivision == .eighths && plain.pulse == .dotted)
        // Triplets cannot swing: the preset's triplets play, unswung, on the dotted pulse still asked for.
        let triplets = try #require(try run.switchTo("Triplets"))
        #expect(triplets.subdivision == .triplets && triplets.pulse == .dotted && triplets.swingRatio == 0)
    }

    @Test("Without the options: Jig's own swing 0.55 and dotted pulse, then Plain straight and on the eighth")
    func eachPresetsOwnFeel() throws {
        var run = try Run([])
        defer { run.remove() }
        #expect(run.start.swingRatio == 0 && run.start.pulse == .beat)
        let jig = try #require(try run.switchTo("Jig"))
        #expect(jig.swingRatio == 0.55 && jig.subdivision == .eighths && jig.pulse == .dotted)
        let plain = try #require(try run.switchTo("Plain"))
        #expect(plain.swingRatio == 0 && plain.subdivision == .none && plain.pulse == .beat)
    }

    @Test("presets check: a good swing and pulse pass; a bad one of each is named with what is allowed, exit 2")
    func theCheckerKnowsThem() throws {
        let folder = NSTemporaryDirectory() + "tactus-feel-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Jig", "tempo": 180, "meter": "6/8", "swing": 0.6, "pulse": "dotted" }"#
            .write(toFile: folder + "/good.json", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Bad", "tempo": 180, "swing": 0.9, "pulse": "half" }"#
            .write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Sixteenths", "tempo": 180, "subdivision": "sixteenths", "swing": 0.6 }"#
            .write(toFile: folder + "/sixteenths.json", atomically: true, encoding: .utf8)
        #expect(try TactusProcess.run(["presets", "check", folder + "/good.json"]).status == 0)
        let bad = try TactusProcess.run(["presets", "check", folder + "/bad.json", folder + "/sixteenths.json"])
        #expect(bad.status == 2)
        #expect(bad.standardError == """
            \(folder)/bad.json: line 1, column 54: swing: 0.9 is out of range; allowed: a number from 0.5 to 0.75 (the off-beat eighth at this fraction of the beat: 0.5 straight, 2/3 the triplet shuffle)
            \(folder)/bad.json: line 1, column 68: pulse: "half" is unknown; allowed: one of beat, dotted
            \(folder)/sixteenths.json: line 1, column 90: swing: swing swings eighths: it does not go with the subdivision sixteenths; allowed: subdivision "eighths" or left out (swing then clicks eighths)

            """)
    }

    @Test("A preset's swing and pulse render as --swing and --pulse do")
    func aPresetsFeelRendersAsTheOptions() throws {
        let folder = NSTemporaryDirectory() + "tactus-feel-render-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": 1, "name": "Shuffle", "tempo": 100, "swing": 0.6 }"#.write(toFile: folder + "/shuffle.json", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Jig", "tempo": 180, "meter": "6/8", "pulse": "dotted" }"#.write(toFile: folder + "/jig.json", atomically: true, encoding: .utf8)
        func render(_ name: String, _ arguments: [String]) throws -> [Float] {
            let r = try TactusProcess.run(["render", folder + "/\(name).wav", "--format", "float", "--seconds", "6"] + arguments)
            #expect(r.status == 0, "\(r.standardError)")
            return try WAVReader.read(path: folder + "/\(name).wav").samples
        }
        let shuffle = try render("shuffle", ["--preset", folder + "/shuffle.json"])
        #expect(shuffle == (try render("swing", ["--bpm", "100", "--swing", "0.6"])))
        // Swung: the off-beat eighth 0.6 of a beat (17 280 frames) after the beat, not half (14 400).
        let onsets = clickOnsets(shuffle)
        #expect(onsets.prefix(4) == [0, 17_280, 28_800, 46_080], "\(onsets.prefix(4))")
        #expect(onsets.count == clickOnsets(try render("straight", ["--bpm", "100", "--subdivision", "eighths"])).count)
        let jig = try render("jig", ["--preset", folder + "/jig.json"])
        #expect(jig == (try render("dotted", ["--bpm", "180", "--meter", "6/8", "--pulse", "dotted"])))
        #expect(jig != (try render("eighths", ["--bpm", "180", "--meter", "6/8"])))
    }
}
