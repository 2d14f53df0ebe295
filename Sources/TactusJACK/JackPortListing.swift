import CJack

/// The JACK half of `tactus ports`: every port of the server, with what it
/// carries and which way, so a musician can pick the names to give
/// `--connect-clock`, `--connect-control` and the click's `PORT...`.
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
        guard !ports.isEmpty else { return ["JACK: no ports"] }
        return ["JACK ports (for --connect-clock and --connect-control: midi; PORT...: audio in):"] + ports.map(line)
    }

    static func line(_ port: JackPortDescription) -> String {
        let kind = port.type.contains("midi") ? "midi " : (port.type.contains("audio") ? "audio" : "other")
        return "  \(kind) \(port.isOutput ? "out" : "in ")  \(port.name)"
    }
}
