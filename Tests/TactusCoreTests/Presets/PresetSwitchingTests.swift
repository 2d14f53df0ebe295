import Testing
@testable import TactusCore

/// Switching presets on a running engine, checked frame by frame on the one
/// timing path (`Engine.render`), 48 kHz, 256-frame blocks as a JACK period.
@Suite("Preset switching")
struct PresetSwitchingTests {
    static let fourFour120 = #"{ "format": 1, "name": "Four", "tempo": 120, "meter": "4/4" }"#
    static let sevenEight133 = #"{ "format": 1, "name": "Seven", "tempo": 133, "meter": "7/8", "accents": "X.xXx.x" }"#

    @Test func fourFourAt120ToSevenEightAt133LandsOnTheBarLineWithNoTickLostOrDoubled() throws {
        let four = try decode(PresetSwitchingTests.fourFour120)
        let seven = try decode(PresetSwitchingTests.sevenEight133)
        let h = EngineHarness(four.engineConfiguration(sampleRate: 48_000))
        h.control.pointee.commands.push(.start)
        // Mid-bar 1: 4/4 at 120 is 1000 frames a clock, 24 000 a beat, the bar line at 96 000.
        h.render(until: 40_192)
        let pushed = seven.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar)
        #expect(pushed)
        #expect(h.control.pointee.commands.peek()?.tempo == BPM(133), "the tempo rides on the bar change")
        let end: Int64 = 96_000 + 2 * 151_579 + 10_000
        h.render(until: end)

        // MIDI clock: every 1000 frames up to the bar line, then 7/8 at 133 eighths a
        // minute: 12 clocks an eighth, 48 000 × 60 / 133 / 12 = 1804.51 frames a clock,
        // each placed from the bar line (the new anchor) by rounding, never accumulated.
        var expected = (0..<96).map { Int64($0) * 1000 }
        var k: Int64 = 0
        while true {
            let f = idealFrame(anchor: 96_000, pulses: 4 * k, sampleRate: 48_000, tempoHundredths: 13_300, pulsesPerBeat: 48)
            if f >= h.frame { break }
            expected.append(f)
            k += 1
        }
        #expect(h.clocks == expected)
        #expect(h.clocks[95...98] == [95_000, 96_000, 97_805, 99_609])
        #expect(h.otherMIDI.map(\.status) == [0xFA])

        // Clicks: the 4/4 bar, then the 7/8 accents "X.xXx.x" from the bar line: its first beat is the accent.
        let eighth = { (n: Int64) in idealFrame(anchor: 96_000, pulses: 48 * n, sampleRate: 48_000, tempoHundredths: 13_300, pulsesPerBeat: 48) }
        var expectedOnsets: [(Int64, String)] = [(0, "X"), (24_000, "x"), (48_000, "x"), (72_000, "x")]
        for bar in 0..<2 as Range<Int64> {
            for (beat, symbol) in "X.xXx.x".enumerated() where symbol != "." {
                expectedOnsets.append((eighth(7 * bar + Int64(beat)), String(symbol)))
            }
        }
        expectedOnsets.append((eighth(14), "X"))
        #expect(h.onsets.map(\.frame) == expectedOnsets.map(\.0))
        #expect(h.onsetSymbols == expectedOnsets.map(\.1))
        #expect(h.onsets.map(\.frame)[4...9] == [96_000, 139_308, 160_962, 182_617, 225_925, 247_579])
        #expect(h.control.pointee.status.barRequestApplied.load(ordering: .relaxed) == 1)
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 13_300)
        #expect(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 7)
    }

    @Test func switchNowLandsOnTheNextBeatInstead() throws {
        let four = try decode(PresetSwitchingTests.fourFour120)
        let seven = try decode(PresetSwitchingTests.sevenEight133)
        let h = EngineHarness(four.engineConfiguration(sampleRate: 48_000))
        h.control.pointee.commands.push(.start)
        h.render(until: 40_192)
        let pushed = seven.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBeat)
        #expect(pushed)
        h.render(until: 100_000)
        // Beat 3 of the 4/4 bar (48 000) becomes the first beat of a 7/8 bar.
        #expect(h.clocks[46...49] == [46_000, 47_000, 48_000, 49_805])
        #expect(h.onsets.map(\.frame) == [0, 24_000, 48_000, 91_308])
        #expect(h.onsetSymbols == ["X", "x", "X", "x"])
    }

    @Test func programChangeSwitchesAtTheNextBarLineThroughTheSwitcher() throws {
        let four = try decode(PresetSwitchingTests.fourFour120)
        let seven = try decode(PresetSwitchingTests.sevenEight133)
        let files = ["/p/four.json": four, "/p/seven.json": seven]
        let library = PresetLibrary(shipped: [PresetEntry(preset: four, file: "/p/four.json", origin: .shipped),
                                              PresetEntry(preset: seven, file: "/p/seven.json", origin: .shipped)], user: [])
        var switcher = PresetSwitcher(library: library, sampleRate: 48_000) { path throws(PresetError) in
            guard let preset = files[path] else { throw PresetError(file: path, problem: "no such file") }
            return preset
        }
        let h = EngineHarness(four.engineConfiguration(sampleRate: 48_000))
        switcher.started(with: library.entries[0])
        h.control.pointee.commands.push(.start)
        h.render(until: 10_240)

        let first = switcher.programChange(UInt7(1)!, control: h.control.pointee)
        #expect(first == .switched(library.entries[1]))
        #expect(switcher.currentIndex == 1)
        h.render(until: 100_000)
        #expect(h.clocks[95...97] == [95_000, 96_000, 97_805])

        let past = switcher.programChange(UInt7(2)!, control: h.control.pointee)
        #expect(past == .ignored("Program Change 2 selects no preset: the list has 2"))
        #expect(h.control.pointee.commands.count == 0)
        // The deep press: next preset, wrapping to the first.
        let next = switcher.next(control: h.control.pointee)
        #expect(next == .switched(library.entries[0]))
        #expect(switcher.currentIndex == 0)
    }

    @Test func aPresetFileBrokenWhileRunningIsRefusedAndTheCurrentOneKeepsPlaying() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let fourFile = folder.write("four.json", PresetSwitchingTests.fourFour120)
        let sevenFile = folder.write("seven.json", PresetSwitchingTests.sevenEight133)
        let library = PresetLibrary.load(PresetDirectories(shipped: folder.path, user: nil))
        var switcher = PresetSwitcher(library: library, sampleRate: 48_000)
        let h = EngineHarness(library.entries[0].preset.engineConfiguration(sampleRate: 48_000))
        switcher.started(with: library.entries[0])
        #expect(switcher.current?.file == fourFile)
        h.control.pointee.commands.push(.start)
        h.render(until: 10_240)

        folder.write("seven.json", #"{ "format": 1, "name": "Seven", "tempo": 133, "meter": "7/8", "accents": "X.x" }"#)
        let outcome = switcher.next(control: h.control.pointee)
        #expect(outcome == .refused(PresetError(file: sevenFile, path: "accents", problem: "\"X.x\" has 3 beats but the meter 7/8 has 7",
                                                allowed: "7 symbols, one a beat: X accent, x normal, o soft, . silent")))
        #expect(switcher.current?.file == fourFile)
        #expect(h.control.pointee.commands.count == 0)
        h.render(until: 200_000)
        #expect(h.frame == 200_192)
        #expect(h.clocks == (0...200).map { Int64($0) * 1000 })
        #expect(h.control.pointee.status.barRequestApplied.load(ordering: .relaxed) == 0)
    }

    @Test func theTerminalSelectsByNameOrFileAndAnUnknownNameChangesNothing() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("four.json", PresetSwitchingTests.fourFour120)
        let sevenFile = folder.write("seven.json", PresetSwitchingTests.sevenEight133)
        let library = PresetLibrary.load(PresetDirectories(shipped: folder.path, user: nil))
        var switcher = PresetSwitcher(library: library, sampleRate: 48_000, switchPoint: .nextBeat)
        let h = EngineHarness(library.entries[0].preset.engineConfiguration(sampleRate: 48_000))

        let unknown = switcher.select(named: "Nine", control: h.control.pointee)
        #expect(unknown == .ignored("no preset is named \"Nine\""))
        #expect(h.control.pointee.commands.count == 0)
        #expect(switcher.current == nil)

        let byName = switcher.select(named: "seven", control: h.control.pointee)
        #expect(byName == .switched(library.entries[1]))
        // changeBar (with the gains and the tempo), clock offset, clock while stopped, song position.
        #expect(h.control.pointee.commands.count == 4)
        #expect(h.control.pointee.commands.peek()?.tempo == BPM(133))

        let byPath = switcher.load(path: sevenFile, control: h.control.pointee)
        #expect(byPath == .switched(library.entries[1]))
        #expect(switcher.currentIndex == 1)
    }
}
