import CJack
import CShims
import TactusALSA
#if canImport(Glibc)
import Glibc
#endif

/// `tactus ports`: every MIDI port Tactus can be connected to, with the address
/// to give `--alsa-clock-to`, `--alsa-control-from`, `--connect-clock` or
/// `--connect-control`. A missing sequencer or JACK server is a line of output,
/// not an error: each half is listed when it is there.
public enum PortsCommand {
    public static func run(_ options: Options, output: (String) -> Void = { print($0) }) -> Int32 {
        for line in alsaLines() { output(line) }
        output("")
        for line in jackLines(serverName: options.serverName) { output(line) }
        return 0
    }

    /// The ALSA half: `out` ports send MIDI (for --alsa-control-from), `in` ports receive it (for --alsa-clock-to).
    static func alsaLines() -> [String] {
        do {
            let lister = try Sequencer(name: "tactus ports")
            let lines = PortListing.lines(for: lister.ports(), excludingClient: lister.clientID)
            return ["ALSA sequencer (CLIENT:PORT for --alsa-control-from: out, --alsa-clock-to: in):"]
                + (lines.isEmpty ? ["  no ports"] : lines)
        } catch {
            return ["ALSA sequencer: not available: \(error.reason)"]
        }
    }

    /// The JACK half, through a client that never starts a server.
    static func jackLines(serverName: String?) -> [String] {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
        var status = jack_status_t(0)
        let options = jack_options_t(JackNoStartServer.rawValue)
        guard let client = tactus_jack_client_open("tactus-ports", options, &status, serverName) else {
            return ["JACK: no server running\(serverName.map { " named '\($0)'" } ?? "") (start one, e.g. with qjackctl or jackd)"]
        }
        defer { jack_client_close(client) }
        guard let names = jack_get_ports(client, nil, nil, 0) else { return ["JACK: no ports"] }
        defer { jack_free(names) }
        var lines = ["JACK ports (for --connect-clock and --connect-control: midi; PORT...: audio in):"]
        var index = 0
        while let name = names[index] {
            index += 1
            guard let port = jack_port_by_name(client, name) else { continue }
            let flags = jack_port_flags(port)
            let type = jack_port_type(port).map { String(cString: $0) } ?? ""
            let kind = type.contains("midi") ? "midi " : (type.contains("audio") ? "audio" : "other")
            let direction = flags & Int32(JackPortIsOutput.rawValue) != 0 ? "out" : "in "
            lines.append("  \(kind) \(direction)  \(String(cString: name))")
        }
        return lines
    }
}
