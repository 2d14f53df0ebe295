import Testing
@testable import TactusCore

/// MIDI 1.0 System Real-Time and Song Position as the engine sends them. At
/// 120 BPM and 48 kHz a clock is exactly 1000 frames, so every frame is exact.
@Suite("Engine transport and MIDI clock messages")
struct EngineTransportTests {
    func harness(_ c: EngineConfiguration = EngineConfiguration(sampleRate: 48_000, tempo: BPM(120))) -> EngineHarness {
        EngineHarness(c)
    }

    func bytes(_ h: EngineHarness) -> [[UInt8]] {
        h.midi.filter { $0.bytes.status != MIDIStatus.timingClock }.map { e in (0..<Int(e.bytes.count)).map { e.bytes[$0] } }
    }

    @Test func startSendsFABeforeTheFirstClockOnTheSameFrame() {
        let h = harness()
        h.run(frames: 3000, block: 500)            // stopped: nothing at all
        #expect(h.midi.isEmpty && h.onsets.isEmpty)
        h.send(.start)
        h.run(frames: 2500, block: 500)
        #expect(h.midi.prefix(2).map(\.bytes.status) == [0xFA, 0xF8])
        #expect(h.midi.prefix(2).map(\.frame) == [3000, 3000])
        #expect(h.clockFrames == [3000, 4000, 5000])
        #expect(h.onsets.map(\.frame) == [3000] && h.onsets.first?.sound == .accent)
    }

    @Test func stopSendsFCThenSongPositionInWholeSixteenths() {
        let h = harness()
        h.send(.start)
        h.run(frames: 10_500, block: 500)          // clocks 0 … 10 000: 11 clocks
        h.send(.stop)
        h.run(frames: 5000, block: 500)
        #expect(h.clockFrames.count == 11)
        // 11 clocks = 1 whole MIDI beat (6 clocks) + 5: Song Position 1, LSB first.
        #expect(bytes(h) == [[0xFA], [0xFC], [0xF2, 0x01, 0x00]])
        #expect(h.otherMIDI.map(\.frame) == [0, 10_500, 10_500])
    }

    @Test func continueSendsSongPositionThenFBAndResumesOnTheSixteenth() {
        let h = harness()
        h.send(.start)
        h.run(frames: 10_500, block: 500)
        h.send(.stop)
        h.run(frames: 9500, block: 500)            // now at 20 000
        h.send(.continue)
        h.run(frames: 20_000, block: 500)
        #expect(bytes(h) == [[0xFA], [0xFC], [0xF2, 1, 0], [0xF2, 1, 0], [0xFB]])
        #expect(h.otherMIDI.map(\.frame).suffix(2) == [20_000, 20_000])
        // Resumed at clock 6; beat 2 of bar 1 is clock 24, 18 clocks after 20 000.
        #expect(h.clockFrames.filter { $0 >= 20_000 }.prefix(3) == [20_000, 21_000, 22_000])
        #expect(h.onsets.map(\.frame) == [0, 38_000])
        #expect(h.onsets.map(\.sound) == [.accent, .beat])
    }

    @Test func locateWhileStoppedSendsSongPositionOfTheBar() {
        let h = harness()
        h.send(.locate(bar: 3))
        h.run(frames: 1000, block: 500)
        // Bar 3 of 4/4 starts after 2 × 4 × 24 = 192 clocks = 32 MIDI beats.
        #expect(bytes(h) == [[0xF2, 32, 0]])
        h.send(.continue)
        h.run(frames: 1000, block: 500)
        #expect(bytes(h).suffix(2) == [[0xF2, 32, 0], [0xFB]])
        #expect(h.onsets.map(\.sound) == [.accent])
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 3)
    }

    @Test func locateWhileRunningStopsRepositionsAndContinuesOnTheNextClock() {
        let h = harness()
        h.send(.start)
        h.run(frames: 5500, block: 500)
        h.send(.locate(bar: 2))
        h.run(frames: 3000, block: 500)
        #expect(bytes(h) == [[0xFA], [0xFC], [0xF2, 16, 0], [0xFB]])
        #expect(h.otherMIDI.map(\.frame) == [0, 6000, 6000, 6000])
        #expect(h.onsets.map(\.frame) == [0, 6000] && h.onsets.last?.sound == .accent)
    }

    @Test func noSongPositionPastSixteenThousandThreeHundredEightyThreeMIDIBeats() {
        // 16 384 MIDI beats = 98 304 clocks; at 999 BPM (399.6 clocks a second) ≈ 246 s.
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(999)))
        h.send(.start)
        h.run(frames: 250 * 48_000, block: 8192)
        #expect(h.clockFrames.count > 98_304)
        h.send(.stop)
        h.run(frames: 8192, block: 8192)
        #expect(bytes(h) == [[0xFA], [0xFC]])
    }

    @Test func songPositionCanBeSwitchedOff() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), sendSongPosition: false))
        h.send(.start)
        h.run(frames: 7000, block: 500)
        h.send(.stop)
        h.send(.continue)
        h.run(frames: 2000, block: 500)
        #expect(bytes(h) == [[0xFA], [0xFC], [0xFB]])
    }

    @Test func clockWhileStoppedTicksWithoutClicksAndStartWaitsForTheNextTick() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), clockWhileStopped: true))
        h.send(.setClockWhileStopped(true))
        h.run(frames: 2500, block: 500)
        #expect(h.clockFrames == [0, 1000, 2000] && h.onsets.isEmpty)
        h.send(.start)
        h.run(frames: 2000, block: 500)
        // Start lands on the free-running grid's next clock (3000), not at the block start (2500).
        #expect(h.otherMIDI.map(\.frame) == [3000] && h.otherMIDI.map(\.status) == [0xFA])
        #expect(h.onsets.map(\.frame) == [3000])
    }

    @Test("A positive clock offset delays the clock, a negative one delays the click", arguments: [240, -240])
    func clockOffsetShiftsOneStreamAgainstTheOther(offset: Int32) {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), clockOffsetFrames: offset))
        h.send(.start)
        h.run(frames: 50_000, block: 256)
        let clocks = h.clockFrames
        for (n, onset) in h.onsets.enumerated() {
            #expect(clocks[24 * n] - onset.frame == Int64(offset))
        }
        #expect(h.onsets.count == 3)
    }

    @Test func subdivisionsStopAt300BPMAndComeBackBelow() {
        let bar = BarSettings(meter: .fourFour, subdivision: .sixteenths)
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(299.99), bar: bar))
        h.send(.start)
        h.run(frames: 48_000, block: 256)
        // A beat is 9600.32 frames: 5 beats and their 3 sixteenths each fall in the first second.
        #expect(h.onsets.filter { $0.sound == .subdivision }.count == 15)
        #expect(h.onsets.filter { $0.sound != .subdivision }.count == 5)
        h.setTempo(BPM(300))
        let before = h.onsets.count
        h.run(frames: 48_000, block: 256)
        let at300 = h.onsets[before...]
        #expect(at300.allSatisfy { $0.sound != .subdivision } && at300.count >= 4)
        h.setTempo(BPM(299))
        let before2 = h.onsets.count
        h.run(frames: 48_000, block: 256)
        #expect(h.onsets[before2...].contains { $0.sound == .subdivision })
    }

    @Test func accentPatternAndSilentBeatsOfASevenEightBar() {
        let bar = BarSettings(meter: Meter("7/8")!, accents: AccentPattern("X.x.x..")!)
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(240), bar: bar))
        h.send(.start)
        // 240 eighths a minute: a beat is 12 000 frames, a 7/8 bar 84 000.
        h.run(frames: 2 * 84_000, block: 1024)
        #expect(h.onsets.map(\.frame) == [0, 24_000, 48_000, 84_000, 108_000, 132_000])
        #expect(h.onsets.map(\.sound) == [.accent, .beat, .beat, .accent, .beat, .beat])
        // MIDI clock stays 24 per quarter note: 12 clocks an eighth, 1000 frames apart.
        #expect(h.clockFrames.prefix(13) == ArraySlice((0...12).map { Int64($0) * 1000 }))
    }

    @Test func swingPutsTheOffBeatOnTheLastThirdOfTheBeat() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), bar: BarSettings(subdivision: .swing)))
        h.send(.start)
        h.run(frames: 48_000, block: 256)
        #expect(h.onsets.map(\.frame) == [0, 16_000, 24_000, 40_000])
    }

    @Test func muteSilencesClicksButNotTheClock() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), muted: true))
        h.send(.start)
        h.run(frames: 48_000, block: 256)
        #expect(h.onsets.isEmpty && h.clockFrames.count == 48)
    }

    @Test func aCueSoundsOnTheFeedbackOutputAtTheNextBlock() {
        let h = harness()
        h.scanFeedback = true
        h.run(frames: 1024, block: 256)
        h.send(.cue(.impact))
        h.run(frames: 1024, block: 256)
        #expect(h.feedbackOnsets.map(\.frame) == [1024] && h.feedbackOnsets.map(\.sound) == [.impact])
        #expect(h.onsets.isEmpty)
    }

    @Test func skippedCyclesDoNotShiftTheGrid() {
        let h = harness()
        h.send(.start)
        h.run(frames: 2048, block: 256)
        h.skip(frames: 4 * 256)                    // four cycles lost, as in an xrun: 2048 … 3071
        h.run(frames: 4096, block: 256)
        // The clock that fell in the gap (3000) goes out late at the next block (3072);
        // the rest stay on the grid.
        #expect(h.clockFrames == [0, 1000, 2000, 3072, 4000, 5000, 6000, 7000])
        #expect(h.control.pointee.status.lateEvents.load(ordering: .relaxed) == 1)
    }

    @Test func aLongStallDropsWhatIsTooLateAndResumesOnTheGrid() {
        let h = harness()
        h.send(.start)
        h.run(frames: 1024, block: 256)
        h.skip(frames: 48_000)                     // one second with no cycles
        h.run(frames: 3072, block: 256)
        // Clocks 2000 … 37 000 are more than a quarter second late: dropped (36 of them),
        // and so is the click at 48 000 (a late click would be off the grid): 37 dropped.
        // 38 000 … 49 000 (12) go out late at the block start 49 024, so a slave's count
        // of clocks stays right; from 50 000 the grid goes on where it always was.
        #expect(h.clockFrames == [0, 1000] + Array(repeating: 49_024, count: 12) + [50_000, 51_000, 52_000])
        #expect(h.control.pointee.status.droppedEvents.load(ordering: .relaxed) == 37)
        #expect(h.control.pointee.status.lateEvents.load(ordering: .relaxed) == 12)
    }

    @Test func theConfigurationInForceCarriesToANewSampleRate() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), clockOffsetFrames: 480))
        let seven = BarSettings(meter: Meter("7/8")!, accents: AccentPattern("X.x.x..")!, subdivision: .triplets)
        h.send(.changeBar(seven, tempo: BPM(133), at: .nextBar))
        h.setTempo(BPM(133))   // the preset protocol: command first, then the tempo
        h.send(.setGains(SoundGains(accent: 0.5)))
        h.send(.setMuted(true))
        h.run(frames: 256, block: 256)
        let c = h.engine.configuration(atSampleRate: 96_000)
        #expect(c.sampleRate == 96_000)
        #expect(c.bar == seven)
        #expect(c.tempo == BPM(133))
        #expect(c.gains.accent == 0.5)
        #expect(c.muted)
        // 10 ms: 480 frames at 48 kHz, 960 at 96 kHz.
        #expect(c.clockOffsetFrames == 960)
    }

    @Test("Feedback cues as MIDI notes: Note On at the cue, Note Off 50 ms later, in frame order with the clock")
    func feedbackNotesFollowTheCues() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), feedbackNotes: .standard))
        h.send(.start)
        h.run(frames: 1024, block: 256)
        h.send(.cue(.impact))
        h.run(frames: 256, block: 256)
        h.send(.cue(.selection))
        h.run(frames: 4096, block: 256)
        let notes = h.midi.filter { $0.bytes.status & 0xF0 == 0x90 || $0.bytes.status & 0xF0 == 0x80 }
        // Channel 16 (0x9F / 0x8F); impact 36 at 1024, selection 37 at 1280; 50 ms = 2400 frames each.
        #expect(notes.map(\.frame) == [1024, 1280, 3424, 3680])
        #expect(notes.map { [$0.bytes.byte0, $0.bytes.byte1, $0.bytes.byte2] } == [[0x9F, 36, 100], [0x9F, 37, 100], [0x8F, 36, 0], [0x8F, 37, 0]])
        // Everything on the stream is in frame order, clocks untouched (every 1000 frames).
        #expect(h.midi.map(\.frame) == h.midi.map(\.frame).sorted())
        #expect(h.clockFrames == [0, 1000, 2000, 3000, 4000, 5000])
    }

    @Test func aRepeatedCueEndsItsSoundingNoteFirst() {
        let h = harness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), feedbackNotes: .standard))
        h.send(.cue(.selection))
        h.run(frames: 256, block: 256)
        h.send(.cue(.selection))
        h.run(frames: 3000, block: 256)
        #expect(h.midi.map(\.frame) == [0, 256, 256, 2656])
        #expect(h.midi.map(\.bytes.byte0) == [0x9F, 0x8F, 0x9F, 0x8F])
    }

    @Test func withoutFeedbackNotesACueIsSoundOnly() {
        let h = harness()
        h.send(.cue(.commit))
        h.run(frames: 4096, block: 256)
        #expect(h.midi.isEmpty)
    }
}
