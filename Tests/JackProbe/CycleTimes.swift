#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization
import TactusJACK

/// One cycle as `jack_get_cycle_times` reported it, and when the callback really ran.
struct CycleTimesEntry: BitwiseCopyable {
    var frame: UInt32
    var current: UInt64
    var next: UInt64
    var periodMicroseconds: Float
    var woke: Int64
}

struct CycleTimesState: ~Copyable {
    var client: OpaquePointer
    let entries: UnsafeMutablePointer<CycleTimesEntry>
    let capacity: Int
    let count = Atomic<Int>(0)
}

func cycleTimesProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let s = arg!.assumingMemoryBound(to: CycleTimesState.self)
    let woke = ProbeClient.monotonicMicroseconds()
    let n = s.pointee.count.load(ordering: .relaxed)
    guard n < s.pointee.capacity else { return 0 }
    var entry = CycleTimesEntry(frame: 0, current: 0, next: 0, periodMicroseconds: 0, woke: woke)
    _ = jack_get_cycle_times(s.pointee.client, &entry.frame, &entry.current, &entry.next, &entry.periodMicroseconds)
    s.pointee.entries[n] = entry
    s.pointee.count.store(n + 1, ordering: .releasing)
    return 0
}

/// `cycles`: what the server says about time, cycle by cycle (the input of the ALSA
/// clock's frame↔time filter), written as `C frame current_usecs next_usecs period_usecs woke_usecs`.
enum CycleTimes {
    static func main(_ args: inout Arguments) -> Int32 {
        let server = args.value("-s", "--server")
        guard let out = args.value("--out") else { fail("cycles needs --out FILE") }
        let seconds = Double(args.value("--seconds") ?? "5") ?? 5
        TerminationSignals.block()
        let client = ProbeClient.open("cycles", server: server)
        // An input, so a staller can sit upstream (`stall --to cycles:in`) as it does of Tactus.
        guard jack_port_register(client, "in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0) != nil else { fail("cannot register") }
        let rate = Double(jack_get_sample_rate(client)), period = Double(jack_get_buffer_size(client))
        let capacity = Int(seconds * rate / period) + 64
        let state = UnsafeMutablePointer<CycleTimesState>.allocate(capacity: 1)
        state.initialize(to: CycleTimesState(client: client, entries: .allocate(capacity: capacity), capacity: capacity))
        jack_set_process_callback(client, cycleTimesProcess, state)
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        let end = ProbeClient.monotonicMicroseconds() + Int64(seconds * 1_000_000)
        while TerminationSignals.wait(milliseconds: 20) == nil && ProbeClient.monotonicMicroseconds() < end {}
        jack_deactivate(client)
        var text = "# rate \(Int(rate)) period \(Int(period))\n"
        for i in 0..<state.pointee.count.load(ordering: .acquiring) {
            let e = state.pointee.entries[i]
            text += "C \(e.frame) \(e.current) \(e.next) \(e.periodMicroseconds) \(e.woke)\n"
        }
        writeFile(out, text)
        jack_client_close(client)
        return 0
    }
}
