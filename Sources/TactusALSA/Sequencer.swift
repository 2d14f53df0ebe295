import CALSA
import CALSAShims

/// An open ALSA sequencer client: the `snd_seq_t` handle and the few calls Tactus
/// makes on it, with Swift names and thrown errors.
///
/// Opened duplex and non-blocking. One handle serves two threads: the clock
/// thread only writes events (alsa-lib's output buffer) and the input thread only
/// reads them (its separate input buffer); everything else here is an ioctl on
/// caller-owned structures, which the kernel serialises.
public final class Sequencer: @unchecked Sendable {
    let handle: OpaquePointer
    public let clientID: UInt8

    /// Opens the sequencer (`/dev/snd/seq`) as a client named `name`.
    public init(name: String) throws(SequencerError) {
        tactus_alsa_silence_library_errors()
        var h: OpaquePointer?
        try SequencerError.check(snd_seq_open(&h, "default", Int32(SND_SEQ_OPEN_DUPLEX), Int32(SND_SEQ_NONBLOCK)), "snd_seq_open", subject: "default")
        guard let h else { throw SequencerError("snd_seq_open", code: -ENODEV) }
        handle = h
        let id = snd_seq_client_id(h)
        guard id >= 0 else { snd_seq_close(h); throw SequencerError("snd_seq_client_id", code: id) }
        clientID = UInt8(id)
        do {
            try SequencerError.check(snd_seq_set_client_name(h, name), "snd_seq_set_client_name", subject: name)
        } catch {
            snd_seq_close(h)
            throw error
        }
    }

    deinit { snd_seq_close(handle) }

    /// Creates a port of this client; returns its number.
    public func createPort(name: String, capabilities: Int32, type: Int32) throws(SequencerError) -> UInt8 {
        let port = snd_seq_create_simple_port(handle, name, UInt32(capabilities), UInt32(type))
        try SequencerError.check(port, "snd_seq_create_simple_port", subject: name)
        return UInt8(port)
    }

    /// Has the kernel stamp every event delivered to `port` with `queue`'s real
    /// time as it delivers it (sound/core/seq/seq_clientmgr.c stamps at the
    /// destination port, whoever sent or subscribed), so a message is timed when
    /// it arrived, not when a thread read it.
    public func stampArrivals(onPort port: UInt8, with queue: Int32) throws(SequencerError) {
        try Self.stampArrivals(handle: handle, port: Int32(port), queue: queue)
    }

    static func stampArrivals(handle: OpaquePointer, port: Int32, queue: Int32) throws(SequencerError) {
        var info: OpaquePointer?
        try SequencerError.check(snd_seq_port_info_malloc(&info), "snd_seq_port_info_malloc")
        defer { snd_seq_port_info_free(info) }
        try SequencerError.check(snd_seq_get_port_info(handle, port, info), "snd_seq_get_port_info", subject: "port \(port)")
        snd_seq_port_info_set_timestamping(info, 1)
        snd_seq_port_info_set_timestamp_real(info, 1)
        snd_seq_port_info_set_timestamp_queue(info, queue)
        try SequencerError.check(snd_seq_set_port_info(handle, port, info), "snd_seq_set_port_info", subject: "port \(port), stamped on queue \(queue)")
    }

    /// Sizes the kernel's per-client event pools and alsa-lib's read buffer.
    ///
    /// The output pool holds every event scheduled on a queue until the kernel
    /// delivers it; the input pool is the FIFO of events waiting for our reads.
    /// The kernel silently ignores sizes outside 1…2000 (SNDRV_SEQ_MAX_EVENTS), so
    /// the sizes are read back. The read buffer holds the whole input pool, so a
    /// variable-length event (SysEx) that fits the pool also fits one read and can
    /// never get stuck at the head of the FIFO.
    public func setPools(output: Int, input: Int) throws(SequencerError) -> (output: Int, input: Int) {
        try SequencerError.check(snd_seq_set_client_pool_output(handle, output), "snd_seq_set_client_pool_output", subject: "\(output) events")
        try SequencerError.check(snd_seq_set_client_pool_input(handle, input), "snd_seq_set_client_pool_input", subject: "\(input) events")
        try SequencerError.check(snd_seq_set_input_buffer_size(handle, (input + 2) * MemoryLayout<snd_seq_event_t>.size),
                                 "snd_seq_set_input_buffer_size")
        var pool: OpaquePointer?
        try SequencerError.check(snd_seq_client_pool_malloc(&pool), "snd_seq_client_pool_malloc")
        defer { snd_seq_client_pool_free(pool) }
        try SequencerError.check(snd_seq_get_client_pool(handle, pool), "snd_seq_get_client_pool")
        return (Int(snd_seq_client_pool_get_output_pool(pool)), Int(snd_seq_client_pool_get_input_pool(pool)))
    }

    /// Connects `source` to `destination`; what `aconnect source destination` does.
    public func subscribe(from source: SequencerAddress, to destination: SequencerAddress) throws(SequencerError) {
        var subscription: OpaquePointer?
        try SequencerError.check(snd_seq_port_subscribe_malloc(&subscription), "snd_seq_port_subscribe_malloc")
        defer { snd_seq_port_subscribe_free(subscription) }
        var s = source.alsa, d = destination.alsa
        snd_seq_port_subscribe_set_sender(subscription, &s)
        snd_seq_port_subscribe_set_dest(subscription, &d)
        try SequencerError.check(snd_seq_subscribe_port(handle, subscription), "snd_seq_subscribe_port", subject: "\(source) → \(destination)")
    }

    /// Every port of every client, in address order.
    public func ports() -> [SequencerPort] {
        var client: OpaquePointer?, port: OpaquePointer?
        guard snd_seq_client_info_malloc(&client) >= 0 else { return [] }
        defer { snd_seq_client_info_free(client) }
        guard snd_seq_port_info_malloc(&port) >= 0 else { return [] }
        defer { snd_seq_port_info_free(port) }
        var found: [SequencerPort] = []
        snd_seq_client_info_set_client(client, -1)
        while snd_seq_query_next_client(handle, client) >= 0 {
            let clientNumber = snd_seq_client_info_get_client(client)
            let clientName = String(cString: snd_seq_client_info_get_name(client))
            let kernel = snd_seq_client_info_get_type(client) == SND_SEQ_KERNEL_CLIENT
            snd_seq_port_info_set_client(port, clientNumber)
            snd_seq_port_info_set_port(port, -1)
            while snd_seq_query_next_port(handle, port) >= 0 {
                let (source, destination) = SequencerPort.directions(capability: snd_seq_port_info_get_capability(port))
                found.append(SequencerPort(
                    address: SequencerAddress(client: UInt8(clientNumber), port: UInt8(snd_seq_port_info_get_port(port))),
                    clientName: clientName, portName: String(cString: snd_seq_port_info_get_name(port)),
                    isSource: source, isDestination: destination, isKernelClient: kernel))
            }
        }
        return found
    }
}
