import CJack
import CJackShims
#if canImport(Glibc)
import Glibc
#endif

/// A JACK client handle with Swift names for the non-real-time calls Tactus
/// makes (open, ports, connections, latency, activation), errors as values.
/// Never touched by the process callback, which holds the raw handle.
final class JackClient {
    let handle: OpaquePointer
    private var closed = false

    /// Opens a client; never starts a server (a musician's server is theirs to
    /// start: `JackNoStartServer`, as jack_midi_clock and klick do).
    init(name: String, server: String?) throws(JackError) {
        var status = jack_status_t(0)
        let options = JackNoStartServer
        guard let handle = tactus_jack_client_open(name, options, &status, server) else {
            throw .openFailed(status: status.rawValue, server: server)
        }
        self.handle = handle
    }

    deinit { close() }

    /// The name JACK gave (it appends "-01" when the requested one is taken).
    var name: String { String(cString: jack_get_client_name(handle)) }
    var sampleRate: Int { Int(jack_get_sample_rate(handle)) }
    var bufferSize: Int { Int(jack_get_buffer_size(handle)) }

    enum PortKind {
        case audioOutput, midiOutput, midiInput

        var type: String { self == .audioOutput ? JACK_DEFAULT_AUDIO_TYPE : JACK_DEFAULT_MIDI_TYPE }
        /// Terminal: the data starts (outputs) or ends (input) in Tactus, no pass-through.
        var flags: UInt {
            UInt(self == .midiInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue) | UInt(JackPortIsTerminal.rawValue)
        }
    }

    func register(_ shortName: String, _ kind: PortKind) throws(JackError) -> OpaquePointer {
        guard let port = jack_port_register(handle, shortName, kind.type, kind.flags, 0) else {
            throw .portRegistrationFailed(port: shortName)
        }
        return port
    }

    func portExists(_ name: String) -> Bool { jack_port_by_name(handle, name) != nil }

    /// Connects `source` → `destination` (full names). Already connected is no
    /// error (`jack_connect` returns EEXIST); any other non-zero result is thrown
    /// with JACK's code.
    func connect(_ source: String, _ destination: String) throws(JackError) {
        let result = jack_connect(handle, source, destination)
        guard result == 0 || result == EEXIST else {
            throw .connectionFailed(source: source, destination: destination, code: result)
        }
    }

    /// Every port on the server, in JACK's order (by client, then registration).
    func ports() -> [JackPortDescription] {
        guard let names = jack_get_ports(handle, nil, nil, 0) else { return [] }
        defer { jack_free(names) }
        var ports: [JackPortDescription] = []
        var index = 0
        while let name = names[index] {
            index += 1
            guard let port = jack_port_by_name(handle, name) else { continue }
            ports.append(JackPortDescription(name: String(cString: name),
                                             type: jack_port_type(port).map { String(cString: $0) } ?? "",
                                             isOutput: jack_port_flags(port) & Int32(JackPortIsOutput.rawValue) != 0))
        }
        return ports
    }

    /// Full names of the ports connected to `port`.
    func connections(of port: OpaquePointer) -> [String] {
        guard let list = jack_port_get_connections(port) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var i = 0
        while let name = list[i] { names.append(String(cString: name)); i += 1 }
        return names
    }

    /// The playback latency JACK reports for the port named `name` (frames from
    /// its buffer to the listener), as a range min...max.
    func playbackLatency(ofPortNamed name: String) -> ClosedRange<Int>? {
        guard let port = jack_port_by_name(handle, name) else { return nil }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, JackPlaybackLatency, &range)
        return Int(range.min)...Int(max(range.min, range.max))
    }

    func activate() throws(JackError) {
        let code = jack_activate(handle)
        if code != 0 { throw .activationFailed(code: code) }
    }

    func deactivate() { _ = jack_deactivate(handle) }

    /// Closes the client; also right after the server went away (the handle is
    /// then a zombie that libjack still owns until this call).
    func close() {
        guard !closed else { return }
        closed = true
        _ = jack_client_close(handle)
    }
}
