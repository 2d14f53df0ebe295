#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization
import TactusJACK

/// Makes xruns on purpose: a client upstream of Tactus (its MIDI output feeds
/// Tactus' `control`) whose process callback sleeps now and then, so on an
/// asynchronous server the cycles after it are late or skipped.
struct StallerState: ~Copyable {
    var port: OpaquePointer
    var cycles = 0
    var everyCycles: Int
    var microseconds: UInt32
    /// Stalls left (`--count`); negative: no limit.
    var remaining: Int
    /// Monotonic µs at which the latest stall began, so a test knows when it happened.
    let lastStall = Atomic<Int64>(0)
}

func stallingProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let s = arg!.assumingMemoryBound(to: StallerState.self)
    if let buffer = jack_port_get_buffer(s.pointee.port, frames) { jack_midi_clear_buffer(buffer) }
    s.pointee.cycles += 1
    if s.pointee.cycles % s.pointee.everyCycles == 0 && s.pointee.remaining != 0 {
        s.pointee.remaining -= 1
        s.pointee.lastStall.store(ProbeClient.monotonicMicroseconds(), ordering: .releasing)
        usleep(s.pointee.microseconds)
    }
    return 0
}

enum Staller {
    static func main(_ args: inout Arguments) -> Int32 {
        let server = args.value("-s", "--server")
        guard let target = args.value("--to") else { fail("stall needs --to PORT") }
        let every = Double(args.value("--every") ?? "1") ?? 1
        let ms = Double(args.value("--milliseconds") ?? "20") ?? 20
        let count = Int(args.value("--count") ?? "-1") ?? -1
        TerminationSignals.block()
        let client = ProbeClient.open("staller", server: server)
        guard let port = jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0) else { fail("cannot register") }
        let rate = Double(jack_get_sample_rate(client)), period = Double(jack_get_buffer_size(client))
        let state = UnsafeMutablePointer<StallerState>.allocate(capacity: 1)
        state.initialize(to: StallerState(port: port, everyCycles: max(1, Int(every * rate / period)), microseconds: UInt32(ms * 1000), remaining: count))
        jack_set_process_callback(client, stallingProcess, state)
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        _ = ProbeClient.connect(client, "\(String(cString: jack_get_client_name(client))):out", target)
        // One line per stall, `stall MONOTONIC_US DURATION_US`, for the tests that
        // measure what follows it (printed here, not in the process callback).
        var reported: Int64 = 0
        while TerminationSignals.wait(milliseconds: 20) == nil {
            let stall = state.pointee.lastStall.load(ordering: .acquiring)
            if stall != reported {
                reported = stall
                // Unbuffered, so a test reading the log sees it at once.
                let line = "stall \(stall) \(Int(ms * 1000))\n"
                _ = line.withCString { write(1, $0, strlen($0)) }
            }
        }
        jack_deactivate(client)
        jack_client_close(client)
        return 0
    }
}
