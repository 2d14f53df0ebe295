import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--transport master` through the real JACK cycle on the simulated process
/// loop: the BBT Tactus's timebase callback publishes for each cycle, exact
/// to the tick, and a locate of the transport taken in the cycle that sees it.
@Suite struct SimulatedMasterTests {
    static let rate = 48000.0

    /// One beat of a tempo map from the song's first beat: its frame from
    /// there (exact), bar, beat, BPM and beats a bar.
    struct Beat { var frame: Double, bar: Int, beat: Int, bpm: Double, beatsPerBar: Int }

    static func beats(_ segments: [(bars: Int, beatsPerBar: Int, bpm: Double)]) -> [Beat] {
        var out: [Beat] = []
        var frame = 0.0, bar = 1
        for s in segments {
            for _ in 0..<s.bars {
                for b in 1...s.beatsPerBar {
                    out.append(Beat(frame: frame, bar: bar, beat: b, bpm: s.bpm, beatsPerBar: s.beatsPerBar))
                    frame += rate * 60 / s.bpm
                }
                bar += 1
            }
        }
        return out
    }

    /// The live test's maps, 30 s each: 8 bars 4/4 at 133, 8 at 150, then 3/4
    /// at 150 from bar 17; and 97.3 BPM 7/8 (a map's tempo is in quarter
    /// notes: 48.65), 3 bars, then 120, then 5/8 from bar 7. Tactus starts,
    /// locates the transport to 0 and starts it (the control thread's round),
    /// and from the first rolling cycle on the BBT it publishes for every
    /// cycle is the map's at that cycle's first frame, to 10⁻⁶ tick
    /// (`tick_double`; `tick` its floor): bar, beat, the tempo in the meter's
    /// beat and the meter of the beat the frame is in, so they change from
    /// the cycle after the beat where they change; each click on its beat's
    /// rounded frame, the accent on beat 1. The live test allows ±0.5 frame
    /// between a click and its cycle's BBT; here the BBT is checked against
    /// the map itself.
    @Test(arguments: [
        ("8 133\n8 150\n30 3/4 150\n", 4, [(8, 4, 133.0), (8, 4, 150), (30, 3, 150)], 64),
        ("3 7/8 48.65\n3 7/8 60\n20 5/8 60\n", 8, [(3, 7, 97.3), (3, 7, 120), (20, 5, 120)], 42),
    ])
    func masterPublishesTheBBTOfTheClickItPlays(map text: String, beatType: Int, segments: [(Int, Int, Double)], meterBeat: Int) throws {
        let timeline = MapTimeline(try TempoMapParser.parse(text, file: "sim.map"))
        defer { timeline.deallocate() }
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(segments[0].2), map: timeline)
        let loop = try SimulatedProcessLoop(options: options, mode: .master)
        loop.run(cycles: Int(30 * Self.rate) / 256)

        let beats = Self.beats(segments.map { (bars: $0.0, beatsPerBar: $0.1, bpm: $0.2) })
        guard let song = loop.onsets.first?.engineFrame else { Issue.record("no click"); return }
        var clicksOff: [String] = []
        for (o, b) in zip(loop.onsets, beats) where Double(o.engineFrame - song) != (b.frame).rounded() || o.accent != (b.beat == 1) {
            clicksOff.append("click at \(o.engineFrame - song)\(o.accent ? " accent" : ""): bar \(b.bar) beat \(b.beat) at \(b.frame)")
        }
        let rolling = Set(loop.cycles.filter { $0.state.rawValue == JackTransportRolling.rawValue }.map(\.jackFrame))
        let checked = loop.published.filter { rolling.contains($0.jackFrame) }
        var wrong: [String] = []
        for p in checked {
            let e = Double(p.engineFrame - song)
            guard let k = beats.lastIndex(where: { $0.frame <= e }), k + 1 < beats.count else { continue }
            let b = beats[k], tick = (e - b.frame) / (beats[k + 1].frame - b.frame) * 1920
            let q = p.position
            if q.bar != b.bar || q.beat != b.beat || abs(q.tick_double - tick) > 1e-6 || q.tick != Int32(q.tick_double)
                || abs(q.beats_per_minute - b.bpm) > 1e-9 || q.beats_per_bar != Float(b.beatsPerBar) || q.beat_type != Float(beatType)
                || q.ticks_per_beat != 1920 {
                wrong.append("at \(e): \(q.bar).\(q.beat).\(q.tick_double) \(q.beats_per_minute) \(q.beats_per_bar)/\(q.beat_type), map \(b.bar).\(b.beat).\(tick) \(b.bpm) \(b.beatsPerBar)")
            }
        }
        let first = checked.first.map { "\($0.position.bar).\($0.position.beat)" }
        print("simulated master \(segments[0].2) BPM: \(loop.onsets.count) clicks, \(clicksOff.count) off their beat; BBT of \(checked.count) rolling cycles, \(wrong.count) wrong; first rolling cycle \(first ?? "none")")
        #expect(clicksOff.isEmpty, "\(clicksOff.prefix(5))")
        #expect(loop.onsets.count > meterBeat && loop.onsets.last.map { $0.engineFrame - song > Int64(beats[meterBeat].frame) } == true,
                "the run reaches the meter change")
        #expect(checked.count > 5500 && wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(first == "1.1")
    }

    /// A locate of the transport to bar 9 (133 BPM 4/4: 8 × 4 × 60 × 48 000 /
    /// 133 = 692 932.3 frames) 4 s in: Tactus relocates in the cycle that
    /// sees it (Start; Stop, Song Position 128, Continue), the Continue and
    /// bar 9's accent on the first frame of the cycle after jack2's held one,
    /// and the BBT published for that cycle is 9.1 tick 0; from there each
    /// cycle's BBT is the last one's plus a period.
    @Test func masterCountsBarsFromNineAfterALocateToBarNine() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(133))
        let loop = try SimulatedProcessLoop(options: options, mode: .master)
        loop.run(cycles: 750)
        loop.transport.locate(692_933)
        loop.run(cycles: 400)
        let words = loop.transportMessages.map(\.bytes)
        #expect(words == [[0xFA], [0xFC], [0xF2, 0, 1], [0xFB]], "\(words)")
        guard let cont = loop.transportMessages.first(where: { $0.bytes == [0xFB] }) else { return }
        let held = loop.cycles.first { $0.state.rawValue == JackTransportStarting.rawValue && $0.transportFrame == 692_933 }
        let next = loop.published.first { $0.jackFrame == cont.jackFrame }?.position
        let accent = loop.onsets.first { $0.jackFrame >= cont.jackFrame }
        print("simulated master locate: held cycle at \(held.map { "\($0.jackFrame)" } ?? "none"), Continue at \(cont.jackFrame), BBT there \(next.map { "\($0.bar).\($0.beat).\($0.tick)" } ?? "none"), next click \(accent.map { "\($0.jackFrame) accent \($0.accent)" } ?? "none")")
        #expect(held.map { $0.jackFrame &+ 256 } == cont.jackFrame, "the Continue on the first frame of the cycle after the held one")
        #expect(next.map { ($0.bar, $0.beat, $0.tick_double) == (9, 1, 0) } == true)
        #expect(accent?.jackFrame == cont.jackFrame && accent?.accent == true)
        // From the Continue on: each published BBT a period (256 frames at 133 BPM: 256 × 133 / 60 / 48 000 beats) on.
        let after = loop.published.filter { $0.jackFrame >= cont.jackFrame }.map(\.position)
        let step = 256 * 133 / 60 / 48000 * 1920.0
        var drift = 0.0
        for (a, b) in zip(after, after.dropFirst()) {
            let ta = Double((a.bar - 9) * 4 + a.beat - 1) * 1920 + a.tick_double
            let tb = Double((b.bar - 9) * 4 + b.beat - 1) * 1920 + b.tick_double
            drift = max(drift, abs(tb - ta - step))
        }
        #expect(after.count > 300 && drift < 1e-6, "\(drift)")
    }
}
