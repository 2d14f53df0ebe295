import Testing
@testable import TactusCore

/// A source that owns tempo and transport (Link, docs/DESIGN.md §11.3): the
/// player's commands become requests for it, and its start on a bar line that
/// falls inside a block sounds on that bar line's frame (§8.3, §11.2).
@Suite("Engine: requests for a time source that owns the transport")
struct TimeSourceRequestsTests {
    @Test func songPositionZeroInsideTheBlockIsAStartOnItsOwnFrame() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        // Rolling from the block at 1024, song position 0 at frame 1100 (76 frames in).
        h.source = { frame in
            frame < 1024 ? TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0)
                : TimelinePosition(rolling: true, songPulse: Double(frame - 1100) / 250, framesPerPulse: 250)
        }
        h.run(frames: 1024 + 48_000, block: 256)
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start])
        #expect(h.otherMIDI.first?.frame == 1100)
        #expect(h.clockFrames.prefix(3) == [1100, 2100, 3100])
        #expect(h.onsets.map(\.frame) == [1100, 25_100])
        #expect(h.onsets.first?.sound == .accent)
    }

    @Test func theSourcesTempoAndTransportBecomeRequestsAndLeaveTheGridAlone() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.engine.sourceOwnsTransport = true
        h.send(.start)
        h.setTempo(BPM(133))
        h.send(.stop)
        h.send(.continue)
        h.send(.setTempo(BPM(140.5)))
        h.engine.applyCommands(blockStart: 0, control: h.control.pointee)
        #expect(h.engine.takeSourceRequests() == TimeSourceRequests(tempo: BPM(140.5), running: true))
        #expect(h.engine.takeSourceRequests() == TimeSourceRequests())
        // Nothing started or moved by the engine itself: no Start, no clock.
        h.run(frames: 48_000, block: 256)
        #expect(h.midi.isEmpty)
        let running = h.engine.isRunning
        #expect(!running)
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 12_000)
    }

    @Test func aPresetsTempoGoesToTheSourceAndItsBarStillChanges() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.engine.sourceOwnsTransport = true
        h.send(.changeBar(BarSettings(meter: Meter("3/4")!), tempo: BPM(90), at: .nextBar))
        h.engine.applyCommands(blockStart: 0, control: h.control.pointee)
        #expect(h.engine.takeSourceRequests() == TimeSourceRequests(tempo: BPM(90)))
        h.run(frames: 256, block: 256)
        #expect(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 3)
    }
}
