import Testing
@testable import TactusCore

/// A time source's bars (`EngineCommand.anchorBar`, docs/DESIGN.md §8.5): an
/// LV2 host tells a meter change at the first frame of the cycle after its bar
/// line; beat 1 must still be where the host says. At 48 kHz a pulse of 250
/// frames is 120 BPM: a beat (96 pulses) is 24 000 frames, a 4/4 bar 96 000.
@Suite("Engine: a time source's bar lines")
struct BarAnchorTests {
    static let threeFour = BarSettings(meter: Meter(beatsPerBar: 3, beatUnit: 4)!)

    func harness(_ stretches: [ScriptedTimeSource.Stretch]) -> EngineHarness {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        let source = ScriptedTimeSource(stretches: stretches)
        h.source = { source.position(at: $0) }
        return h
    }

    func accents(_ h: EngineHarness) -> [Int64] { h.onsets.filter { $0.sound == .accent }.map(\.frame) }

    @Test func aMeterChangeToldACycleLateStillPutsBeatOneWhereTheSourceSays() {
        let h = harness([.init(frame: 0, songPulse: 0, framesPerPulse: 250)])
        // Bar 3 (song pulse 768) starts at frame 192 000, inside block 428 of 448
        // frames; the source says 3/4 from there only in the next block.
        h.run(frames: 429 * 448, block: 448)
        h.send(.anchorBar(Self.threeFour, atSongPulse: 768, bar: 3))
        h.run(frames: 400_000 - 429 * 448, block: 448)
        // Every beat on its frame; beat 1 of bar 3 was heard already (4/4's bar line
        // too), and from there bars of three: 264 000 and 336 000, not 288 000.
        #expect(h.onsets.map(\.frame) == (0...16).map { Int64($0) * 24_000 })
        #expect(accents(h) == [0, 96_000, 192_000, 264_000, 336_000])
        // The last beat, 384 000, is beat 3 of bar 5.
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 5)
        #expect(h.control.pointee.status.beat.load(ordering: .relaxed) == 3)
        #expect(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 3)
        #expect(h.clockFrames == (0..<400).map { Int64($0) * 1000 })
    }

    @Test func aBarLineStillAheadWaitsForItsPulse() {
        let h = harness([.init(frame: 0, songPulse: 0, framesPerPulse: 250)])
        h.run(frames: 100_000, block: 448)
        // 3/4 from bar 4 (song pulse 1152, frame 288 000), told a bar and a half early.
        h.send(.anchorBar(Self.threeFour, atSongPulse: 1152, bar: 4))
        h.run(frames: 350_000, block: 448)
        #expect(accents(h) == [0, 96_000, 192_000, 288_000, 360_000, 432_000])
        #expect(h.onsets.map(\.frame) == (0...18).map { Int64($0) * 24_000 })
    }

    @Test func barsGivenWhileStandingStillHoldWhenTheSourceRollsMidSong() {
        // Four bars of 4/4, then 3/4 from bar 5 (song pulse 1536); the source
        // stands at bar 5's second beat (1632) and rolls from there at frame 10 240.
        let h = harness([.init(frame: 0, songPulse: 1632, framesPerPulse: 250, rolling: false),
                         .init(frame: 10_240, songPulse: 1632, framesPerPulse: 250)])
        h.send(.anchorBar(Self.threeFour, atSongPulse: 1536, bar: 5))
        h.run(frames: 160_000, block: 256)
        // Song Position 68 (1632 / 24) and Continue at 10 240; beats 2, 3, then bar 6's accent.
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.songPosition, MIDIStatus.continue])
        #expect(h.otherMIDI.map(\.frame) == [10_240, 10_240])
        #expect(h.onsets.map(\.frame) == (0..<7).map { 10_240 + Int64($0) * 24_000 })
        #expect(accents(h) == [58_240, 130_240])
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 7)
    }

    @Test func aJumpKeepsTheBarsOnTheirSongPositions() {
        // 3/4 from song pulse 1536 (bar 5); a jump to song pulse 2400 (bar 8, beat 1: 1536 + 3 × 288).
        let h = harness([.init(frame: 0, songPulse: 1536, framesPerPulse: 250),
                         .init(frame: 48_128, songPulse: 2400, framesPerPulse: 250)])
        h.send(.anchorBar(Self.threeFour, atSongPulse: 1536, bar: 5))
        h.run(frames: 120_000, block: 256)
        #expect(accents(h) == [0, 48_128])
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 8)
    }
}
