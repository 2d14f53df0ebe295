#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization
import TactusJACK

/// A MIDI message scheduled at a frame relative to the sender's first cycle.
struct ScheduledMIDI: BitwiseCopyable {
    var frame: Int64
    var count: Int
    var bytes: (UInt8, UInt8, UInt8)
}

struct SenderState: ~Copyable {
    var client: OpaquePointer
    var port: OpaquePointer
    let schedule: UnsafeMutablePointer<ScheduledMIDI>
    let total: Int
    var next = 0
    var timeline: FrameTimeline?
    /// Set once the connection to the target is made: the schedule's frames count from the first cycle after.
    let connected = Atomic<Bool>(false)
    let sent = Atomic<Int>(0)
    let lost = Atomic<Int>(0)
}

func senderProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let s = arg!.assumingMemoryBound(to: SenderState.self)
    guard let buffer = jack_port_get_buffer(s.pointee.port, frames) else { return 0 }
    jack_midi_clear_buffer(buffer)
    // The target may still be starting (JACK connects only active clients): what
    // is sent before the connection is lost, so the schedule waits for it.
    guard s.pointee.connected.load(ordering: .acquiring) else { return 0 }
    let jackFrame = jack_last_frame_time(s.pointee.client)
    if s.pointee.timeline == nil { s.pointee.timeline = FrameTimeline(origin: 0) }
    let start = s.pointee.timeline!.frame(forJackFrame: jackFrame)
    let end = start + Int64(frames)
    while s.pointee.next < s.pointee.total {
        let m = s.pointee.schedule[s.pointee.next]
        if m.frame >= end { break }
        let offset = jack_nframes_t(max(0, m.frame - start))
        if let data = jack_midi_event_reserve(buffer, offset, m.count) {
            data[0] = m.bytes.0
            if m.count > 1 { data[1] = m.bytes.1 }
            if m.count > 2 { data[2] = m.bytes.2 }
            s.pointee.sent.add(1, ordering: .relaxed)
        } else {
            s.pointee.lost.add(1, ordering: .relaxed)
        }
        s.pointee.next += 1
    }
    return 0
}

/// Sends scripted MIDI into a port: a steady stream of controller messages at a
/// given rate (what a keyboard player pressing keys produces), or a script of
/// `SECONDS HEX..` lines.
enum Sender {
    /// The controller stream, cycling: Note On, Channel Pressure rising, Poly
    /// Pressure, Control Change, Program Change, Note Off.
    static func pattern(_ k: Int) -> (Int, (UInt8, UInt8, UInt8)) {
        let v = UInt8(k % 128)
        switch k % 6 {
        case 0: return (3, (0x90, 60, 100))
        case 1: return (2, (0xD0, v, 0))
        case 2: return (3, (0xA0, 60, v))
        case 3: return (3, (0xB0, 1, v))
        case 4: return (2, (0xC0, v, 0))
        default: return (3, (0x80, 60, 0))
        }
    }

    static func main(_ args: inout Arguments) -> Int32 {
        let name = args.value("--name", "-n") ?? "sender"
        let server = args.value("-s", "--server")
        // Without --to, another client (Tactus's --connect-clock-in) makes the connection.
        let target = args.value("--to")
        let rate = Double(args.value("--rate") ?? "1000") ?? 1000
        let seconds = Double(args.value("--seconds") ?? "10") ?? 10
        let script = args.value("--script")
        let report = args.value("--report")
        TerminationSignals.block()

        let client = ProbeClient.open(name, server: server)
        let sampleRate = Double(jack_get_sample_rate(client))
        var schedule: [ScheduledMIDI] = []
        if let script {
            guard let f = fopen(script, "r") else { fail("cannot read \(script)") }
            var line: UnsafeMutablePointer<CChar>?
            var size = 0
            while getline(&line, &size, f) > 0 {
                let fields = String(cString: line!).split(whereSeparator: { $0 == " " || $0 == "\n" })
                guard fields.count >= 2, let t = Double(fields[0]) else { continue }
                let bytes = fields.dropFirst().prefix(3).compactMap { UInt8($0, radix: 16) }
                schedule.append(ScheduledMIDI(frame: Int64(t * sampleRate), count: bytes.count,
                                              bytes: (bytes[0], bytes.count > 1 ? bytes[1] : 0, bytes.count > 2 ? bytes[2] : 0)))
            }
            fclose(f)
        } else {
            let total = Int(rate * seconds)
            // Starts half a second after the connection is made.
            for k in 0..<total {
                let (count, bytes) = pattern(k)
                schedule.append(ScheduledMIDI(frame: Int64(0.5 * sampleRate) + Int64(Double(k) * sampleRate / rate), count: count, bytes: bytes))
            }
        }
        guard let port = jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0) else { fail("cannot register out") }
        let storage = UnsafeMutablePointer<ScheduledMIDI>.allocate(capacity: max(1, schedule.count))
        schedule.withUnsafeBufferPointer { if let b = $0.baseAddress { storage.initialize(from: b, count: schedule.count) } }
        let state = UnsafeMutablePointer<SenderState>.allocate(capacity: 1)
        state.initialize(to: SenderState(client: client, port: port, schedule: storage, total: schedule.count))
        let gone = ServerGoneFlag()
        jack_set_process_callback(client, senderProcess, state)
        jack_on_info_shutdown(client, probeServerGone, Unmanaged.passUnretained(gone).toOpaque())
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        // Unconnected, the schedule would never be played out (it starts on connection).
        if let target {
            guard ProbeClient.connect(client, "\(String(cString: jack_get_client_name(client))):out", target) else {
                fail("cannot connect to \(target)")
            }
        } else {
            while jack_port_connected(port) == 0 && !gone.gone.load(ordering: .acquiring) {
                if TerminationSignals.wait(milliseconds: 10) != nil { break }
            }
        }
        state.pointee.connected.store(true, ordering: .releasing)
        while state.pointee.next < state.pointee.total && !gone.gone.load(ordering: .acquiring) {
            if TerminationSignals.wait(milliseconds: 10) != nil { break }
        }
        usleep(50_000)
        if !gone.gone.load(ordering: .acquiring) { jack_deactivate(client) }
        writeFile(report ?? "-", "sent \(state.pointee.sent.load(ordering: .relaxed)) lost \(state.pointee.lost.load(ordering: .relaxed))\n")
        jack_client_close(client)
        return 0
    }
}
