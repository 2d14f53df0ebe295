#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization
import TactusCore
import TactusJACK

/// One recorded happening: an audio onset or a MIDI event, at its absolute frame.
struct RecordedEvent: BitwiseCopyable {
    var frame: Int64
    var value: Float
    var port: UInt8
    /// 0 audio onset, 1 MIDI event, 2 a hole: cycles this recorder was not run for
    /// (`frame` to `frame + value`), whose events it could not see; 3 any other
    /// change of an audio port's sample (`--levels`: the port's whole signal).
    var kind: UInt8
    var count: UInt8
    var bytes: (UInt8, UInt8, UInt8)
}

/// One cycle's `jack_transport_query`, at the recorder's frame of the cycle (`--transport`).
struct TransportSample: BitwiseCopyable {
    var frame: Int64
    var state: UInt32
    var position: jack_position_t
}

/// One cycle's first frame (the recorder's) and `jack_get_cycle_times`' time of it:
/// how the server's frames and the host's clock went along (`T` lines).
struct CycleTimeSample: BitwiseCopyable {
    var frame: Int64
    var microseconds: UInt64
}

/// The recorder's process state: preallocated, so its callback is as
/// real-time safe as Tactus' own.
struct RecorderState: ~Copyable {
    var client: OpaquePointer
    var audio: [OpaquePointer]
    var midi: [OpaquePointer]
    let lastSample: UnsafeMutablePointer<Float>
    let events: UnsafeMutablePointer<RecordedEvent>
    let capacity: Int
    var count = 0
    var overflow = 0
    var timeline: FrameTimeline?
    var firstFrame: Int64 = -1
    var endFrame: Int64 = 0
    let cycles = Atomic<Int>(0)
    let recordedFrames = Atomic<Int64>(0)
    /// The server's xrun notices while recording (any client late, not only this one).
    let xruns = Atomic<Int>(0)
    /// When each xrun notice came (CLOCK_MONOTONIC µs, `X` lines): a test judges the
    /// timing only away from them.
    let xrunTimes: UnsafeMutablePointer<Int64>
    /// The server's frame time at each notice (`XF` lines): where in the recording it fell.
    let xrunFrames: UnsafeMutablePointer<Int64>
    let xrunTimeCapacity = 4096
    /// The first frames are a warm-up (`--skip`): what happens in them is not kept,
    /// xruns included, so clients starting up do not count against the measurement.
    var skipFrames: Int64 = 0
    /// `--transport`: every cycle's transport state and position (nil: not read).
    var transport: UnsafeMutablePointer<TransportSample>?
    var transportCount = 0
    let transportCapacity = 400_000
    /// Every cycle's frame and host time: Link places beats in host time, the
    /// recording is in frames, and the dummy driver's frames fall behind the host's
    /// clock when it wakes late (a step, with or without an xrun notice).
    let cycleTimes: UnsafeMutablePointer<CycleTimeSample>
    var cycleTimeCount = 0
    let cycleTimeCapacity = 400_000
    /// Ports that have had an event since the start (bit i: audio port i + 1, bit
    /// 32 + i: MIDI port i + 1), for `--heard`.
    let heard = Atomic<UInt64>(0)
    /// `--levels`: audio ports (bit i: port i + 1) whose every change of sample
    /// is kept, not only the onsets: a sync line's falls, so its signal is known
    /// sample for sample.
    var levelPorts: UInt64 = 0
}

func recorderXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let s = arg?.assumingMemoryBound(to: RecorderState.self) else { return 0 }
    if s.pointee.recordedFrames.load(ordering: .acquiring) >= s.pointee.skipFrames {
        let index = s.pointee.xruns.wrappingAdd(1, ordering: .relaxed).oldValue
        if index < s.pointee.xrunTimeCapacity {
            s.pointee.xrunTimes[index] = MonotonicClock.microseconds()
            s.pointee.xrunFrames[index] = Int64(jack_frame_time(s.pointee.client))
        }
    }
    return 0
}

func recorderProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let s = arg!.assumingMemoryBound(to: RecorderState.self)
    let jackFrame = jack_last_frame_time(s.pointee.client)
    if s.pointee.timeline == nil { s.pointee.timeline = FrameTimeline(origin: Int64(jackFrame)) }
    let start = s.pointee.timeline!.frame(forJackFrame: jackFrame)
    if s.pointee.firstFrame < 0 {
        s.pointee.firstFrame = start
    } else if start != s.pointee.endFrame {
        record(s, RecordedEvent(frame: s.pointee.endFrame, value: Float(start - s.pointee.endFrame), port: 0, kind: 2, count: 0, bytes: (0, 0, 0)))
    }
    for (index, port) in s.pointee.audio.enumerated() {
        guard let samples = jack_port_get_buffer(port, frames)?.assumingMemoryBound(to: Float.self) else { continue }
        var previous = s.pointee.lastSample[index]
        for i in 0..<Int(frames) {
            let x = samples[i]
            if x != 0 && previous == 0 {
                record(s, RecordedEvent(frame: start + Int64(i), value: x, port: UInt8(index + 1), kind: 0, count: 0, bytes: (0, 0, 0)))
                s.pointee.heard.bitwiseOr(1 << UInt64(index), ordering: .relaxed)
            } else if x != previous && s.pointee.levelPorts & (1 << UInt64(index)) != 0 {
                record(s, RecordedEvent(frame: start + Int64(i), value: x, port: UInt8(index + 1), kind: 3, count: 0, bytes: (0, 0, 0)))
            }
            previous = x
        }
        s.pointee.lastSample[index] = previous
    }
    for (index, port) in s.pointee.midi.enumerated() {
        guard let buffer = jack_port_get_buffer(port, frames) else { continue }
        let n = jack_midi_get_event_count(buffer)
        for e in 0..<n {
            var event = jack_midi_event_t()
            guard jack_midi_event_get(&event, buffer, e) == 0, let data = event.buffer else { continue }
            let size = min(3, event.size)
            record(s, RecordedEvent(frame: start + Int64(event.time), value: 0, port: UInt8(index + 1), kind: 1, count: UInt8(event.size),
                                    bytes: (data[0], size > 1 ? data[1] : 0, size > 2 ? data[2] : 0)))
            s.pointee.heard.bitwiseOr(1 << UInt64(32 + index), ordering: .relaxed)
        }
    }
    if s.pointee.cycleTimeCount < s.pointee.cycleTimeCapacity {
        var frame: jack_nframes_t = 0, now: jack_time_t = 0, next: jack_time_t = 0, period: Float = 0
        if jack_get_cycle_times(s.pointee.client, &frame, &now, &next, &period) == 0 {
            s.pointee.cycleTimes[s.pointee.cycleTimeCount] = CycleTimeSample(frame: start, microseconds: now)
            s.pointee.cycleTimeCount += 1
        }
    }
    if let transport = s.pointee.transport, s.pointee.transportCount < s.pointee.transportCapacity {
        var position = jack_position_t()
        let state = jack_transport_query(s.pointee.client, &position)
        transport[s.pointee.transportCount] = TransportSample(frame: start, state: state.rawValue, position: position)
        s.pointee.transportCount += 1
    }
    s.pointee.endFrame = start + Int64(frames)
    s.pointee.recordedFrames.store(s.pointee.endFrame - s.pointee.firstFrame, ordering: .releasing)
    s.pointee.cycles.add(1, ordering: .relaxed)
    return 0
}

private func record(_ s: UnsafeMutablePointer<RecorderState>, _ e: RecordedEvent) {
    guard s.pointee.count < s.pointee.capacity else { s.pointee.overflow += 1; return }
    s.pointee.events[s.pointee.count] = e
    s.pointee.count += 1
}

enum Recorder {
    static func main(_ args: inout Arguments) -> Int32 {
        let name = args.value("--name", "-n") ?? "recorder"
        let server = args.value("-s", "--server")
        guard let out = args.value("--out") else { fail("record needs --out FILE") }
        let audioCount = Int(args.value("--audio-ports") ?? "1") ?? 1
        let midiCount = Int(args.value("--midi-ports") ?? "1") ?? 1
        // `--midi-port-name NAME` (repeatable): the MIDI ports' names in order, as a DAW names its input ("MIDI Clock in").
        let midiNames = args.values("--midi-port-name")
        let connections = args.values("--connect")
        let seconds = args.value("--seconds").flatMap(Double.init)
        let skip = args.value("--skip").flatMap(Double.init) ?? 0
        let ready = args.value("--ready")
        // `--heard FILE`: touched once every port has had an event, so a session can
        // measure its length from the first sound rather than from the launch of
        // programs that may take seconds to start on a loaded machine.
        let heardFile = args.value("--heard")
        let registered = args.value("--registered")
        // `--freewheel SECONDS FILE`: once every port was heard, the server in
        // freewheel mode (`jack_set_freewheel`: the graph run back to back, not on
        // the clock) until SECONDS more were recorded, then back on the clock and
        // FILE touched: a recording about frames that need not take wall time.
        let freewheel = args.value("--freewheel").flatMap { spec -> (seconds: Double, file: String)? in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let seconds = Double(parts[0]) else { fail("--freewheel wants SECONDS:FILE, not \(spec)") }
            return (seconds, parts[1])
        }
        let activateAfter = args.value("--activate-after").flatMap(Double.init) ?? 0
        let readTransport = args.flag("--transport")
        // `--levels 2,3`: audio ports whose every change is kept (`L port frame value` lines).
        let levels = (args.value("--levels") ?? "").split(separator: ",").compactMap { Int($0) }
        let latency = ReportedLatency(&args)
        TerminationSignals.block()

        let client = ProbeClient.open(name, server: server)
        let audio = (1...max(1, audioCount)).prefix(audioCount).map { i -> OpaquePointer in
            guard let p = jack_port_register(client, "audio_\(i)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0) else { fail("cannot register audio_\(i)") }
            return p
        }
        let midi = (1...max(1, midiCount)).prefix(midiCount).map { i -> OpaquePointer in
            let portName = i <= midiNames.count ? midiNames[i - 1] : "midi_\(i)"
            guard let p = jack_port_register(client, portName, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0) else { fail("cannot register \(portName)") }
            return p
        }
        let capacity = 2_000_000
        let state = UnsafeMutablePointer<RecorderState>.allocate(capacity: 1)
        let lastSample = UnsafeMutablePointer<Float>.allocate(capacity: max(1, audioCount))
        lastSample.initialize(repeating: 0, count: max(1, audioCount))
        let storage = UnsafeMutablePointer<RecordedEvent>.allocate(capacity: capacity)
        storage.initialize(repeating: RecordedEvent(frame: 0, value: 0, port: 0, kind: 0, count: 0, bytes: (0, 0, 0)), count: capacity)
        let xrunTimes = UnsafeMutablePointer<Int64>.allocate(capacity: 4096)
        xrunTimes.initialize(repeating: 0, count: 4096)
        let xrunFrames = UnsafeMutablePointer<Int64>.allocate(capacity: 4096)
        xrunFrames.initialize(repeating: 0, count: 4096)
        let cycleTimes = UnsafeMutablePointer<CycleTimeSample>.allocate(capacity: 400_000)
        cycleTimes.initialize(repeating: CycleTimeSample(frame: 0, microseconds: 0), count: 400_000)
        state.initialize(to: RecorderState(client: client, audio: audio, midi: midi, lastSample: lastSample, events: storage, capacity: capacity,
                                           xrunTimes: xrunTimes, xrunFrames: xrunFrames, cycleTimes: cycleTimes))
        for port in levels where port >= 1 && port <= 64 { state.pointee.levelPorts |= 1 << UInt64(port - 1) }
        if readTransport {
            state.pointee.transport = .allocate(capacity: state.pointee.transportCapacity)
            state.pointee.transport?.initialize(repeating: TransportSample(frame: 0, state: 0, position: jack_position_t()), count: state.pointee.transportCapacity)
        }
        let gone = ServerGoneFlag()
        latency.install(client)
        jack_set_process_callback(client, recorderProcess, state)
        jack_set_xrun_callback(client, recorderXrun, state)
        jack_on_info_shutdown(client, probeServerGone, Unmanaged.passUnretained(gone).toOpaque())
        // A program still starting: its ports are there, but JACK refuses to
        // connect them until it activates.
        ProbeClient.touch(registered)
        if activateAfter > 0 { usleep(UInt32(activateAfter * 1_000_000)) }
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        let clientName = String(cString: jack_get_client_name(client))
        for spec in connections {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { fail("--connect wants in_port=other_port, not \(spec)") }
            _ = ProbeClient.connect(client, parts[1], "\(clientName):\(parts[0])")
        }
        ProbeClient.touch(ready)
        let rate = Int64(jack_get_sample_rate(client))
        let period = jack_get_buffer_size(client)
        state.pointee.skipFrames = Int64(skip * Double(rate))
        let everyPort = (UInt64(1) << UInt64(audioCount)) - 1 | ((UInt64(1) << UInt64(midiCount)) - 1) << 32
        var heardTouched = heardFile == nil
        var freewheelUntil: Int64?
        while true {
            if TerminationSignals.wait(milliseconds: 10) != nil { break }
            if !heardTouched && state.pointee.heard.load(ordering: .relaxed) & everyPort == everyPort {
                ProbeClient.touch(heardFile)
                heardTouched = true
                if let freewheel {
                    freewheelUntil = state.pointee.recordedFrames.load(ordering: .acquiring) + Int64(freewheel.seconds * Double(rate))
                    guard jack_set_freewheel(client, 1) == 0 else { fail("cannot enter freewheel mode") }
                }
            }
            if let until = freewheelUntil, state.pointee.recordedFrames.load(ordering: .acquiring) >= until, let freewheel {
                guard jack_set_freewheel(client, 0) == 0 else { fail("cannot leave freewheel mode") }
                ProbeClient.touch(freewheel.file)
                freewheelUntil = nil
            }
            if gone.gone.load(ordering: .acquiring) { break }
            if let seconds, Double(state.pointee.recordedFrames.load(ordering: .acquiring)) >= seconds * Double(rate) { break }
            if !latency.isEmpty {
                let recorded = state.pointee.recordedFrames.load(ordering: .acquiring)
                latency.tick(client, recorded: recorded, rate: rate, frame: state.pointee.firstFrame + recorded)
            }
        }
        if !gone.gone.load(ordering: .acquiring) { jack_deactivate(client) }
        let windowStart = state.pointee.firstFrame + state.pointee.skipFrames
        var text = "# rate \(rate) period \(period) first-frame \(windowStart) end-frame \(state.pointee.endFrame) cycles \(state.pointee.cycles.load(ordering: .relaxed)) overflow \(state.pointee.overflow) xruns \(state.pointee.xruns.load(ordering: .relaxed))\n"
        text.reserveCapacity(state.pointee.count * 24)
        for i in 0..<state.pointee.count {
            let e = storage[i]
            if e.frame < windowStart { continue }
            if e.kind == 2 {
                text += "H \(e.frame) \(e.frame + Int64(e.value))\n"
            } else if e.kind == 1 {
                let bytes = [e.bytes.0, e.bytes.1, e.bytes.2].prefix(Int(min(3, e.count)))
                text += "M \(e.port) \(e.frame) \(bytes.map { String($0, radix: 16) }.joined(separator: " "))\n"
            } else if e.kind == 3 {
                text += "L \(e.port) \(e.frame) \(e.value)\n"
            } else {
                text += "A \(e.port) \(e.frame) \(e.value)\n"
            }
        }
        for i in 0..<min(state.pointee.xruns.load(ordering: .acquiring), state.pointee.xrunTimeCapacity) {
            text += "X \(xrunTimes[i])\nXF \(xrunFrames[i])\n"
        }
        for i in 0..<state.pointee.cycleTimeCount where cycleTimes[i].frame >= windowStart {
            text += "T \(cycleTimes[i].frame) \(cycleTimes[i].microseconds)\n"
        }
        if let transport = state.pointee.transport {
            // `B frame state transport_frame valid bar beat tick tick_double bpm beats_per_bar beat_type bbt_offset`
            for i in 0..<state.pointee.transportCount where transport[i].frame >= windowStart {
                let t = transport[i], p = t.position
                text += "B \(t.frame) \(t.state) \(p.frame) \(p.valid.rawValue) \(p.bar) \(p.beat) \(p.tick) \(p.tick_double) \(p.beats_per_minute) \(p.beats_per_bar) \(p.beat_type) \(p.bbt_offset)\n"
            }
        }
        text += latency.lines
        writeFile(out, text)
        jack_client_close(client)
        return 0
    }
}
