import CJack

/// The JACK half of `tactus ports`: every port of the server, with what it
/// carries and which way, so a musician can pick the names to give
/// `--connect-clock`, `--connect-control`, `--connect-clock-in` (a leader's
/// MIDI clock out), `--connect-sync` and the click's `PORT...`; a running
/// Tactus's own ports are among them (`sync` and `sync_run` with
/// `--sync-out`, `clock_in` with `--clock-in`).
public enum JackPortListing {
    /// Through a client that never starts a server; no server is one line saying so.
    public static func lines(serverName: String?) -> [String] {
        // libjack narrates a failed open line by line; the one line below says it.
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
        guard let client = try? JackClient(name: "tactus-ports", server: serverName) else {
            return ["JACK: no server running\(serverName.map { " named '\($0)'" } ?? "") (start one, e.g. with qjackctl or jackd)"]
        }
        defer { client.close() }
        let ports = client.ports()
        let timebase = timebaseLine(client.handle)
        guard !ports.isEmpty else { return ["JACK: no ports", timebase] }
        return ["JACK ports (midi in: --connect-clock; midi out: --connect-control, --connect-clock-in; audio in: PORT..., --connect-sync, --connect-sync-run):"] + ports.map(line) + [timebase]
    }

    /// Whether a timebase master publishes BBT (`jack_transport_query`): JACK
    /// says that there is one, and its tempo and meter, but not which client.
    static func timebaseLine(_ client: OpaquePointer) -> String {
        var position = jack_position_t()
        let state = jack_transport_query(client, &position)
        let rolling = state == JackTransportRolling ? "rolling" : "stopped"
        guard position.valid.rawValue & JackPositionBBT.rawValue != 0 else { return "JACK transport \(rolling), timebase master: none" }
        let bpm = (position.beats_per_minute * 100).rounded() / 100
        return "JACK transport \(rolling), timebase master: a client (JACK does not name it) at \(bpm) BPM "
            + "\(Int(position.beats_per_bar))/\(Int(position.beat_type)), bar \(position.bar) beat \(position.beat)"
    }

    static func line(_ port: JackPortDescription) -> String {
        let kind = port.type.contains("midi") ? "midi " : (port.type.contains("audio") ? "audio" : "other")
        return "  \(kind) \(port.isOutput ? "out" : "in ")  \(port.name)"
    }
}
