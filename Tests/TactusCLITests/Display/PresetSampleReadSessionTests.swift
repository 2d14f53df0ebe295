import Testing
@testable import TactusCLI
import TactusCore

/// A preset switch whose samples are still being read (`SampleRead`) does not
/// hold up the control thread: the pressure steps keep their times, the preset
/// playing goes on, and the switch is sent in the first round after the read.
@Suite("Control session: a preset's samples read off the control thread")
struct PresetSampleReadSessionTests {
    let ch = SessionHarness.channel
    let up = UInt7(72)!

    /// A harness whose preset B brings samples through `read`; A and C bring none.
    func harness(_ read: SampleRead) -> SessionHarness {
        SessionHarness(presets: true) { entry, _ in entry.preset.name == "B" ? read : nil }
    }

    /// A light hold on the up key from 1 s, polled every 10 ms until `until`;
    /// `during` runs at 1.1 s. Each tempo sent, with the round that sent it.
    func hold(_ h: SessionHarness, until: Double, during: () -> Void) -> [(Double, BPM)] {
        h.midi(.noteOn(channel: ch, note: up, velocity: UInt7(100)!), at: 1)
        h.midi(.channelPressure(channel: ch, pressure: UInt7(40)!), at: 1.001)
        var changes: [(Double, BPM)] = []
        var last = h.tempo
        for i in 100...Int(until * 100) {
            let t = Double(i) / 100
            if i == 110 { during() }
            h.poll(at: t)
            if h.tempo != last { last = h.tempo; changes.append((t, last)) }
        }
        return changes
    }

    @Test func pressureStepsKeepTheirScheduleWhileThePresetsSamplesAreRead() throws {
        let read = SampleRead(sampleRate: 48_000)
        let loading = harness(read)
        let steps = hold(loading, until: 2) { loading.key(.nextPreset, at: 1.1) }
        #expect(loading.session.message == "reading the samples of B; A plays until they are read")
        // The same hold without a switch: the same steps at the same rounds.
        let plain = SessionHarness(presets: true)
        let alone = hold(plain, until: 2) {}
        #expect(steps.map(\.0) == alone.map(\.0) && steps.map(\.1) == alone.map(\.1), "\(steps) against \(alone)")
        // The tap at 1 s, then a step at 1.32 s and every 0.16 s after.
        #expect(steps.map(\.0) == [1.0, 1.32, 1.48, 1.64, 1.8, 1.96])
        #expect(steps.map(\.1) == [BPM(121), BPM(122), BPM(123), BPM(124), BPM(125), BPM(126)])
        #expect(loading.session.presetPosition?.name == "A")
        #expect(!loading.commands().contains { if case .changeBar = $0 { true } else { false } }, "A plays on: no bar change sent")

        // The read is done: the next round sends B with its sounds.
        read.finish(.success(SoundSet.synthesized(sampleRate: 48_000)))
        loading.poll(at: 2.005)
        let bars = loading.commands().compactMap { if case .changeBar(let bar, let tempo, _, let sounds, _, _) = $0 { (bar, tempo, sounds) } else { nil } }
        #expect(bars.count == 1)
        #expect(bars.first?.0.meter == Meter("3/4")! && bars.first?.1 == BPM(140))
        let sounds = try #require(bars.first?.2)
        sounds.deallocate()
        #expect(loading.session.presetPosition?.name == "B")
        #expect(loading.session.message == nil)
    }

    @Test func aSampleThatDoesNotDecodeRefusesThePresetByFileAndFieldAndTheOldOnePlaysOn() {
        let read = SampleRead(sampleRate: 48_000)
        let h = harness(read)
        h.key(.nextPreset, at: 1)
        _ = h.commands()
        read.finish(.failure(PresetError(file: "/p/b.json", path: "sounds.beat.sample", problem: "tactus: cannot read '/p/long.wav': truncated")))
        h.poll(at: 1.5)
        #expect(h.session.message == "preset refused, A keeps playing: /p/b.json: sounds.beat.sample: tactus: cannot read '/p/long.wav': truncated")
        #expect(h.commands().isEmpty, "nothing sent: A's sounds and tempo stay")
        #expect(h.session.presetPosition?.name == "A")
        #expect(h.tempo == BPM(120))
    }

    @Test func aNewerChoiceWinsOverAPresetStillReadingAndItsSoundsAreFreed() {
        let read = SampleRead(sampleRate: 48_000)
        let h = harness(read)
        h.key(.nextPreset, at: 1)
        // Program Change 0 (A, no samples to read) while B reads: A at once, B dropped.
        h.midi(.programChange(channel: ch, program: UInt7(0)!), at: 1.2)
        h.poll(at: 1.2)
        #expect(h.session.presets?.loadingEntry == nil)
        read.finish(.success(SoundSet.synthesized(sampleRate: 48_000)))
        #expect(read.take().map { _ in "taken" } == nil, "abandoned: its sounds were freed when they came")
        _ = h.commands()
        h.poll(at: 2)
        #expect(h.commands().isEmpty)
        #expect(h.session.presetPosition?.name == "A")
    }
}
