import Testing
@testable import TactusCore

/// A tempo map's count-in and Continue (docs/DESIGN.md §10): the count-in
/// counts the map's first bar, and Continue resumes in the map where the song
/// position stands, in `Engine.render`, frame by frame.
@Suite("Tempo maps: count-in and Continue")
struct MapCountInAndContinueTests {
    func harness(_ text: String, tempo: BPM = BPM(200), meter: Meter = .fourFour, countIn: CountIn? = nil) throws -> (EngineHarness, MapTimeline) {
        let timeline = MapTimeline(try TempoMapParser.parse(text, file: "t.map"))
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: tempo, bar: BarSettings(meter: meter),
                                                  map: timeline, countIn: countIn))
        return (h, timeline)
    }

    func bytes(_ h: EngineHarness) -> [[UInt8]] {
        h.midi.filter { $0.bytes.status != MIDIStatus.timingClock }.map { e in (0..<Int(e.bytes.count)).map { e.bytes[$0] } }
    }

    @Test("A bar of count-in before a map of 3/4 at 90: three beats of 32 000 frames (not 4/4 at 200), Start on the map's downbeat")
    func countInInTheMapsFirstBar() throws {
        let (h, timeline) = try harness("2 3/4 90\n1 4/4 120", countIn: CountIn(bars: 1))
        defer { timeline.deallocate() }
        h.send(.start)
        h.run(frames: 48_000 * 7, block: 256)
        // The count-in: 3 accents at half gain, 60 / 90 s apart; no clock.
        #expect(h.onsetSamples.prefix(3).map(\.frame) == [0, 32_000, 64_000])
        #expect(h.onsetSamples.prefix(3).allSatisfy { $0.value == 0.5 })
        #expect(h.otherMIDI.first?.status == MIDIStatus.start && h.otherMIDI.first?.frame == 96_000)
        #expect(h.clockFrames.first == 96_000)
        // The map from there: 2 bars of 3/4 at 90, then 4/4 at 120; its clock 24 a quarter note.
        let threeFour: [Int64] = (0..<7).map { 96_000 + Int64($0) * 32_000 }
        let mapFrames: [Int64] = h.onsets.dropFirst(3).prefix(8).map(\.frame)
        #expect(mapFrames == threeFour + [312_000])
        let mapSounds: [ClickSound] = h.onsets.dropFirst(3).prefix(7).map(\.sound)
        #expect(mapSounds == [.accent, .beat, .beat, .accent, .beat, .beat, .accent])
        #expect(Array(h.clockFrames.prefix(4)) == [96_000, 97_333, 98_667, 100_000])
    }

    @Test("Count-in 0 before a 6/8 map at 100 quarter notes: two eighths of 14 400 frames (not two beats at 120)")
    func countInTwoBeatsOfTheMapsMeter() throws {
        let (h, timeline) = try harness("1 6/8 100", tempo: BPM(120), countIn: CountIn(bars: 0))
        defer { timeline.deallocate() }
        h.send(.start)
        h.run(frames: 48_000, block: 100)
        #expect(h.onsets.prefix(4).map(\.frame) == [0, 14_400, 28_800, 43_200])
        #expect(h.otherMIDI.first?.frame == 28_800 && h.clockFrames.first == 28_800)
        // Bar 1 of the map: its accent, then a clock tick every 1/24 quarter note (28 800 / 24 frames).
        #expect(h.onsets[2].sound == .accent)
        #expect(Array(h.clockFrames.prefix(3)) == [28_800, 30_000, 31_200])
    }

    @Test("Continue inside a map's 3/4 entry: Song Position 41, then the map's 3/4 at 90 from there, its bar numbers, and 6/8 on its bar line")
    func continueResumesInTheMap() throws {
        // 2 bars 4/4 at 120 (192 000 frames), 2 bars 3/4 at 90 (192 000), 2 bars 6/8 at 150 quarters (eighths of 9 600 frames).
        let (h, timeline) = try harness("2 4/4 120\n2 3/4 90\nsix: 2 6/8 150")
        defer { timeline.deallocate() }
        h.send(.start)
        h.run(frames: 266_000, block: 1_000)
        // Stopped at frame 266 000: 192 + 56 clocks sent, so Continue resumes at the 41st sixteenth (246 clocks),
        // 2¼ beats into the 3/4 entry.
        h.send(.stop)
        h.run(frames: 34_000, block: 1_000)
        let before = h.onsets.count
        h.send(.continue)
        h.run(frames: 120_500, block: 500)
        let control = h.control
        // Just past the 6/8 entry's first click: bar 5 (2 + 2 bars before it), the map's third entry, its bar 1.
        #expect(control.pointee.status.bar.load(ordering: .relaxed) == 5)
        #expect(control.pointee.status.mapSection.load(ordering: .relaxed) == 2 && control.pointee.status.mapSectionBar.load(ordering: .relaxed) == 1)
        #expect(control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 6)
        h.run(frames: 200_000, block: 500)
        #expect(bytes(h) == [[0xFA], [0xFC], [0xF2, 41, 0], [0xF2, 41, 0], [0xFB], [0xFC], [0xF2, 80, 0]])
        let resumed = Array(h.onsets.dropFirst(before))
        // From frame 300 000: ¾ beat at 90 to bar 4's downbeat, its two beats, then 12 eighths of 6/8 at 150 quarter notes.
        let sixEight: [Int64] = (0..<12).map { 420_000 + Int64($0) * 9_600 }
        let resumedFrames: [Int64] = resumed.map(\.frame)
        #expect(resumedFrames == [324_000, 356_000, 388_000] + sixEight)
        let bar: [ClickSound] = [.accent, .beat, .beat, .beat, .beat, .beat]
        let resumedSounds: [ClickSound] = resumed.map(\.sound)
        #expect(resumedSounds == [.accent, .beat, .beat] + bar + bar)
        // The clock from Continue's frame: 24 a quarter at 90 (4 000 / 3 frames), then at 150 (800 frames) from the 6/8 bar line.
        let clocks = h.clockFrames.filter { $0 >= 300_000 }
        #expect(Array(clocks.prefix(4)) == [300_000, 301_333, 302_667, 304_000])
        #expect(clocks.contains(420_000) && clocks.filter { $0 >= 420_000 }.prefix(3) == [420_000, 420_800, 421_600])
        // The map's end: Stop on its last bar line, 2 × 6 eighths after the 6/8 entry's start.
        let stops: [Int64] = h.otherMIDI.filter { $0.status == MIDIStatus.stop }.map(\.frame)
        #expect(stops == [266_000, 420_000 + 12 * 9_600])
    }

    @Test("A locate to bar 3 while a map plays bar 1: the map's bar 3 from there (60 BPM, beats of 48 000 frames), then its bar 5 at 120 on time, not the entry that was playing")
    func aLocateInsideAMapPlaysTheMapFromThere() throws {
        // 2 bars 4/4 at 120 (beats of 24 000), 2 bars at 60 (48 000), 2 bars at 120.
        let (h, timeline) = try harness("2 4/4 120\n2 4/4 60\n2 4/4 120")
        defer { timeline.deallocate() }
        h.send(.start)
        h.run(frames: 30_000, block: 500)
        h.send(.locate(bar: 3))
        h.run(frames: 500_000, block: 500)
        // Stop, Song Position 32 (bar 3) and Continue on the first clock tick not yet played.
        #expect(bytes(h) == [[0xFA], [0xFC], [0xF2, 32, 0], [0xFB]])
        let at = h.otherMIDI.first { $0.status == MIDIStatus.stop }?.frame ?? -1
        #expect(at >= 30_000 && at <= 31_000)
        // Bar 3 at 60 from there: 8 beats of 48 000, then bar 5 at 120: beats of 24 000.
        let relocated: [Int64] = h.onsets.map(\.frame).filter { $0 >= at }
        let expected: [Int64] = (0..<8).map { at + $0 * 48_000 } + (0..<5).map { at + 384_000 + $0 * 24_000 }
        #expect(relocated == expected)
        let sounds: [ClickSound] = Array(h.onsets.filter { $0.frame >= at }.prefix(5).map(\.sound))
        #expect(sounds == [.accent, .beat, .beat, .beat, .accent])
    }
}
