import Testing
@testable import TactusCore

/// Behaviour kept through the engine's reshaping (the agenda and the time
/// source): ten minutes of a session with every kind of change, rendered in
/// JACK-sized blocks, must give exactly the events the engine gave before.
///
/// The expected digests were generated from the engine of commit 42b45db
/// (before the reshaping), then once again when a silent beat came to silence
/// its subdivisions too (README, "Silent beats": the scenario's X.x.x.. with
/// triplets lost its silent beats' triplets, 120 onsets, and nothing else), with
/// this very scenario:
///
///     swift test --filter EngineGoldenRenderTests 2>&1 | grep 'golden render'
///
/// and pasted below. Each digest is FNV-1a 64 over every MIDI event (frame,
/// bytes) and every click onset (frame, sample value: the impulse sounds name
/// the sound and the sound set), in output order. A change of a single frame
/// anywhere in the ten minutes changes it. With `TACTUS_GOLDEN_DUMP=PREFIX` the
/// events are also written to PREFIX-TEMPO, one a line, to diff two engines.
@Suite("Engine: ten minutes rendered exactly as before the reshaping")
struct EngineGoldenRenderTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var midiEvents: Int
        var onsets: Int
        var digest: UInt64
        var description: String { "\(midiEvents) MIDI events, \(onsets) onsets, digest 0x\(String(digest, radix: 16))" }
    }

    /// 7/8 at `tempo` (accents X.x.x.., triplets), then: a tempo change, a preset
    /// switch (4/4 with sixteenths, its own sounds and gains, a new tempo) on the
    /// bar line, a locate to bar 9 while running, stop and continue, clock
    /// offsets both ways, a short xrun (late events) and a long one (skip ahead),
    /// a switch on the next beat to 5/4, a mute and a last tempo change.
    static func render(tempo: BPM) -> Outcome {
        let rate = 48_000
        let seven = BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, accents: AccentPattern("X.x.x..")!, subdivision: .triplets)
        let h = EngineHarness(EngineConfiguration(sampleRate: rate, tempo: tempo, bar: seven))
        // The preset's sounds: impulses of other heights, so its clicks are told apart.
        let presetSounds = SoundSet(sampleRate: rate) { [EngineHarness.impulseValue[$0]! * 0.75] }
        var gains = SoundGains()
        gains.accent = 0.5
        let second = Int64(rate)
        let script: [(Int64, () -> Void)] = [
            (0, { h.send(.start) }),
            (20 * second, { h.setTempo(tempo.adding(7.5)) }),
            (60 * second, { h.send(.changeBar(BarSettings(meter: .fourFour, subdivision: .sixteenths), tempo: BPM(111.11), at: .nextBar,
                                              sounds: presetSounds, gains: gains))
                              // A preset switch sends its tempo after its bar (PresetApplication).
                              h.setTempo(BPM(111.11)) }),
            (120 * second, { h.send(.locate(bar: 9)) }),
            (200 * second, { h.send(.stop) }),
            (205 * second, { h.send(.continue) }),
            (300 * second, { h.send(.setClockOffset(frames: 240)) }),
            (400 * second, { h.send(.setClockOffset(frames: -120)) }),
            (450 * second, { h.skip(frames: 512) }),
            (470 * second, { h.skip(frames: Int64(rate)) }),
            (500 * second, { h.send(.changeBar(BarSettings(meter: Meter(beatsPerBar: 5, beatUnit: 4)!), tempo: nil, at: .nextBeat)) }),
            (530 * second, { h.send(.setMuted(true)) }),
            (540 * second, { h.send(.setMuted(false)) }),
            (550 * second, { h.setTempo(tempo.adding(-3.25)) }),
        ]
        var next = 0
        while h.frame < 600 * second {
            while next < script.count && script[next].0 <= h.frame {
                script[next].1()
                next += 1
            }
            h.renderBlock(256)
        }
        // The set retired is the harness's own (it frees it); the preset's is still in use.
        while h.control.pointee.retiredSounds.pop() != nil {}
        presetSounds.deallocate()

        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash ^= (value >> UInt64(shift)) & 0xFF
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        for event in h.midi {
            mix(UInt64(bitPattern: event.frame))
            for i in 0..<Int(event.bytes.count) { mix(UInt64(event.bytes[i])) }
        }
        for onset in h.onsetSamples {
            mix(UInt64(bitPattern: onset.frame))
            mix(UInt64(onset.value.bitPattern))
        }
        if let path = ProcessEnvironment.value("TACTUS_GOLDEN_DUMP") {
            var text = ""
            for e in h.midi { text += "m \(e.frame) \(e.bytes.status)\n" }
            for o in h.onsetSamples { text += "c \(o.frame) \(o.value)\n" }
            try? FileSystem.replace(path + "-\(tempo)", with: Array(text.utf8))
        }
        let outcome = Outcome(midiEvents: h.midi.count, onsets: h.onsetSamples.count, digest: hash)
        print("golden render at \(tempo) BPM: \(outcome)")
        return outcome
    }

    @Test func tenMinutesAt133BPMAsBefore() {
        #expect(Self.render(tempo: BPM(133)) == Outcome(midiEvents: 25769, onsets: 3573, digest: 0x3ab7_74c4_2621_9d7f))
    }

    @Test func tenMinutesAt97_3BPMAsBefore() {
        #expect(Self.render(tempo: BPM(97.3)) == Outcome(midiEvents: 24604, onsets: 3493, digest: 0x1cf8_c7fa_cc1e_204e))
    }
}
