/// The connections of Tactus' ports, kept across servers: made again on a new
/// server, and those whose other end is not there yet retried for a while.
///
/// JACK forgets a client's connections with the client. A server that comes
/// back, or a client (a DAW, a drum machine's bridge) that registers its ports
/// after ours, must find them made again. Control thread only.
struct JackConnectionKeeper {
    /// What to make again on a new server; refreshed from JACK shortly after the
    /// graph changes (not at once: a dying server disconnects every client
    /// before it tells us it is gone).
    private var connections: [JackConnection]
    /// Connections whose other end did not exist yet, retried until `pendingUntil`.
    private(set) var pending: [JackConnection] = []
    private var pendingUntil = ContinuousClock.now

    /// How long a connection waits for its other end after a (re)connection: a
    /// client coming back with the server may take seconds to register its ports.
    static let patience = Duration.seconds(10)

    /// The connections the options ask for, before any server was seen.
    init(_ options: JackRunOptions) {
        connections = options.clickConnections.map { JackConnection(port: .click, other: $0) }
            + (options.feedbackConnections ?? options.clickConnections).map { JackConnection(port: .feedback, other: $0) }
            + options.clockConnections.map { JackConnection(port: .clock, other: $0) }
            + options.controlConnections.map { JackConnection(port: .control, other: $0) }
            + options.syncConnections.map { JackConnection(port: .sync, other: $0) }
            + options.syncRunConnections.map { JackConnection(port: .syncRun, other: $0) }
            + options.clockInConnections.map { JackConnection(port: .clockIn, other: $0) }
    }

    /// Makes every kept connection on a fresh client (or a client whose engine
    /// was rebuilt); says which other ends it waits for.
    mutating func restore(_ client: JackClient, clientName: String, log: (String) -> Void) {
        pending = connections
        pendingUntil = .now + Self.patience
        connectPending(client, clientName: clientName, log: log)
        if !pending.isEmpty {
            log("waiting up to 10 s for \(Set(pending.map(\.other)).sorted().joined(separator: ", ")) (not there, or not active yet)")
        }
    }

    /// Makes the connections it can; the rest wait until the deadline: the other
    /// end may not exist yet (another client coming back after us), or exist but
    /// refuse connections until its client is activated (jack_connect fails then).
    mutating func connectPending(_ client: JackClient, clientName: String, log: (String) -> Void) {
        guard !pending.isEmpty else { return }
        var refusals: [JackConnection: JackError] = [:]
        pending = pending.filter { connection in
            guard client.portExists(connection.other) else { return true }
            let (source, destination) = connection.endpoints(client: clientName)
            do throws(JackError) { try client.connect(source, destination) } catch { refusals[connection] = error; return true }
            return false
        }
        if !pending.isEmpty && ContinuousClock.now >= pendingUntil {
            for connection in pending {
                let (source, destination) = connection.endpoints(client: clientName)
                log("gave up connecting \(source) to \(destination): \(refusals[connection].map { "\($0)" } ?? "no such port")")
            }
            pending = []
        }
    }

    /// Reads the ports' connections from JACK, as the musician left them (those
    /// still waiting for their other end kept too).
    mutating func remember(_ client: JackClient, ports: JackPorts) {
        let handles: [(TactusPort, OpaquePointer)] = [(.click, ports.click), (.feedback, ports.feedback), (.clock, ports.clock), (.control, ports.control)]
            + [(TactusPort.sync, ports.sync), (.syncRun, ports.syncRun), (.clockIn, ports.clockIn)].compactMap { port, handle in handle.map { (port, $0) } }
        connections = handles.flatMap { port, handle in client.connections(of: handle).map { JackConnection(port: port, other: $0) } }
            + pending
    }

    /// The server went away: nothing is waiting on it any more.
    mutating func forgetPending() {
        pending = []
    }
}
