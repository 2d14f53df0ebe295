#if canImport(Glibc)
import Glibc
#endif
import CJack

/// One stretch of the test master's tempo map: from beat `startBeat` (a bar
/// line, counted from transport frame 0) at `bpm`, `beatsPerBar` quarter-note beats a bar.
struct TempoSegment: BitwiseCopyable {
    var startBeat: Int
    var bpm: Double
    var beatsPerBar: Int
    var startFrame: Double = 0
    var startBar: Int = 0
}

/// The tempo map of a JACK timebase master for the tests: BBT computed from the
/// transport frame alone (every cycle from scratch, so nothing drifts), beats on
/// exact frames the test knows: beat k of a segment at startFrame + k × 60 × rate / bpm.
struct TempoMap: BitwiseCopyable {
    var segments: (TempoSegment, TempoSegment, TempoSegment, TempoSegment)
    var count: Int
    var sampleRate: Double
    /// `bar_start_tick` published (`--bar-start-tick`): the ticks from frame 0 to the bar's first beat; else 0, as most masters.
    var barStartTick = false

    /// "0:120:4,8:150:4,16:100:3": start beat, BPM, beats per bar (at most four segments).
    init?(_ text: String, sampleRate: Double) {
        var list: [TempoSegment] = []
        for part in text.split(separator: ",") {
            let f = part.split(separator: ":")
            guard f.count == 3, let b = Int(f[0]), let bpm = Double(f[1]), let n = Int(f[2]), bpm > 0, n > 0 else { return nil }
            list.append(TempoSegment(startBeat: b, bpm: bpm, beatsPerBar: n))
        }
        guard (1...4).contains(list.count), list[0].startBeat == 0 else { return nil }
        for i in 1..<list.count {
            let p = list[i - 1]
            let beats = list[i].startBeat - p.startBeat
            guard beats > 0, beats % p.beatsPerBar == 0 else { return nil }
            list[i].startFrame = p.startFrame + Double(beats) * 60 * sampleRate / p.bpm
            list[i].startBar = p.startBar + beats / p.beatsPerBar
        }
        while list.count < 4 { list.append(list[list.count - 1]) }
        segments = (list[0], list[1], list[2], list[3])
        count = text.split(separator: ",").count
        self.sampleRate = sampleRate
    }

    func segment(at frame: Double) -> TempoSegment {
        var s = segments.0
        if count > 1, frame >= segments.1.startFrame { s = segments.1 }
        if count > 2, frame >= segments.2.startFrame { s = segments.2 }
        if count > 3, frame >= segments.3.startFrame { s = segments.3 }
        return s
    }

    func fill(_ pos: UnsafeMutablePointer<jack_position_t>) {
        let frame = Double(pos.pointee.frame)
        let s = segment(at: frame)
        let beats = (frame - s.startFrame) * s.bpm / (60 * sampleRate)
        let barsIn = (beats / Double(s.beatsPerBar)).rounded(.down)
        let inBar = beats - barsIn * Double(s.beatsPerBar)
        let beat = inBar.rounded(.down)
        pos.pointee.valid = JackPositionBBT
        pos.pointee.bar = Int32(s.startBar + Int(barsIn) + 1)
        pos.pointee.beat = Int32(beat) + 1
        pos.pointee.ticks_per_beat = 1920
        pos.pointee.tick = Int32(((inBar - beat) * 1920).rounded(.down))
        pos.pointee.bar_start_tick = barStartTick ? Double(s.startBeat + Int(barsIn) * s.beatsPerBar) * 1920 : 0
        pos.pointee.beats_per_bar = Float(s.beatsPerBar)
        pos.pointee.beat_type = 4
        pos.pointee.beats_per_minute = s.bpm
    }
}

func timebaseCallback(_ state: jack_transport_state_t, _ frames: jack_nframes_t, _ pos: UnsafeMutablePointer<jack_position_t>?,
                      _ newPosition: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let pos, let map = arg?.assumingMemoryBound(to: TempoMap.self) else { return }
    map.pointee.fill(pos)
}

/// `transport master`: the JACK timebase master of a test, rolling from frame 0 for `--seconds`.
enum TimebaseMaster {
    static func main(_ args: inout Arguments) -> Int32 {
        let server = args.value("-s", "--server")
        let seconds = args.value("--seconds").flatMap(Double.init) ?? 10
        // Holds the timebase without starting the transport (the conditional test).
        let roll = !args.flag("--no-roll")
        let barStartTick = args.flag("--bar-start-tick")
        let client = ProbeClient.open("master", server: server)
        guard let map = TempoMap(args.value("--segments") ?? "0:120:4", sampleRate: Double(jack_get_sample_rate(client))) else {
            fail("--segments wants START_BEAT:BPM:BEATS_PER_BAR,… (bar lines, at most four)")
        }
        let state = UnsafeMutablePointer<TempoMap>.allocate(capacity: 1)
        state.initialize(to: map)
        state.pointee.barStartTick = barStartTick
        guard jack_set_timebase_callback(client, 0, timebaseCallback, state) == 0 else { fail("cannot become timebase master") }
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        if roll {
            jack_transport_locate(client, 0)
            usleep(100_000)
            jack_transport_start(client)
        }
        usleep(useconds_t(seconds * 1_000_000))
        if roll { jack_transport_stop(client) }
        usleep(100_000)
        jack_release_timebase(client)
        jack_deactivate(client)
        jack_client_close(client)
        return 0
    }
}
