import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--transport follow` behind a timebase master whose BBT is klick's (`klick
/// -T`, Debian's 0.12.2), without a server: klick's tempo map arithmetic and its
/// timebase callback as klick computes them (a beat's frame is the sum of the
/// beats before it in doubles; the BBT is the last beat its process cycle
/// passed, integer ticks, 1920 a beat), a period of 256 frames, and each cycle's
/// reading fed to `BBTFollower` and the engine as the JACK cycle does
/// (`ProcessCycle.readTransport`, then `Engine.cycle`).
///
/// klick reads a beat as passed only when it falls before the end of a cycle,
/// so a beat on a cycle's first frame is still ahead of its position when it
/// writes that cycle's BBT: it names the next beat with `tick - 1920` and one
/// more beat, and at a bar line (120 BPM 4/4: every 96 000 frames, 375
/// periods) it counts the bar on but leaves the beat one past the bar's last:
/// bar 2 beat 5 of 4, tick 0, at frame 96 000, in the old meter and tempo.
@Suite struct KlickTimebaseTests {
    static let rate = 48000.0
    static let period = 256

    /// One entry of a klick tempo map: bars, meter, tempo in quarter notes.
    struct Entry { var bars: Int, beats: Int, denom: Int, tempo: Double }

    /// The map of the follow defect: 2 bars 4/4 at 120, 3 bars 3/4 at 133, 3 bars 4/4 at 133.
    static let map = [Entry(bars: 2, beats: 4, denom: 4, tempo: 120), Entry(bars: 3, beats: 3, denom: 4, tempo: 133),
                      Entry(bars: 3, beats: 4, denom: 4, tempo: 133)]

    /// One beat of the map: its frame (klick's sum), bar (from 1), beat (from 1) and entry.
    struct Beat { var frame: Double, bar: Int, beat: Int, entry: Int }

    static func beats(_ map: [Entry]) -> [Beat] {
        var out: [Beat] = []
        var frame = 0.0, bar = 1
        for (i, e) in map.enumerated() {
            for _ in 0..<e.bars {
                for b in 1...e.beats {
                    out.append(Beat(frame: frame, bar: bar, beat: b, entry: i))
                    frame += 240.0 / (e.tempo * Double(e.denom)) * rate
                }
                bar += 1
            }
        }
        return out
    }

    /// klick's BBT for the cycle at transport `frame` (rolled from 0, a cycle of
    /// 256 frames): its process cycle before this one passed every beat before
    /// `frame`; frame 0's is the stopped transport's, before any beat (tick 0).
    static func klickPosition(frame: Int, beats: [Beat], map: [Entry]) -> jack_position_t {
        var p = jack_position_t()
        p.frame = UInt32(frame)
        p.valid = JackPositionBBT
        p.ticks_per_beat = 1920
        let index = frame == 0 ? 0 : (beats.lastIndex { $0.frame < Double(frame) } ?? 0)
        let b = beats[index], e = map[b.entry]
        p.bar = Int32(b.bar)
        p.beat = Int32(b.beat)
        p.beats_per_bar = Float(e.beats)
        p.beat_type = Float(e.denom)
        p.beats_per_minute = e.tempo * Double(e.denom) / 4
        let d = frame == 0 ? 0 : 240.0 / (e.tempo * Double(e.denom)) * rate
        p.tick = d == 0 ? 0 : Int32(UInt32((Double(frame) - b.frame) * 1920 / d))
        if p.tick >= 1920 {
            // klick: "already at the next beat": a tick less 1920, the beat on, the bar on past the last beat (the beat not wrapped).
            p.tick -= 1920
            p.beat += 1
            if p.beat > Int32(e.beats) { p.bar += 1 }
        }
        return p
    }

    /// Tactus's click onsets (transport frame, accent) following klick from
    /// frame 0 for `cycles` cycles, its engine at its own 100 BPM before,
    /// standing still for 8 cycles first; and the MIDI transport messages it sent.
    static func follow(cycles: Int) -> (clicks: [(frame: Int, accent: Bool)], transport: [UInt8]) {
        let sounds = SoundSet(sampleRate: Int(rate)) { [$0 == .accent ? 1 : $0 == .beat ? 0.5 : 0.25] }
        defer { sounds.deallocate() }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        var engine = Engine(configuration: EngineConfiguration(sampleRate: Int(rate), tempo: BPM(100)), sounds: sounds)
        var events = MIDIEventBuffer(capacity: 4096)
        let click = UnsafeMutablePointer<Float>.allocate(capacity: period)
        defer { click.deallocate() }
        var follower = BBTFollower(sampleRate: rate)
        let beats = beats(map)
        var clicks: [(frame: Int, accent: Bool)] = []
        var transport: [UInt8] = []
        // Tactus's own frames run 1000 cycles ahead of the transport's.
        let lead = 1000 * period
        for k in -8..<cycles {
            let frame = max(0, k) * period
            let position: TimelinePosition
            if k < 0 {
                position = TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0)
            } else {
                if k == 0 { follower.reset(); follower.lostCount() }
                guard let bbt = follower.position(klickPosition(frame: frame, beats: beats, map: map), frames: UInt32(period), located: false) else {
                    Issue.record("no position from klick's BBT at frame \(frame)")
                    return (clicks, transport)
                }
                position = bbt
            }
            let start = Int64(lead + k * period)
            var source = GivenPosition(position)
            engine.cycle(CycleInput(start: start, frames: period, owner: .tempoAndTransport), source: &source, control: control.pointee,
                         click: click, feedback: nil, events: &events)
            for i in 0..<period where click[i] != 0 { clicks.append((frame + i, click[i] == 1)) }
            for i in 0..<events.count where events[i].bytes.status != MIDIStatus.timingClock { transport.append(events[i].bytes.status) }
        }
        return (clicks, transport)
    }

    @Test func klicksBBTAtBarLinesOnACyclesFirstFrameSaysTheBarOnAndTheBeatPastTheLast() {
        let beats = Self.beats(Self.map)
        let at96000 = Self.klickPosition(frame: 96_000, beats: beats, map: Self.map)
        #expect((at96000.bar, at96000.beat, at96000.tick, at96000.beats_per_bar) == (2, 5, 0, 4))
        let at192000 = Self.klickPosition(frame: 192_000, beats: beats, map: Self.map)
        #expect((at192000.bar, at192000.beat, at192000.tick, at192000.beats_per_bar, at192000.beats_per_minute) == (3, 5, 0, 4, 120))
        let after = Self.klickPosition(frame: 192_256, beats: beats, map: Self.map)
        #expect((after.bar, after.beat, after.beats_per_bar, after.beats_per_minute) == (3, 1, 3, 133))
    }

    /// Every beat of the map (all 8 bars, 29 beats) has Tactus's click within 1
    /// frame, downbeats included, the accent on klick's bar lines and nowhere
    /// else, one click a beat; the only transport message is the Start.
    @Test func followingKlickEveryBeatHasItsClickAndEveryBarLineItsAccent() {
        let beats = Self.beats(Self.map)
        let end = beats.last!.frame + 1000
        let (clicks, transport) = Self.follow(cycles: Int(end) / Self.period + 1)
        var missing: [String] = []
        for b in beats {
            let near = clicks.filter { abs(Double($0.frame) - b.frame) <= 1 }
            if near.count != 1 || near[0].accent != (b.beat == 1) {
                missing.append("bar \(b.bar) beat \(b.beat) at \(b.frame): \(near.map { "\($0.frame)\($0.accent ? " accent" : "")" })")
            }
        }
        print("following klick's BBT (deterministic): \(clicks.count) clicks for \(beats.count) beats, \(missing.count) beats without their click or accent, transport \(transport.map { String($0, radix: 16) })")
        #expect(missing.isEmpty, "\(missing)")
        #expect(clicks.count == beats.count, "\(clicks.map(\.frame))")
        #expect(transport == [MIDIStatus.start], "\(transport.map { String($0, radix: 16) })")
    }
}
