import Testing
@testable import TactusCore

/// A JACK server back at another sample rate: the song goes on from where it
/// was, to the pulse, not from the start of its bar (docs/DESIGN.md §3).
@Suite("Engine: a new sample rate keeps the position in the bar")
struct EngineSampleRateTests {
    @Test func theNextBeatLandsWhereItWouldHaveInTimeAndNoTransportMessageIsSent() {
        // 4/4 at 120: a beat is 24 000 frames at 48 kHz, 48 000 at 96 kHz.
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.send(.start)
        h.run(frames: 60_000, block: 500)          // beats at 0, 24 000, 48 000; bar 1, beat 3 heard
        let newSounds = SoundSet(sampleRate: 96_000) { [EngineHarness.impulseValue[$0]!] }
        var freed = 0
        h.engine.changeSampleRate(to: 96_000, sounds: newSounds, continuingAt: 60_000) { _ in freed += 1 }
        #expect(freed == 1)
        h.run(frames: 200_000, block: 1000)
        // Beat 4 was due at 72 000 (12 000 frames after the change at 48 kHz): 24 000 at 96 kHz.
        #expect(h.onsets.map(\.frame) == [0, 24_000, 48_000, 84_000, 132_000, 180_000, 228_000])
        #expect(h.onsets.map(\.sound) == [.accent, .beat, .beat, .beat, .accent, .beat, .beat])
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start])
        // Clocks: every 1000 frames before, 2000 after, the first after the change at 60 000 + 2 × 0.
        let after = h.clockFrames.filter { $0 >= 60_000 }
        #expect(after.first == 60_000)
        #expect(zip(after, after.dropFirst()).allSatisfy { $1 - $0 == 2000 })
        #expect(h.control.pointee.status.bar.load(ordering: .relaxed) == 2)
        #expect(h.engine.sampleRate == 96_000)
        newSounds.deallocate()
    }
}
