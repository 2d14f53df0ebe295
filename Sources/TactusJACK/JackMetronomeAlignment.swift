import CJack
import Synchronization
import TactusCore

/// What `--align` last handed the engine, kept by the control thread: the
/// latencies it aligned on (to say a change once) and the JACK latency
/// notices seen.
struct LatencyAlignment {
    var latencies: [Int?] = []
    var shifts = OutputShifts()
    var seenLatencyChanges = 0
}

/// `--align` (docs/DESIGN.md §3.8): each output is delayed so that it arrives
/// with the output whose path is longest. The latencies are JACK's playback
/// latencies of what each port is connected to (`jack_port_get_latency_range`,
/// `JackPlaybackLatency`), read again whenever JACK's latency callback, a
/// graph change or a new period says they may have changed; the shifts reach
/// the engine as `EngineCommand.setAlignment`, through the command ring.
extension JackMetronome {
    /// JACK announced new latencies (`tactusLatency`): align on them now, so
    /// the cycle after the control thread's wake-up sends with the new shifts.
    func followLatencyChanges(_ client: JackClient) {
        let changes = notices.pointee.latencyChanges.load(ordering: .acquiring)
        guard changes != alignment.seenLatencyChanges else { return }
        alignment.seenLatencyChanges = changes
        align(client)
    }

    /// Reads each output's path latency, and hands the engine new shifts when
    /// they changed, saying so in one log line. Control thread.
    func align(_ client: JackClient) {
        guard options.align, let ports = context?.pointee.ports else { return }
        let click = pathLatency(client, of: [ports.click])
        let clock = pathLatency(client, of: [ports.clock])
        let sync = pathLatency(client, of: [ports.sync, ports.syncRun].compactMap { $0 })
        let latencies = [click, clock, sync]
        guard latencies != alignment.latencies else { return }
        // A path longer than a second is a wrong figure, not a latency to wait for.
        let shifts = OutputShifts.aligning(click: click, clock: clock, sync: sync, limit: client.sampleRate)
        alignment.latencies = latencies
        if shifts != alignment.shifts {
            alignment.shifts = shifts
            control.pointee.commands.push(.setAlignment(shifts))
        }
        // Said once a change of what is connected; nothing connected (alignment is on by
        // default, and a client starts that way) has nothing to say.
        if latencies.contains(where: { $0 != nil }) {
            log(Self.alignmentLine(click: click, clock: clock, sync: sync, shifts: shifts, hasSync: ports.sync != nil))
        }
    }

    /// The longest playback latency among the ports `ports` are connected to
    /// (the range's maximum: the latest a block can be heard); nil: none connected.
    private func pathLatency(_ client: JackClient, of ports: [OpaquePointer]) -> Int? {
        let others = ports.flatMap { client.connections(of: $0) }
        return others.compactMap { client.playbackLatency(ofPortNamed: $0)?.upperBound }.max()
    }

    /// "aligned: click 512 frames, clock 128 (+384), sync 0 (+512)".
    static func alignmentLine(click: Int?, clock: Int?, sync: Int?, shifts: OutputShifts, hasSync: Bool) -> String {
        func part(_ name: String, _ latency: Int?, _ shift: Int32, first: Bool) -> String {
            guard let latency else { return "\(name) not connected" }
            return "\(name) \(latency)\(first ? " frames" : "")" + (shift > 0 ? " (+\(shift))" : "")
        }
        var parts = [part("click", click, shifts.click, first: true), part("clock", clock, shifts.clock, first: false)]
        if hasSync { parts.append(part("sync", sync, shifts.sync, first: false)) }
        return "aligned: " + parts.joined(separator: ", ")
    }
}

/// JACK's latency callback (jack.h: called when the latencies in the graph
/// change, on a notification thread, not the process thread): counted, and
/// the control thread woken to align on them (`JackMetronome.followLatencyChanges`).
/// jack2 recomputes a client's own output ports' playback latencies from
/// their connections before it calls the client's latency callback, so
/// Tactus has nothing to set: its ports are terminal.
func tactusLatency(_ mode: jack_latency_callback_mode_t, _ arg: UnsafeMutableRawPointer?) {
    guard mode == JackPlaybackLatency, let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return }
    notices.pointee.latencyChanges.add(1, ordering: .releasing)
    notices.pointee.wake()
}
