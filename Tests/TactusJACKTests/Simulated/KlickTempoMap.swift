import CJack

/// klick's timebase master (`klick -T`, Debian's 0.12.2) as klick computes
/// it: a tempo map of entries (bars, meter, tempo in quarter notes), a beat's
/// frame the sum of the beats before it in doubles, and each cycle's BBT the
/// last beat its process cycle before passed, integer ticks of 1920 a beat.
/// klick reads a beat as passed only when it falls before the end of a cycle,
/// so a beat on a cycle's first frame is still ahead when it writes that
/// cycle's BBT: it names the next beat with `tick - 1920` and one more beat,
/// and at a bar line (120 BPM 4/4: every 96 000 frames, 375 periods of 256)
/// it counts the bar on but leaves the beat one past the bar's last: bar 2
/// beat 5 of 4, tick 0, at frame 96 000, in the old meter and tempo.
struct KlickTempoMap {
    struct Entry { var bars: Int, beats: Int, denom: Int, tempo: Double }
    struct Beat { var frame: Double, bar: Int, beat: Int, entry: Int }

    let entries: [Entry]
    let beats: [Beat]

    /// The map of the follow defect where klick's downbeats went unheard: 2
    /// bars 4/4 at 120, 3 bars 3/4 at 133, 3 bars 4/4 at 133 (29 beats), bars
    /// 2 and 3 on a cycle's first frame.
    static let barLinesOnCycleStarts = KlickTempoMap([.init(bars: 2, beats: 4, denom: 4, tempo: 120),
                                                      .init(bars: 3, beats: 3, denom: 4, tempo: 133),
                                                      .init(bars: 3, beats: 4, denom: 4, tempo: 133)])

    init(_ entries: [Entry], rate: Double = 48000) {
        self.entries = entries
        var out: [Beat] = []
        var frame = 0.0, bar = 1
        for (i, e) in entries.enumerated() {
            for _ in 0..<e.bars {
                for b in 1...e.beats {
                    out.append(Beat(frame: frame, bar: bar, beat: b, entry: i))
                    frame += 240.0 / (e.tempo * Double(e.denom)) * rate
                }
                bar += 1
            }
        }
        beats = out
    }

    /// klick's BBT for the cycle at transport `frame` (rolled from 0); frame
    /// 0's is the stopped transport's, before any beat (tick 0).
    func position(_ transportFrame: UInt32) -> jack_position_t {
        let frame = Int(transportFrame)
        var p = jack_position_t()
        p.valid = JackPositionBBT
        p.ticks_per_beat = 1920
        let index = frame == 0 ? 0 : (beats.lastIndex { $0.frame < Double(frame) } ?? 0)
        let b = beats[index], e = entries[b.entry]
        p.bar = Int32(b.bar)
        p.beat = Int32(b.beat)
        p.beats_per_bar = Float(e.beats)
        p.beat_type = Float(e.denom)
        p.beats_per_minute = e.tempo * Double(e.denom) / 4
        let d = frame == 0 ? 0 : 240.0 / (e.tempo * Double(e.denom)) * 48000
        p.tick = d == 0 ? 0 : Int32(UInt32((Double(frame) - b.frame) * 1920 / d))
        if p.tick >= 1920 {
            // klick: "already at the next beat": the tick less 1920, the beat on, the bar on past the last beat (the beat not wrapped).
            p.tick -= 1920
            p.beat += 1
            if p.beat > Int32(e.beats) { p.bar += 1 }
        }
        return p
    }
}
