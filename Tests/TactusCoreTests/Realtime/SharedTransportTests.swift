import Testing
@testable import TactusCore

/// JACK transport's start and locate taken in the cycle that sees them
/// (`Engine.transportStarted`, `Engine.transportLocated`, docs/DESIGN.md
/// §13.3), at 120 BPM 4/4 and 48 kHz: a beat is 24 000 frames, a clock tick 1000.
@Suite("Engine: a shared transport's start and locate")
struct SharedTransportTests {
    static func harness() -> EngineHarness { EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120))) }

    static func bbt(_ bar: Int32, barStartTick: Double) -> BarBeatTick {
        BarBeatTick(bar: bar, beat: 1, tick: 0, barStartTick: barStartTick, beatsPerBar: 4, beatType: 4, beatsPerMinute: 120)
    }

    /// The old grid's beat 2 is due exactly at the block's end where the
    /// locate lands: the BBT there is 9.1 tick 0 (bar 9 starts 32 beats of
    /// 1920 ticks in), and the next block plays Stop, Song Position 128 and
    /// Continue, one clock tick and one accent there: nothing lost, nothing doubled.
    @Test func aLocateAtTheBlocksEndPlaysTheBarsDownbeatThereOnceWhateverWasDue() {
        let h = Self.harness()
        h.send(.start)
        h.run(frames: 24_000, block: 250)
        #expect(h.onsets.map(\.frame) == [0], "beat 2 of the old grid is due at 24 000, not yet played")
        h.engine.transportLocated(toBar: 9, atFrame: 24_000, control: h.control.pointee)
        #expect(h.engine.barBeatTick(atFrame: 24_000) == Self.bbt(9, barStartTick: 32 * 1920))
        h.run(frames: 48_250, block: 250)
        #expect(h.otherMIDI.map(\.frame) == [0, 24_000, 24_000, 24_000])
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start, MIDIStatus.stop, MIDIStatus.songPosition, MIDIStatus.continue])
        let position = h.midi.first { $0.bytes.status == MIDIStatus.songPosition }
        #expect(position.map { [$0.bytes.byte1, $0.bytes.byte2] } == [0, 1], "128 sixteenths: LSB 0, MSB 1")
        #expect(h.onsets.map(\.frame) == [0, 24_000, 48_000, 72_000])
        #expect(h.onsetSymbols == ["X", "X", "x", "x"])
        #expect(h.clockFrames == Array(stride(from: Int64(0), through: 72_000, by: 1000)))
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 9)
    }

    /// Between two beats: the grid starts again at the locate's frame on its
    /// next clock tick, so the downbeat is that frame, not the old grid's next tick.
    @Test func aLocateBetweenTwoClockTicksStartsTheGridAtItsFrame() {
        let h = Self.harness()
        h.send(.start)
        h.run(frames: 30_100, block: 301)
        h.engine.transportLocated(toBar: 2, atFrame: 30_100, control: h.control.pointee)
        #expect(h.engine.barBeatTick(atFrame: 30_100) == Self.bbt(2, barStartTick: 4 * 1920))
        h.run(frames: 24_100, block: 301)
        #expect(h.onsets.map(\.frame) == [0, 24_000, 30_100, 54_100])
        #expect(h.clockFrames.filter { $0 >= 30_000 }.prefix(3) == [30_000, 30_100, 31_100])
        #expect(h.otherMIDI.dropFirst().map(\.frame) == [30_100, 30_100, 30_100])
    }

    /// A stopped transport that starts: the engine stood at its resume point
    /// (the BBT published before the cycle, 1.1 tick 0), and Start, the first
    /// clock tick and the accent are the block's first frame. From bar 5:
    /// Song Position 64 and Continue there. A song already playing (its own
    /// start, echoed) is left alone.
    @Test func aStartPlaysOnTheBlocksFirstFrameFromBarOneOrItsBar() {
        let h = Self.harness()
        h.run(frames: 2560, block: 256)
        #expect(h.engine.barBeatTick(atFrame: 2560) == Self.bbt(1, barStartTick: 0))
        h.engine.transportStarted(atBar: 1, blockStart: 2560, control: h.control.pointee)
        h.run(frames: 24_256, block: 256)
        #expect(h.otherMIDI.map(\.frame) == [2560] && h.otherMIDI.map(\.status) == [MIDIStatus.start])
        #expect(h.onsets.map(\.frame) == [2560, 26_560] && h.onsetSymbols == ["X", "x"])
        #expect(h.clockFrames.first == 2560)
        h.engine.transportStarted(atBar: 7, blockStart: h.frame, control: h.control.pointee)
        h.run(frames: 256, block: 256)
        #expect(h.otherMIDI.count == 1, "playing: nothing to start")

        let later = Self.harness()
        later.run(frames: 2560, block: 256)
        later.engine.transportStarted(atBar: 5, blockStart: 2560, control: later.control.pointee)
        #expect(later.engine.barBeatTick(atFrame: 2560) == Self.bbt(5, barStartTick: 16 * 1920))
        later.run(frames: 256, block: 256)
        #expect(later.otherMIDI.map(\.status) == [MIDIStatus.songPosition, MIDIStatus.continue])
        #expect(later.otherMIDI.map(\.frame) == [2560, 2560])
        #expect(later.midi.first.map { [$0.bytes.byte1, $0.bytes.byte2] } == [64, 0])
        #expect(later.onsets.map(\.frame) == [2560] && later.onsetSymbols == ["X"])
    }
}
