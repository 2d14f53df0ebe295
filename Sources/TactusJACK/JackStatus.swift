import CJack
import TactusCore

/// What the JACK side looks like now, for the status display and the log:
/// read on the control thread with the non-real-time JACK calls
/// (`jack_cpu_load`, `jack_port_get_connections`).
public struct JackStatus: Hashable, Sendable {
    /// The server's name: `-s`, else `$JACK_DEFAULT_SERVER`, else "default" (as libjack picks it).
    public var server: String
    /// The name JACK gave the client.
    public var client: String
    public var sampleRate: Int
    /// Frames per period.
    public var period: Int
    /// Xruns the server reported since Tactus started (over every reconnection).
    public var xruns: Int
    /// `jack_cpu_load`: the server's DSP load in percent of the period.
    public var dspLoad: Double
    /// Full names of the ports connected to `clock` (MIDI out) and `control` (MIDI in).
    public var clockConnections: [String]
    public var controlConnections: [String]
    /// `--transport`: "transport MODE, rolling|stopped; timebase WHO"; nil: off.
    public var transport: String?
    /// `--sync-out`: the kind and its ports with their connections
    /// (`JackMetronome.syncDescription`); nil: no sync output.
    public var sync: String? = nil
}

extension JackMetronome {
    /// The server's name as libjack resolves it for this client.
    public var serverName: String {
        options.serverName ?? ProcessEnvironment.value("JACK_DEFAULT_SERVER") ?? "default"
    }

    /// Now, or nil while no server is there. Control thread.
    public var status: JackStatus? {
        guard isConnected, let client, let ports = context?.pointee.ports else { return nil }
        return JackStatus(server: serverName, client: clientName, sampleRate: client.sampleRate, period: client.bufferSize,
                          xruns: notices.pointee.xruns.load(ordering: .relaxed), dspLoad: Double(jack_cpu_load(client.handle)),
                          clockConnections: client.connections(of: ports.clock), controlConnections: client.connections(of: ports.control),
                          transport: transportLink.mode == .off ? nil : { link in
                              let rolling = shared.pointee.transportRolling.load(ordering: .relaxed) ? "rolling" : "stopped"
                              let tempo = link.mode == .follow ? "; tempo from the timebase master" : ""
                              return "transport \(link.mode.label), \(rolling); timebase \(link.masterDescription(clientName: clientName, shared: shared))\(tempo)"
                          }(transportLink),
                          sync: syncDescription(client, ports: ports))
    }
}
