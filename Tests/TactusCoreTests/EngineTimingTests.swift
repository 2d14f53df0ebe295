import Testing
@testable import TactusCore

/// docs/DESIGN.md §3.3: the n-th tick after an anchor is at anchor + round(n × framesPerTick),
/// never the sum of rounded intervals: no drift, whatever the tempo or the run length.
@Suite("Engine timing")
struct EngineTimingTests {
    @Test("Clicks and clocks stay within ±0.5 frame of the ideal grid for one hour at 48 kHz", arguments: [BPM(133), BPM(97.3)])
    func oneHourWithoutDrift(bpm: BPM) {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: bpm))
        h.send(.start)
        let hour: Int64 = 3600 * 48_000
        h.run(frames: hour, block: 1024)

        let onsets = h.onsets.map(\.frame)
        var worstClick = 0.0
        for (n, f) in onsets.enumerated() {
            worstClick = max(worstClick, abs(Double(f) - idealFrame(Int64(n), sampleRate: 48_000, bpm: bpm, eventsPerBeat: 1)))
        }
        let clocks = h.clockFrames
        var worstClock = 0.0
        for (n, f) in clocks.enumerated() {
            worstClock = max(worstClock, abs(Double(f) - idealFrame(Int64(n), sampleRate: 48_000, bpm: bpm, eventsPerBeat: 24)))
        }
        #expect(worstClick <= 0.5)
        #expect(worstClock <= 0.5)
        // Every beat that starts inside the hour is there: ceil(hour / framesPerBeat) of them.
        let framesPerBeat = idealFrame(1, sampleRate: 48_000, bpm: bpm, eventsPerBeat: 1)
        #expect(onsets.count == Int((Double(hour) / framesPerBeat).rounded(.up)))
        #expect(Double(clocks.count) == (Double(hour) / (framesPerBeat / 24) - 0.5).rounded(.up))
        // Beat n's click is on the same frame as its clock 24 × n.
        #expect(onsets.enumerated().allSatisfy { 24 * $0.offset >= clocks.count || clocks[24 * $0.offset] == $0.element })
        #expect(h.onsets.enumerated().allSatisfy { $0.element.sound == ($0.offset % 4 == 0 ? .accent : .beat) })
    }

    @Test func aTempoChangeReanchorsAtTheClockTickWhereItTakesEffect() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.send(.start)
        h.run(frames: 48_000, block: 256)           // 1 s at 120: 48 clocks, 1000 frames apart
        h.setTempo(BPM(133))
        h.run(frames: 48_000, block: 256)
        let clocks = h.clockFrames
        // At 120 BPM a clock is exactly 1000 frames: clocks 0…47 at 0…47000.
        #expect(Array(clocks.prefix(48)) == (0..<48).map { Int64($0) * 1000 })
        // The block at 48 000 reads the new tempo; clock 48 at 48 000 is the new anchor.
        #expect(clocks[48] == 48_000)
        for n in 48..<clocks.count {
            let ideal = 48_000 + idealFrame(Int64(n - 48), sampleRate: 48_000, bpm: BPM(133), eventsPerBeat: 24)
            #expect(abs(Double(clocks[n]) - ideal) <= 0.5)
        }
        // Nothing lost or doubled: strictly increasing, spacing only 1000 (old) or 902/903 (new).
        for i in 1..<clocks.count { #expect([1000, 902, 903].contains(clocks[i] - clocks[i - 1])) }
        #expect(h.control.pointee.status.tempoHundredths.load(ordering: .relaxed) == 13_300)
    }

    @Test func aTempoChangeMidBlockWaitsForTheNextTick() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.send(.start)
        h.run(frames: 1500, block: 1500)           // clocks at 0 and 1000; cursor waits for 2000
        h.setTempo(BPM(60))
        h.run(frames: 10_000, block: 1000)
        // Clock 2 at 2000 keeps its old-grid frame; from there 2000 frames apart (60 BPM).
        #expect(Array(h.clockFrames.prefix(6)) == [0, 1000, 2000, 4000, 6000, 8000])
    }

    @Test("999 BPM in 16-frame blocks and 1 BPM: exact clock counts", arguments: [44_100, 48_000, 96_000])
    func extremeTemposKeepExactCounts(sampleRate: Int) {
        for (bpm, seconds, block) in [(BPM(999), Int64(600), 16), (BPM(1), Int64(7200), 8192)] {
            let h = EngineHarness(EngineConfiguration(sampleRate: sampleRate, tempo: bpm))
            h.send(.start)
            let total = seconds * Int64(sampleRate)
            h.run(frames: total, block: block)
            // Exact count: the clocks n with round(n × framesPerClock) < total, in integer arithmetic.
            let num = Int64(sampleRate) * 6000, den = Int64(bpm.hundredths) * 24
            var expected: Int64 = 0
            while (2 * expected * num + den) / (2 * den) < total { expected += 1 }
            let clocks = h.clockFrames
            #expect(Int64(clocks.count) == expected, "\(bpm) BPM at \(sampleRate) Hz")
            #expect(Int64(h.onsets.count) == (expected + 23) / 24, "\(bpm) BPM at \(sampleRate) Hz")
            let wrong = clocks.enumerated().filter { $0.element != (2 * Int64($0.offset) * num + den) / (2 * den) }
            #expect(wrong.isEmpty, "\(bpm) BPM at \(sampleRate) Hz: first wrong clock \(String(describing: wrong.first))")
        }
    }

    @Test("Block size cannot change the result: 16, 64, 256, 1024 frames give identical bits")
    func blockSizeDoesNotMatter() {
        var reference: ([Float], [TimedMIDIEvent])?
        for block in [16, 64, 256, 1024] {
            let c = EngineConfiguration(sampleRate: 48_000, tempo: BPM(133), bar: BarSettings(meter: Meter("7/8")!, accents: AccentPattern("X.x.x.."), subdivision: .sixteenths))
            let h = EngineHarness(c, impulses: false, keepAudio: true)
            h.send(.start)
            h.run(frames: 10 * 48_000, block: block)
            h.setTempo(BPM(97.3))
            h.run(frames: 10 * 48_000, block: block)
            h.send(.stop)
            h.run(frames: 4096, block: block)
            if let (audio, midi) = reference {
                #expect(h.audio == audio, "block \(block)")
                #expect(h.midi == midi, "block \(block)")
            } else {
                #expect(h.audio.contains { $0 != 0 })
                reference = (h.audio, h.midi)
            }
        }
    }
}
