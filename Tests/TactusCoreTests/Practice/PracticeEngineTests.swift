import Testing
@testable import TactusCore

/// Count-in, speed trainer and gap trainer in `Engine.render`, frame by frame.
@Suite("Practice tools in the engine")
struct PracticeEngineTests {
    func harness(tempo: BPM = BPM(120), meter: Meter = .fourFour, countIn: CountIn? = nil, trainer: SpeedTrainer? = nil,
                 gap: GapTrainer? = nil, clockWhileStopped: Bool = false) -> EngineHarness {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: tempo, bar: BarSettings(meter: meter),
                                                  clockWhileStopped: clockWhileStopped, countIn: countIn, trainer: trainer, gap: gap))
        h.send(.start)
        return h
    }

    @Test("Count-in of 2 bars: 8 accents at half gain, no clock, then Start and the first clock on bar 1's downbeat")
    func countInBars() {
        let h = harness(countIn: CountIn(bars: 2))
        h.run(frames: 48_000 * 6, block: 256)
        let counted = h.onsetSamples.prefix(8)
        #expect(counted.map(\.frame) == (0..<8).map { Int64($0) * 24_000 })
        #expect(counted.allSatisfy { $0.value == 0.5 })   // the accent impulse (1) at the count-in's gain
        #expect(h.otherMIDI.first?.status == MIDIStatus.start)
        #expect(h.otherMIDI.first?.frame == 192_000)
        #expect(h.clockFrames.first == 192_000)
        // Bar 1 from there: the accent at full gain, then beats.
        #expect(h.onsetSamples[8].frame == 192_000 && h.onsetSamples[8].value == 1)
        #expect(h.onsetSamples[9].value == 0.5 && h.onsets[9].sound == .beat)
    }

    @Test("Count-in 0 is two beats (klick's -c 0), in the meter's beat: 6/8 at 180 eighths")
    func countInTwoBeats() {
        let h = harness(tempo: BPM(180), meter: Meter("6/8")!, countIn: CountIn(bars: 0))
        h.run(frames: 48_000 * 2, block: 100)
        #expect(h.onsets.prefix(3).map(\.frame) == [0, 16_000, 32_000])
        #expect(h.otherMIDI.first?.frame == 32_000)
        #expect(h.clockFrames.first == 32_000)
    }

    @Test("--count-in-clock: the clock runs from the count-in's first beat, Start still on bar 1")
    func countInWithClock() {
        let h = harness(countIn: CountIn(bars: 1, sendsClock: true))
        h.run(frames: 48_000 * 3, block: 256)
        #expect(h.clockFrames.prefix(3) == [0, 1_000, 2_000])
        #expect(h.otherMIDI.first?.status == MIDIStatus.start)
        #expect(h.otherMIDI.first?.frame == 96_000)
    }

    @Test("A stop during the count-in: no Start, nothing more")
    func stopDuringCountIn() {
        let h = harness(countIn: CountIn(bars: 2))
        h.run(frames: 50_000, block: 256)
        h.send(.stop)
        h.run(frames: 300_000, block: 256)
        #expect(h.onsets.count == 3)
        #expect(!h.otherMIDI.contains { $0.status == MIDIStatus.start })
    }

    @Test("Trainer 80-84/2: each step on a bar line, at the bar's first click; 24 clocks a beat at each tempo; then hold")
    func trainerSteps() {
        let h = harness(tempo: BPM(80), trainer: SpeedTrainer(from: BPM(80), to: BPM(84), bars: 2))
        h.run(frames: 48_000 * 60, block: 256)
        let beats = h.onsets.map(\.frame)
        var expected: [Int64] = []
        var frame = 0.0
        for bar in 0..<24 {
            let tempo = Double(min(80 + bar / 2, 84))
            for _ in 0..<4 { expected.append(Int64((frame).rounded())); frame += 48_000 * 60 / tempo }
        }
        let n = min(beats.count, expected.count)
        #expect(n >= 80)
        for i in 0..<n { #expect(abs(beats[i] - expected[i]) <= 1, "beat \(i)") }
        // Clock: 96 ticks a bar (4 beats × 24) at each step's tempo, the interval changing on the bar's first tick.
        let clocks = h.clockFrames
        for bar in 0..<12 {
            let tempo = Double(min(80 + bar / 2, 84))
            let ticks = clocks[(bar * 96)..<(bar * 96 + 97)]
            let span = Double(ticks.last! - ticks.first!)
            #expect(abs(span - 4 * 48_000 * 60 / tempo) <= 1, "bar \(bar + 1)")
            #expect(ticks.first! == beats[bar * 4])
        }
    }

    @Test("A tempo set while the trainer runs is where its next step starts from")
    func trainerGoesOnFromThePlayersTempo() {
        let h = harness(tempo: BPM(100), trainer: SpeedTrainer(from: BPM(100), to: BPM(200), bars: 1, stepHundredths: 500))
        h.run(frames: 30_000, block: 256)
        h.setTempo(BPM(150))
        h.run(frames: 48_000 * 4, block: 256)
        // Bar 1 at 100 until the tempo change, bar 2 at 150 + 5 = 155.
        let beats = h.onsets.map(\.frame)
        let bar2 = beats[4], bar3 = beats[8]
        let barLength = Double(bar3 - bar2), expected = 4.0 * 48_000 * 60 / 155
        #expect(abs(barLength - expected) <= 1)
    }

    @Test("Gap 3/1 over 40 bars: exactly bars 4, 8, … 40 silent; the clock never breaks")
    func gapThreeOne() {
        let h = harness(gap: GapTrainer(play: 3, mute: 1))
        h.run(frames: 40 * 96_000, block: 256)
        let bars = Set(h.onsets.map { Int($0.frame / 96_000) + 1 })
        #expect(bars == Set((1...40).filter { $0 % 4 != 0 }))
        #expect(h.onsets.count == 30 * 4)
        let clocks = h.clockFrames
        #expect(clocks.count == 40 * 96)
        for (n, c) in clocks.enumerated() { #expect(c == Int64(n) * 1_000) }
    }

    @Test("The soft accent o: the beat sound at half its gain; a map's pattern takes it too")
    func softAccent() throws {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, bar: BarSettings(meter: .fourFour, accents: AccentPattern("Xo.x"))))
        h.send(.start)
        h.run(frames: 96_000, block: 256)
        #expect(h.onsetSamples.map(\.frame) == [0, 24_000, 72_000])
        #expect(h.onsetSamples.map(\.value) == [1, 0.25, 0.5])
        #expect(AccentPattern("Xo.x")?.description == "Xo.x")
        let map = try TempoMapParser.parse("1 120 Xo.x", file: "t.map")
        #expect(map.sections[0].accents == AccentPattern("Xo.x"))
    }

    @Test("Random gaps: the same seed silences the same bars, about P of them")
    func randomGaps() {
        let gap = GapTrainer(probability: 0.25, seed: 42)
        let silent = (1...4000).filter { gap.mutes(bar: $0) }.count
        #expect((900...1100).contains(silent))
        let again = GapTrainer(probability: 0.25, seed: 42)
        #expect((1...200).map(gap.mutes) == (1...200).map(again.mutes))
        #expect((1...200).map(gap.mutes) != (1...200).map(GapTrainer(probability: 0.25, seed: 43).mutes))
    }
}
