import Foundation
import Testing
@testable import TactusCore

@Suite("Preset file format")
struct PresetFormatTests {
    @Test func onlyNameAndTempoAreNeededAndTheRestTakesTheEngineDefaults() throws {
        let preset = try decode(#"{ "name": "Bare", "tempo": 97.3 }"#)
        #expect(preset == Preset(name: "Bare", tempo: BPM(hundredths: 9730)))
        #expect(preset.bar == BarSettings(meter: .fourFour, accents: AccentPattern("Xxxx"), subdivision: .none))
        #expect(preset.pressure == PressureConfiguration())
        #expect(preset.clock == ClockOptions(offsetMilliseconds: 0, sendWhileStopped: false, sendSongPosition: true))
        #expect(preset.sounds.gains == SoundGains())
        #expect(preset.program == nil)
    }

    @Test func aMeterWithoutAccentsGetsTheStandardBarOfThatMeter() throws {
        let preset = try decode(#"{ "name": "Seven", "tempo": 133, "meter": "7/8" }"#)
        #expect(preset.bar.accents.description == "Xxxxxxx")
    }

    @Test func everyFieldIsReadIntoItsProperty() throws {
        let preset = try decode("""
        { "format": 1, "name": "Full", "program": 9, "tempo": 133.25, "meter": "7/8", "accents": "X.xXx.x", "subdivision": "triplets",
          "sounds": { "accent": { "sample": "samples/hi.wav", "gain": 0.9 }, "beat": { "sample": "builtin", "gain": 0.8 },
                      "subdivision": { "gain": 0.25 }, "feedback": { "gain": 0.5, "commit": "/tmp/commit.WAV" } },
          "clock": { "offsetMs": -12.5, "sendWhileStopped": true, "sendSongPosition": false },
          "pressure": { "mode": "continuous", "channel": 10, "upKey": 60, "downKey": 59, "presetKey": 58, "tapStep": 2,
                        "strongThreshold": 0.8, "strongRelease": 0.75, "ticksPerStep": 3, "continuousCurve": "logarithmic",
                        "calibration": { "deadZone": 3, "maximum": 110, "curve": "exponential" }, "stuckKeyTimeout": 5 } }
        """)
        #expect(preset.name == "Full")
        #expect(preset.program == UInt7(9))
        #expect(preset.tempo == BPM(hundredths: 13_325))
        #expect(preset.bar == BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, accents: AccentPattern("X.xXx.x"), subdivision: .triplets))
        #expect(preset.sounds.accent == .file("samples/hi.wav"))
        #expect(preset.sounds.commit == .file("/tmp/commit.WAV"))
        #expect(preset.sounds.beat == .builtin)
        #expect(preset.sounds.gains == SoundGains(accent: 0.9, beat: 0.8, subdivision: 0.25, feedback: 0.5))
        #expect(preset.clock == ClockOptions(offsetMilliseconds: -12.5, sendWhileStopped: true, sendSongPosition: false))
        var pressure = PressureConfiguration()
        pressure.mode = .continuous
        pressure.channel = MIDIChannel(number: 10)
        pressure.upKey = UInt7(60)!
        pressure.downKey = UInt7(59)!
        pressure.presetKey = UInt7(58)!
        pressure.tapStep = 2
        pressure.strongThreshold = 0.8
        pressure.strongRelease = 0.75
        pressure.ticksPerStep = 3
        pressure.continuousCurve = .logarithmic
        pressure.calibration = .init(deadZone: 3, maximum: 110, curve: .exponential)
        pressure.stuckKeyTimeout = 5
        #expect(preset.pressure == pressure)
        #expect(preset.clock.offsetFrames(sampleRate: 48_000) == -600)
    }

    @Test func aRelativeSamplePathIsTakenFromThePresetsFolder() {
        #expect(SampleChoice.file("hi.wav").path(presetFile: "/home/a/.config/tactus/presets/x.json", home: "/home/a") == "/home/a/.config/tactus/presets/hi.wav")
        #expect(SampleChoice.file("~/s/hi.wav").path(presetFile: "/p/x.json", home: "/home/a") == "/home/a/s/hi.wav")
        #expect(SampleChoice.file("/s/hi.wav").path(presetFile: "/p/x.json", home: "/home/a") == "/s/hi.wav")
        #expect(SampleChoice.builtin.path(presetFile: "/p/x.json", home: nil) == nil)
    }

    /// Another part of Tactus owns `PressureConfiguration`; a property added there
    /// without its line in `PressureSchema` must not be silently unreachable from presets.
    @Test func everyPressureSettingHasItsPresetKeyNamedAfterTheProperty() {
        let properties = Mirror(reflecting: PressureConfiguration()).children.compactMap(\.label)
        #expect(PressureSchema.pressure.keys == properties)
        let calibration = Mirror(reflecting: PressureConfiguration.Calibration()).children.compactMap(\.label)
        #expect(PressureSchema.calibration.keys == calibration)
    }

    @Test func everyPressureSettingSurvivesARoundTrip() throws {
        var preset = Preset(name: "All pressure", tempo: BPM(100))
        // A value different from the default for every property, so a key read into the wrong property shows.
        var p = PressureConfiguration()
        p.mode = .continuous; p.channel = MIDIChannel(number: 16); p.upKey = UInt7(1)!; p.downKey = UInt7(2)!; p.presetKey = UInt7(3)!
        p.tapStep = 4; p.lightThreshold = 0.05; p.lightRelease = 0.04; p.strongThreshold = 0.6; p.strongRelease = 0.55
        p.holdDelay = 0.4; p.stepTimer = 0.09; p.ticksPerStep = 3; p.lightStep = 2; p.strongStep = 12
        p.longPressDelay = 0.6; p.longPressInterval = 0.11; p.longPressSlowSteps = 21; p.longPressMediumSteps = 66
        p.longPressSlowAmount = 1.5; p.longPressMediumAmount = 2.5; p.longPressFastAmount = 6
        p.continuousMinimumRate = 3; p.continuousMaximumRate = 61; p.continuousCurve = .exponential
        p.deepPressMinimumHold = 0.3; p.deepPressThreshold = 0.8; p.calibration = .init(deadZone: 4, maximum: 120, curve: .logarithmic)
        p.stuckKeyTimeout = 11
        preset.pressure = p
        #expect(Mirror(reflecting: p).children.count == Mirror(reflecting: PressureConfiguration()).children.count)
        #expect(try decode(preset.encoded()) == preset)
    }

    @Test func theEncodedFileListsEveryKeyInSchemaOrder() throws {
        let text = Preset(name: "Defaults", tempo: BPM(120)).encoded()
        let json = try JSONReader.parse(Array(text.utf8))
        guard case .object(let members) = json else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["format", "name", "tempo", "meter", "accents", "subdivision", "sounds", "clock", "pressure", "link"])
        #expect(text.hasPrefix("{\n  \"format\": 1,\n  \"name\": \"Defaults\",\n  \"tempo\": 120,\n  \"meter\": \"4/4\",\n  \"accents\": \"Xxxx\",\n  \"subdivision\": \"none\",\n  \"sounds\": {\n    \"accent\": {\n      \"sample\": \"builtin\",\n      \"gain\": 1\n    },"))
        #expect(text.contains("\"strongRelease\": 0.665,"))
        #expect(text.contains("\"channel\": \"omni\","))
    }

    @Test func theShippedLibraryHasTheAdvertisedPresets() throws {
        let files = try #require(PresetDirectories.presetFiles(in: shippedPresetsFolder))
        #expect(files.count >= 12)
        let names = try Set(files.map { try PresetFile.load(path: $0).name })
        for name in ["Largo", "Adagio", "Andante", "Moderato", "Allegro", "Presto", "Prestissimo", "Slow practice 60, 16ths",
                     "Swing feel", "6/8 (3+3)", "7/8 (2+2+3)", "Waltz", "Pressure: levels", "Pressure: continuous"] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test func theClassicalMarksRiseInTempoWithTheirProgramNumbers() throws {
        let marks = ["largo": 50, "adagio": 70, "andante": 92, "moderato": 114, "allegro": 138, "presto": 184, "prestissimo": 208]
        for (i, mark) in ["largo", "adagio", "andante", "moderato", "allegro", "presto", "prestissimo"].enumerated() {
            let preset = try PresetFile.load(path: "\(shippedPresetsFolder)/\(mark).json")
            #expect(preset.tempo == BPM(Double(marks[mark]!)))
            #expect(preset.program == UInt7(i))
        }
        let sevenEight = try PresetFile.load(path: shippedPresetsFolder + "/seven-eight.json")
        #expect(sevenEight.bar.accents.description == "XxXxXxx")
        #expect(try PresetFile.load(path: shippedPresetsFolder + "/swing.json").bar.subdivision == .swing)
        #expect(try PresetFile.load(path: shippedPresetsFolder + "/slow-practice-60-sixteenths.json").bar.subdivision == .sixteenths)
        #expect(try PresetFile.load(path: shippedPresetsFolder + "/pressure-continuous.json").pressure.mode == .continuous)
        #expect(try PresetFile.load(path: shippedPresetsFolder + "/pressure-levels.json").pressure.mode == .levels)
    }

    @Test("every shipped preset decodes, validates and re-encodes to an equal preset",
          arguments: PresetDirectories.presetFiles(in: shippedPresetsFolder) ?? [])
    func shippedPresetRoundTrips(_ file: String) throws {
        let preset = try PresetFile.load(path: file)
        let text = preset.encoded()
        let again = try decode(text, file: file + " (re-encoded)")
        #expect(again == preset)
        // Writing is stable: the re-encoded text encodes to itself.
        #expect(again.encoded() == text)
    }
}
