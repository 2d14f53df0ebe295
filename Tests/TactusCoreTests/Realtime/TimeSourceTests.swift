import Testing
@testable import TactusCore

/// The time-source seam (docs/DESIGN.md §8): a source says, at each cycle's
/// first frame, which song pulse is there, how long a pulse lasts and whether
/// time rolls; the engine places every click and clock tick from that, rounded
/// to the nearest frame, through the same render as its own time. At 48 kHz a
/// pulse of 250 frames is 120 BPM (a quarter note = 96 pulses = 24 000 frames).
@Suite("Engine: grid positioned by a time source (scripted)")
struct TimeSourceTests {
    func harness(_ source: ScriptedTimeSource) -> EngineHarness {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.source = { source.position(at: $0) }
        return h
    }

    @Test func aSourceRollingFromSongZeroStartsThereAndPlacesTheGridAsTheEngineWould() {
        let h = harness(ScriptedTimeSource(stretches: [.init(frame: 1024, songPulse: 0, framesPerPulse: 250)]))
        h.run(frames: 1024 + 48_000, block: 256)
        // Nothing before the source rolls; Start, the first clock and the accent on its first frame.
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start])
        #expect(h.otherMIDI.first?.frame == 1024)
        #expect(h.clockFrames == (0..<48).map { 1024 + Int64($0) * 1000 })
        #expect(h.onsets.map(\.frame) == [1024, 25_024])
        #expect(h.onsets.first?.sound == .accent)
    }

    @Test func aTempoRampPlacesEachTickAtTheSourcesFrame() {
        // One stretch per 4096-frame cycle, each a pulse one frame shorter than the
        // last: an accelerando from 120 to 198.68 BPM, continuous at every stretch start.
        var stretches: [ScriptedTimeSource.Stretch] = [.init(frame: 0, songPulse: 0, framesPerPulse: 250)]
        for k in 1..<100 {
            let last = stretches[k - 1]
            stretches.append(.init(frame: Int64(k) * 4096, songPulse: last.songPulse + 4096 / last.framesPerPulse,
                                   framesPerPulse: 250 - Double(k)))
        }
        let source = ScriptedTimeSource(stretches: stretches)
        let h = harness(source)
        h.run(frames: 100 * 4096, block: 4096)
        // The expected frame of clock pulse p: in the stretch where p falls, rounded half up.
        var expected: [Int64] = []
        var p: Int64 = 0
        while true {
            guard let s = stretches.last(where: { $0.songPulse <= Double(p) }) else { break }
            let f = s.frame + Int64(((Double(p) - s.songPulse) * s.framesPerPulse + 0.5).rounded(.down))
            if f >= 100 * 4096 { break }
            expected.append(f)
            p += Grid.pulsesPerClock
        }
        #expect(expected.count > 400)
        #expect(h.clockFrames == expected)
        #expect(h.control.pointee.status.droppedEvents.load(ordering: .relaxed) == 0)
        // The tempo shown follows the source: the last stretch's pulse, 151 frames, is 198.68 BPM.
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 19_868)
    }

    @Test func aJumpIsALocateStopSongPositionContinueOnTheNext16th() {
        // Bar 3 (song pulse 768) at frame 0; at frame 48 128 the source jumps to bar 9 (pulse 3072).
        let source = ScriptedTimeSource(stretches: [
            .init(frame: 0, songPulse: 768, framesPerPulse: 250),
            .init(frame: 48_128, songPulse: 3072, framesPerPulse: 250),
        ])
        let h = harness(source)
        h.run(frames: 96_256, block: 256)
        let other = h.otherMIDI.map(\.status)
        // Joined mid-song: Song Position 32 (bar 3 in 16ths) and Continue; then the jump.
        #expect(other == [MIDIStatus.songPosition, MIDIStatus.continue, MIDIStatus.stop, MIDIStatus.songPosition, MIDIStatus.continue])
        let spp = h.midi.filter { $0.bytes.status == MIDIStatus.songPosition }.map { Int($0.bytes.byte1) | Int($0.bytes.byte2) << 7 }
        #expect(spp == [32, 128])
        #expect(h.otherMIDI.suffix(3).allSatisfy { $0.frame == 48_128 })
        // Bar 9's downbeat sounds on the jump's frame, accented, and the clock goes on every 1000 frames.
        #expect(h.onsets.contains { $0.frame == 48_128 && $0.sound == .accent })
        let after = h.clockFrames.filter { $0 >= 48_128 }
        #expect(after.first == 48_128 && zip(after, after.dropFirst()).allSatisfy { $1 - $0 == 1000 })
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 9)
    }

    @Test func aSourceMovingItsLineAheadSaysSoAndIsNoLocate() {
        // From song 0 at frame 0; at frame 48 896 (pulse 195.584) the source moves its
        // line 1.5 pulses ahead (PipeWire's JACK follow, docs/DESIGN.md §13.6), past
        // the tick of pulse 196: no Stop/Song Position/Continue, that tick on the
        // block's first frame, the next where the new line puts pulse 200.
        let source = ScriptedTimeSource(stretches: [
            .init(frame: 0, songPulse: 0, framesPerPulse: 250),
            .init(frame: 48_896, songPulse: 48_896.0 / 250 + 1.5, framesPerPulse: 250, corrected: true),
        ])
        let h = harness(source)
        h.run(frames: 96_256, block: 256)
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start])
        let expected = (0...48).map { Int64($0) * 1000 } + [48_896] + (0...46).map { 49_625 + Int64($0) * 1000 }
        #expect(h.clockFrames == expected)
    }

    @Test func timeStandingStillStopsWithSongPositionAndRollingAgainContinues() {
        // Rolls from 0, stands still at song pulse 2000 from frame 500 000, rolls on at 600 000.
        let source = ScriptedTimeSource(stretches: [
            .init(frame: 0, songPulse: 0, framesPerPulse: 250),
            .init(frame: 500_000, songPulse: 2000, framesPerPulse: 250, rolling: false),
            .init(frame: 600_000, songPulse: 2000, framesPerPulse: 250),
        ])
        let h = harness(source)
        h.run(frames: 700_000, block: 500)
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start, MIDIStatus.stop, MIDIStatus.songPosition, MIDIStatus.songPosition, MIDIStatus.continue])
        // Stopped after 500 clocks = 83 whole 16ths (498 clocks); no clock while still.
        let spp = h.midi.filter { $0.bytes.status == MIDIStatus.songPosition }.map { Int($0.bytes.byte1) | Int($0.bytes.byte2) << 7 }
        #expect(spp == [83, 84])
        #expect(!h.clockFrames.contains { $0 > 500_000 && $0 < 600_000 })
        // Continue on the next 16th after song pulse 2000: pulse 2016, 16 pulses = 4000 frames later.
        #expect(h.otherMIDI.last?.frame == 604_000)
    }

    @Test func theTempoBelongsToTheSourceWhileItDrivesTheGrid() {
        let h = harness(ScriptedTimeSource(stretches: [.init(frame: 0, songPulse: 0, framesPerPulse: 250)]))
        h.run(frames: 10_000, block: 500)
        h.setTempo(BPM(200))
        h.run(frames: 20_000, block: 500)
        #expect(zip(h.clockFrames, h.clockFrames.dropFirst()).allSatisfy { $1 - $0 == 1000 })
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 12_000)
    }

    @Test func withoutASourceTheEngineGoesOnFromWhereTheSourceLeftIt() {
        let source = ScriptedTimeSource(stretches: [.init(frame: 0, songPulse: 0, framesPerPulse: 250)])
        let h = harness(source)
        h.run(frames: 10_000, block: 500)
        h.source = nil
        h.run(frames: 10_000, block: 500)
        #expect(h.clockFrames == (0..<20).map { Int64($0) * 1000 })
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start])
    }
}
