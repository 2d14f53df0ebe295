import CJack
@testable import TactusJACK

/// JACK transport as jack2 shows it to a client, cycle by cycle, without a
/// server (docs/DESIGN.md §13.1, `TransportObserver`): a start passes through
/// one `JackTransportStarting` cycle at the old frame, and the first
/// `Rolling` cycle stands at the start frame; the frame moves by the period
/// only between two rolling cycles; a locate while rolling holds the
/// transport at the new frame for one `Starting` cycle, and the next rolls
/// from there; a locate while stopped moves the frame and nothing else; a
/// start asked with a locate in the same period starts at the old frame and
/// jumps. Requests (`start`, `stop`, `locate`) are taken at the end of the
/// cycle they are asked in, as jack2's transport engine does.
///
/// The BBT is the timebase master's: `master` gives it from a transport frame
/// (the tests' tempo map master publishes it from the frame alone; klick's
/// from the beats its cycle before passed), `publish` takes Tactus's own (its
/// timebase callback, run after its process callback for the next cycle).
/// `lateBBT` is PipeWire's JACK: a follower reads the frame of this cycle with
/// the BBT of the cycle before (docs/DESIGN.md §13.6).
struct ScriptedTransport: TransportRequests {
    private(set) var state = JackTransportStopped
    private(set) var frame: UInt32 = 0
    var master: ((UInt32) -> jack_position_t)?
    var lateBBT = false
    /// Tactus's timebase callback's BBT for the next cycle (`--transport master`).
    private var published: jack_position_t?
    private var lastFrame: UInt32 = 0
    private var startAsked = false
    private var stopAsked = false
    private var locateAsked: UInt32?
    private var jumpAfterStart: UInt32?

    init(master: ((UInt32) -> jack_position_t)? = nil, lateBBT: Bool = false) {
        self.master = master
        self.lateBBT = lateBBT
    }

    mutating func start() { startAsked = true }
    mutating func stop() { stopAsked = true }
    mutating func locate(_ frame: UInt32) { locateAsked = frame }

    var rolling: Bool { state.rawValue == JackTransportRolling.rawValue }

    /// `jack_transport_query` in this cycle.
    func query(_ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t {
        if let published {
            position.pointee = published
        } else if let master {
            position.pointee = master(lateBBT ? lastFrame : frame)
        } else {
            position.pointee = jack_position_t()
        }
        position.pointee.frame = frame
        return state
    }

    /// Tactus's timebase callback wrote `position` for the next cycle.
    mutating func publish(_ position: jack_position_t) { published = position }

    /// The cycle ended (every cycle of the server, this client's or one it
    /// missed): the next cycle's state and frame.
    mutating func endCycle(period: UInt32) {
        lastFrame = frame
        let locate = locateAsked
        let start = startAsked, stop = stopAsked
        locateAsked = nil
        startAsked = false
        stopAsked = false
        switch state.rawValue {
        case JackTransportStopped.rawValue:
            if start {
                state = JackTransportStarting
                jumpAfterStart = locate
            } else if let locate {
                frame = locate
            }
        case JackTransportStarting.rawValue:
            if stop {
                state = JackTransportStopped
            } else if let to = locate ?? jumpAfterStart {
                frame = to
            } else {
                state = JackTransportRolling
            }
            jumpAfterStart = nil
        default:
            if stop {
                state = JackTransportStopped
                frame &+= period
            } else if let locate {
                state = JackTransportStarting
                frame = locate
            } else {
                frame &+= period
            }
        }
    }
}

/// The tests' JACK timebase master (the probe's `transport master
/// --segments`): a tempo map of segments from bar lines, BBT computed from the
/// transport frame alone, integer ticks of 1920 a beat, quarter-note beats,
/// `bar_start_tick` 0 as most masters publish, or (`barStartTick`, the probe's
/// `--bar-start-tick`) the ticks from frame 0 to the bar's first beat.
struct TestTempoMap {
    struct Segment { var startBeat: Int, bpm: Double, beatsPerBar: Int, startFrame = 0.0, startBar = 0 }
    let segments: [Segment]
    let rate: Double
    var barStartTick = false

    /// (start beat, BPM, beats a bar) from beat 0.
    init(_ list: [(Int, Double, Int)], rate: Double = 48000) {
        var s = list.map { Segment(startBeat: $0.0, bpm: $0.1, beatsPerBar: $0.2) }
        for i in s.indices.dropFirst() {
            let p = s[i - 1], beats = s[i].startBeat - p.startBeat
            s[i].startFrame = p.startFrame + Double(beats) * 60 * rate / p.bpm
            s[i].startBar = p.startBar + beats / p.beatsPerBar
        }
        segments = s
        self.rate = rate
    }

    func position(_ frameValue: UInt32) -> jack_position_t {
        let frame = Double(frameValue)
        let s = segments.last { frame >= $0.startFrame } ?? segments[0]
        let beats = (frame - s.startFrame) * s.bpm / (60 * rate)
        let barsIn = (beats / Double(s.beatsPerBar)).rounded(.down)
        let inBar = beats - barsIn * Double(s.beatsPerBar)
        let beat = inBar.rounded(.down)
        var p = jack_position_t()
        p.valid = JackPositionBBT
        p.bar = Int32(s.startBar + Int(barsIn) + 1)
        p.beat = Int32(beat) + 1
        p.ticks_per_beat = 1920
        p.tick = Int32(((inBar - beat) * 1920).rounded(.down))
        p.bar_start_tick = barStartTick ? Double(s.startBeat + Int(barsIn) * s.beatsPerBar) * 1920 : 0
        p.beats_per_bar = Float(s.beatsPerBar)
        p.beat_type = 4
        p.beats_per_minute = s.bpm
        return p
    }

    /// Every beat's transport frame, bar and beat up to `frames`.
    func beats(upTo frames: Double) -> [(frame: Double, bar: Int, beat: Int)] {
        var out: [(frame: Double, bar: Int, beat: Int)] = []
        for (i, s) in segments.enumerated() {
            let end = i + 1 < segments.count ? segments[i + 1].startFrame : frames
            var k = 0
            while true {
                let f = s.startFrame + Double(k) * 60 * rate / s.bpm
                if f >= end - 0.001 || f > frames { break }
                out.append((f, s.startBar + k / s.beatsPerBar + 1, k % s.beatsPerBar + 1))
                k += 1
            }
        }
        return out
    }
}
