import Testing
@testable import TactusCore

/// `Engine.silence()`: what the JACK client calls when the server dies mid-click,
/// so the rest of that click is not played on the next server, off the grid.
/// 120 BPM at 48 kHz: a beat every 24 000 frames, the accent 1680 frames long.
@Suite struct EngineSilenceTests {
    @Test func silenceCutsTheSoundingClickAndKeepsTheGrid() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)), impulses: false, keepAudio: true)
        h.send(.start)
        h.renderBlock(256)
        #expect(h.audio[0] == 0.9 && h.audio[255] != 0, "the accent sounds into the next block")
        h.engine.silence()
        h.render(until: 24_064)
        #expect(h.audio[256..<24_000].allSatisfy { $0 == 0 }, "nothing of the cut accent")
        #expect(h.audio[24_000] == 0.7, "the next beat on its frame")
        #expect(h.clockFrames == (0..<25).map { Int64($0) * 1000 })
    }
}
