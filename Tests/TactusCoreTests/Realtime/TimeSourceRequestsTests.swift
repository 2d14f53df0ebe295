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
        h.send(.start)
        h.setTempo(BPM(133))
        h.send(.stop)
        h.send(.continue)
        h.send(.setTempo(BPM(140.5)))
        #expect(h.engine.beginCycle(CycleInput(start: 0, frames: 0, owner: .tempoAndTransport), control: h.control.pointee).requests == TimeSourceRequests(tempo: BPM(140.5), running: true))
        #expect(h.engine.beginCycle(CycleInput(start: 0, frames: 0, owner: .tempoAndTransport), control: h.control.pointee).requests == TimeSourceRequests())
        h.owner = .tempoAndTransport
        // Nothing started or moved by the engine itself: no Start, no clock.
        h.run(frames: 48_000, block: 256)
        #expect(h.midi.isEmpty)
        let running = h.engine.isRunning
        #expect(!running)
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 12_000)
    }

    @Test func aPresetsTempoGoesToTheSourceAndItsBarStillChanges() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.send(.changeBar(BarSettings(meter: Meter("3/4")!), tempo: BPM(90), at: .nextBar))
        #expect(h.engine.beginCycle(CycleInput(start: 0, frames: 0, owner: .tempoAndTransport), control: h.control.pointee).requests == TimeSourceRequests(tempo: BPM(90)))
        h.owner = .tempoAndTransport
        h.run(frames: 256, block: 256)
        #expect(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 3)
    }

    /// A source rolling at 120 BPM from frame 0 (250 frames a pulse at 48 kHz),
    /// owning tempo and transport as Link does.
    func ownedHarness(_ configuration: EngineConfiguration) -> EngineHarness {
        let h = EngineHarness(configuration)
        h.source = { frame in TimelinePosition(rolling: true, songPulse: Double(frame) / 250, framesPerPulse: 250) }
        h.owner = .tempoAndTransport
        return h
    }

    @Test func theTrainersStepsAreAskedOfTheSourceThatOwnsTheTempo() {
        // From 120, +10 every bar up to 140: 130 at bar 2's line (frame 96 000);
        // at bar 3's the step goes on from the tempo playing there, and this
        // source did not take 130 (Link does, from the next cycle): 130 again,
        // at bars 3, 4 and 5 (bar 5's line is the first point past the last
        // block: a change due there is taken in that block, as every change).
        let h = ownedHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120),
                                                 trainer: SpeedTrainer(from: BPM(120), to: BPM(140), bars: 1, stepHundredths: 1_000)))
        h.run(frames: 4 * 96_000, block: 256)
        // Each the engine's own (no key announced it: a host refusing it says so),
        // from the song pulse of its bar line (384 a bar of 4/4), where a source
        // that takes it sets it (the engine reaches it a grid point early).
        let step = { (bpm: Double, bar: Int64) in TimeSourceRequests(tempo: BPM(bpm), tempoSongPulse: bar * 384, enginesOwnTempo: true) }
        #expect(h.requests == [step(120, 0), step(130, 1), step(130, 2), step(130, 3), step(130, 4)])
        // The grid stays the source's (it did not take the requests): a beat every 24 000 frames.
        #expect(h.onsets.map(\.frame).prefix(13) == [0, 24_000, 48_000, 72_000, 96_000, 120_000, 144_000, 168_000, 192_000,
                                                      216_000, 240_000, 264_000, 288_000])
    }

    @Test func aTempoMapsSegmentsAreAskedOfTheSourceAndItsEndStopsTheSource() throws {
        // One bar at 90, one at 150, then the map ends (the song stops there).
        let map = MapTimeline(try TempoMapParser.parse("1 90\n1 150\n", file: "t.map"))
        let h = ownedHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), map: map))
        // Through the block after the end's (frame 192 000), whose cycle hands on the stop.
        h.run(frames: 2 * 96_000 + 512, block: 256)
        #expect(h.requests == [TimeSourceRequests(tempo: BPM(90), tempoSongPulse: 0, enginesOwnTempo: true),
                               TimeSourceRequests(tempo: BPM(150), tempoSongPulse: 384, enginesOwnTempo: true),
                               TimeSourceRequests(running: false)])
        // The source's beats, not the map's: 24 000 frames apart, none from the end on.
        #expect(h.onsets.map(\.frame) == [0, 24_000, 48_000, 72_000, 96_000, 120_000, 144_000, 168_000])
    }
}
