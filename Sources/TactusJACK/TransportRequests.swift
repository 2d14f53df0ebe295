import CJack

/// What the control thread asks of JACK transport (`JackTransportLink.handle`):
/// start, stop, locate. libjack's calls on a server (`JackTransportRequests`);
/// the deterministic tests' scripted transport takes them the way jack2 does
/// (docs/DESIGN.md §13.1), so the real round is what they drive.
protocol TransportRequests {
    mutating func start()
    mutating func stop()
    mutating func locate(_ frame: UInt32)
}

/// A server's transport: `jack_transport_start`, `_stop`, `_locate`, which
/// jack2 takes at the end of the cycle running when they are asked.
struct JackTransportRequests: TransportRequests {
    let client: OpaquePointer

    mutating func start() { jack_transport_start(client) }
    mutating func stop() { jack_transport_stop(client) }
    mutating func locate(_ frame: UInt32) { _ = jack_transport_locate(client, frame) }
}
