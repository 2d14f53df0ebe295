import Foundation
import Testing
@testable import TactusCore

/// A tempo map played by `Engine.render`: each click and each MIDI clock at its
/// own rounded frame of the exact integral of the map's tempo, meters, patterns
/// and volumes from their bar lines, Stop at the end or the map again.
@Suite("Tempo maps in the engine")
struct MapPlaybackTests {
    /// The exact times (in frames) of every beat and every clock tick of `map`,
    /// computed here beat by beat from the closed form of the integral, apart
    /// from the engine's arithmetic: a beat of a linear ramp lasts 60 s over the
    /// logarithmic mean of the tempi at its ends.
    struct Exact {
        var beats: [(frame: Double, accent: Accent, volume: Double)] = []
        var clocks: [Double] = []
        var end = 0.0

        init(_ map: TempoMap, sampleRate: Double) {
            var start = 0.0
            for s in map.sections {
                let quartersPerBeat = 4 / Double(s.meter.beatUnit)
                let accents = s.accents ?? .standard(beats: s.meter.beatsPerBar)
                let count = s.beats
                // Tempo at beat position b (from 0 to beats) of this entry, quarter notes a minute.
                func tempo(_ b: Double) -> Double {
                    switch s.tempo {
                    case .constant(let t): t
                    case .ramp(let a, let z): a + (z - a) * b / Double(count)
                    case .perBeat(let list): list[min(Int(b), list.count - 1)]
                    }
                }
                // Seconds from beat position b0 to b1 within one beat: quarters × 60 / logarithmic mean.
                func seconds(_ b0: Double, _ b1: Double) -> Double {
                    let t0: Double, t1: Double
                    if case .perBeat = s.tempo { t0 = tempo(b0); t1 = t0 } else { t0 = tempo(b0); t1 = tempo(b1) }
                    let mean = abs(t1 - t0) < 1e-12 ? t0 : (t1 - t0) / log(t1 / t0)
                    return (b1 - b0) * quartersPerBeat * 60 / mean
                }
                var beatStart = start
                for b in 0..<count {
                    beats.append((beatStart * sampleRate, accents[b % s.meter.beatsPerBar], s.volume))
                    // Clock ticks: 24 a quarter note, so 24 × quartersPerBeat a beat.
                    let ticks = Int((24 * quartersPerBeat).rounded())
                    for k in 0..<ticks {
                        clocks.append((beatStart + seconds(Double(b), Double(b) + Double(k) / Double(ticks))) * sampleRate)
                    }
                    beatStart += seconds(Double(b), Double(b + 1))
                }
                start = beatStart
            }
            end = start * sampleRate
        }
    }

    func play(_ text: String, sampleRate: Int = 48_000, loops: Bool = false, block: Int = 256, seconds: Double? = nil)
        throws -> (EngineHarness, Exact) {
        let map = try TempoMapParser.parse(text, file: "t.map")
        let timeline = MapTimeline(map, loops: loops)
        let h = EngineHarness(EngineConfiguration(sampleRate: sampleRate, map: timeline))
        h.send(.start)
        let exact = Exact(map, sampleRate: Double(sampleRate))
        h.run(frames: Int64(((seconds.map { $0 * Double(sampleRate) } ?? exact.end) + 2).rounded(.up)), block: block)
        timeline.deallocate()
        return (h, exact)
    }

    @Test("Constant tempi, meter changes (tempo in quarter notes), patterns with silent beats: every click on its rounded frame")
    func constantSections() throws {
        let (h, exact) = try play("2 120\n1 3/4 90 X.x\n2 6/8 133 X..x..\n1 7/8 97.3")
        let heard = exact.beats.filter { $0.accent != .silent }
        #expect(h.onsets.count == heard.count)
        for (o, e) in zip(h.onsets, heard) {
            #expect(abs(Double(o.frame) - e.frame) <= 0.5, "\(o.frame) vs \(e.frame)")
            #expect(o.sound == (e.accent == .accent ? .accent : .beat))
        }
        // 6/8 at 133 quarter notes: an eighth lasts 60 / 266 s, 10 827.07 frames.
        #expect(h.onsets[10].frame == 192_000 + 3 * 32_000)
        #expect(h.onsets[11].frame - h.onsets[10].frame == 32_481)   // three eighths: 32 481.2
    }

    @Test("Ramps up and down: each click and each of the 24 clocks a quarter within 0.5 frame of the exact integral", arguments: [48_000, 44_100])
    func rampsAreExact(sampleRate: Int) throws {
        let (h, exact) = try play("4 60-240\n3 3/4 240-61.5\n2 6/8 80-81 X..x..\n1 100,110,120,130", sampleRate: sampleRate)
        let heard = exact.beats.filter { $0.accent != .silent }
        #expect(h.onsets.count == heard.count)
        var worst = 0.0
        for (o, e) in zip(h.onsets, heard) { worst = max(worst, abs(Double(o.frame) - e.frame)) }
        #expect(worst <= 0.5 + 1e-6)
        let clocks = h.clockFrames
        // The map's last bar line has no clock: the song stops there.
        #expect(clocks.count == exact.clocks.count)
        var worstClock = 0.0
        for (c, e) in zip(clocks, exact.clocks) { worstClock = max(worstClock, abs(Double(c) - e)) }
        #expect(worstClock <= 0.5 + 1e-6)
    }

    @Test("At the map's end: Stop and Song Position on its last bar line, no click or clock after it")
    func endStops() throws {
        let (h, exact) = try play("1 120\n1 3/4 60-120")
        let end = Int64((exact.end).rounded())
        #expect(h.otherMIDI.map(\.status) == [MIDIStatus.start, MIDIStatus.stop, MIDIStatus.songPosition])
        #expect(h.otherMIDI.last?.frame == end)
        #expect(h.clockFrames.last! < end)
        #expect(h.clockFrames.count == exact.clocks.count)
        #expect(h.onsets.count == 7)
    }

    @Test("--map-loop: the second pass is the first moved by the map's exact length, no drift")
    func loops() throws {
        let text = "1 97.3\n1 3/4 120-80"
        let map = try TempoMapParser.parse(text, file: "t.map")
        let exact = Exact(map, sampleRate: 48_000)
        let (h, _) = try play(text, loops: true, seconds: 10 * exact.end / 48_000)
        let perPass = exact.beats.count
        #expect(h.onsets.count >= 9 * perPass)
        for (n, o) in h.onsets.enumerated() {
            let e = exact.beats[n % perPass].frame + Double(n / perPass) * exact.end
            #expect(abs(Double(o.frame) - e) <= 0.5 + 1e-6)
        }
        #expect(!h.otherMIDI.contains { $0.status == MIDIStatus.stop })
    }

    @Test("The result does not depend on the block size")
    func blockSizes() throws {
        let text = "2 133-70\n1 5/8 200,190,180,170,160"
        let (a, _) = try play(text, block: 1)
        let (b, _) = try play(text, block: 1024)
        #expect(a.onsets.map(\.frame) == b.onsets.map(\.frame))
        #expect(a.midi == b.midi)
    }

    @Test("An entry's volume multiplies the click's gain from its first click")
    func volume() throws {
        let (h, _) = try play("1 2/4 120\n1 2/4 120 0.5\n1 2/4 120 X. 2")
        #expect(h.onsetSamples.map(\.value) == [1, 0.5, 0.5, 0.25, 2])
    }

    @Test("A stop in the middle of a map ends it; the next Start plays it from the top")
    func stopAndStartAgain() throws {
        let map = try TempoMapParser.parse("1 120\n1 60", file: "t.map")
        let timeline = MapTimeline(map)
        defer { timeline.deallocate() }
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, map: timeline))
        h.send(.start)
        h.run(frames: 30_000, block: 256)
        h.send(.stop)
        h.run(frames: 10_000, block: 256)
        h.send(.start)
        h.run(frames: 300_000, block: 256)
        let second = h.onsets.map(\.frame).filter { $0 >= 40_000 }
        let origin = try #require(second.first)
        #expect(second.map { $0 - origin } == [0, 24_000, 48_000, 72_000, 96_000, 144_000, 192_000, 240_000])
    }
}
