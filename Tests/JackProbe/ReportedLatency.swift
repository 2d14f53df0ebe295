#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization

/// `record --latency PORT=FRAMES` (repeatable) and `--latency-at SECONDS:PORT=FRAMES`:
/// the recorder's input ports report a playback latency, as a sound card's
/// playback port or a MIDI interface's would, so a test can give Tactus paths
/// of known latency (`--align`, docs/DESIGN.md §3.8).
///
/// A client that sets its ports' latencies does it in its latency callback
/// (jack.h, `jack_set_latency_callback`): JACK calls it in playback mode
/// whenever the graph's latencies are recomputed, and the value set there is
/// what `jack_port_get_latency_range` tells the other clients. A change while
/// running is announced with `jack_recompute_total_latencies`, which makes JACK
/// call every client's latency callback again.
final class ReportedLatency {
    struct Change {
        var seconds: Double
        var port: String
        var frames: UInt32
        var done = false
    }

    /// The ports by short name, and the frames each reports.
    private(set) var ports: [(name: String, port: OpaquePointer, frames: Figure)] = []

    /// One port's frames, set by the recorder's thread, read by JACK's notification thread.
    final class Figure {
        let value: Atomic<UInt32>
        init(_ frames: UInt32) { value = Atomic(frames) }
    }
    private var changes: [Change]
    /// `LC frame port frames` lines: where (the recorder's frame) each change was announced.
    private(set) var lines = ""

    init(_ args: inout Arguments) {
        var initial: [(String, UInt32)] = []
        for spec in args.values("--latency") {
            let parts = spec.split(separator: "=").map(String.init)
            guard parts.count == 2, let frames = UInt32(parts[1]) else { fail("--latency wants PORT=FRAMES, not \(spec)") }
            initial.append((parts[0], frames))
        }
        changes = args.values("--latency-at").map { spec in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            let sides = parts.count == 2 ? parts[1].split(separator: "=").map(String.init) : []
            guard sides.count == 2, let seconds = Double(parts[0]), let frames = UInt32(sides[1]) else {
                fail("--latency-at wants SECONDS:PORT=FRAMES, not \(spec)")
            }
            return Change(seconds: seconds, port: sides[0], frames: frames)
        }
        pending = initial
    }

    private var pending: [(String, UInt32)]

    var isEmpty: Bool { pending.isEmpty && changes.isEmpty }

    /// Before activation: finds the ports and sets the callback.
    func install(_ client: OpaquePointer) {
        guard !isEmpty else { return }
        let clientName = String(cString: jack_get_client_name(client))
        for (name, frames) in pending + changes.map({ ($0.port, UInt32(0)) }) where !ports.contains(where: { $0.name == name }) {
            guard let port = jack_port_by_name(client, "\(clientName):\(name)") else { fail("no port \(name) for --latency") }
            ports.append((name, port, Figure(frames)))
        }
        for (name, frames) in pending { ports.first { $0.name == name }?.frames.value.store(frames, ordering: .relaxed) }
        jack_set_latency_callback(client, probeLatency, Unmanaged.passUnretained(self).toOpaque())
    }

    /// From the recorder's loop: a change due after `recorded` frames of
    /// `rate` is made and announced; `frame` is the recorder's last cycle end.
    func tick(_ client: OpaquePointer, recorded: Int64, rate: Int64, frame: Int64) {
        for i in changes.indices where !changes[i].done && Double(recorded) >= changes[i].seconds * Double(rate) {
            changes[i].done = true
            ports.first { $0.name == changes[i].port }?.frames.value.store(changes[i].frames, ordering: .relaxed)
            jack_recompute_total_latencies(client)
            lines += "LC \(frame) \(changes[i].port) \(changes[i].frames)\n"
        }
    }

    fileprivate func report() {
        for p in ports {
            let frames = p.frames.value.load(ordering: .relaxed)
            var range = jack_latency_range_t(min: frames, max: frames)
            jack_port_set_latency_range(p.port, JackPlaybackLatency, &range)
        }
    }
}

/// JACK's latency callback (a notification thread): playback mode sets the ports' figures.
private func probeLatency(_ mode: jack_latency_callback_mode_t, _ arg: UnsafeMutableRawPointer?) {
    guard mode == JackPlaybackLatency, let arg else { return }
    Unmanaged<ReportedLatency>.fromOpaque(arg).takeUnretainedValue().report()
}
