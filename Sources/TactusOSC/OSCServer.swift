import Synchronization
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// The OSC server (`--osc PORT`, docs/DESIGN.md §12): a UDP socket bound to one
/// address (127.0.0.1 unless `--osc-host`), read on a thread of its own.
///
/// Each datagram is decoded by liblo (`OSCCodec`) and checked and typed by
/// `RemoteCommandParser`; a command goes to the control thread through
/// `requests`, a ring of plain values, and the thread's `ControlWakeup` is
/// posted once a batch. A wrong path, type or range is answered here,
/// `/tactus/error s:path s:reason` to the sender, and never reaches the ring;
/// `/tactus/ping` is answered `/tactus/pong`. Nothing here touches the
/// real-time thread or the engine.
///
/// liblo's own `lo_server` is not used for the socket: liblo 0.31 binds it to
/// every interface (0.0.0.0) whatever address it is given, and a metronome on
/// stage must not listen to the whole network unless asked.
public final class OSCServer: @unchecked Sendable {
    /// What the control thread drains.
    public let requests: UnsafeMutablePointer<SPSCRing<RemoteRequest>>
    /// The address and port listened on (the port the kernel chose, for port 0).
    public let local: RemotePeer
    /// Datagrams read, commands handed on, and those answered with an error or dropped as unreadable.
    public let received = Atomic<Int>(0)
    public let handedOn = Atomic<Int>(0)
    public let refused = Atomic<Int>(0)
    public let unreadable = Atomic<Int>(0)
    private let socket: Int32
    private let wakeup: ControlWakeup?
    private let thread = PollingThread()
    private let clock = MonotonicClock()

    /// Binds `host:port` (host: a dotted IPv4 address, or `localhost`).
    public init(host: String, port: UInt16, wakeup: ControlWakeup?, capacity: Int = 1024) throws(OSCServerError) {
        guard let address = RemotePeer.address(host) else { throw .badHost(host) }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("cannot open a UDP socket", errno) }
        var name = sockaddr_in()
        name.sin_family = sa_family_t(AF_INET)
        name.sin_port = port.bigEndian
        name.sin_addr.s_addr = address.bigEndian
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw .system("cannot listen on \(RemotePeer(address: address, port: port)) (UDP)", error)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        local = RemotePeer(address: address, port: UInt16(bigEndian: actual.sin_port))
        socket = fd
        self.wakeup = wakeup
        requests = .allocate(capacity: 1)
        requests.initialize(to: SPSCRing(capacity: capacity))
    }

    deinit {
        stop()
        close(socket)
        requests.deinitialize(count: 1)
        requests.deallocate()
    }

    public func start() {
        thread.start { [self] in run() }
    }

    /// Stops and joins the thread.
    public func stop() {
        thread.stop()
    }

    /// Sends one message to `peer` from the server's socket (so a client sees
    /// replies come from the port it sent to). Any thread: a UDP `sendto` is one
    /// whole datagram, and the socket is never read from here.
    public func send(_ path: String, _ arguments: [OSCArgument], to peer: RemotePeer) {
        var bytes = OSCCodec.encode(path: path, arguments)
        guard !bytes.isEmpty else { return }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = peer.port.bigEndian
        target.sin_addr.s_addr = peer.address.bigEndian
        _ = withUnsafePointer(to: &target) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, &bytes, bytes.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// `/tactus/error s:path s:reason`.
    public func sendError(path: String, reason: String, to peer: RemotePeer) {
        // A huge path is quoted back cut short: an answer must not be a flood of its own.
        let quoted = path.utf8.count > 200 ? String(decoding: path.utf8.prefix(200), as: UTF8.self) + "…" : path
        send("/tactus/error", [.string(quoted), .string(reason)], to: peer)
    }

    private func run() {
        // The largest UDP payload over IPv4: any datagram fits whole.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate() }
        let stop = thread.stopDescriptor
        while !thread.stopRequested {
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, stop >= 0 ? 2 : 1, stop >= 0 ? -1 : 50)
            if ready <= 0 { continue }
            var handed = 0
            // Everything waiting, then one post: a flood costs the control thread one round.
            while !thread.stopRequested {
                var from = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let count = withUnsafeMutablePointer(to: &from) { address in
                    address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), $0, &length)
                    }
                }
                if count < 0 { break }
                received.add(1, ordering: .relaxed)
                let sender = RemotePeer(address: UInt32(bigEndian: from.sin_addr.s_addr), port: UInt16(bigEndian: from.sin_port))
                if handle(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), from: sender) { handed += 1 }
            }
            if handed > 0 { wakeup?.post() }
        }
    }

    /// One datagram; true when a command went to the control thread.
    private func handle(_ packet: UnsafeMutableRawBufferPointer, from sender: RemotePeer) -> Bool {
        let now = clock.now().microseconds
        switch OSCCodec.decode(packet) {
        case .failure(let malformed):
            unreadable.add(1, ordering: .relaxed)
            // Readable up to its path: worth an answer; random bytes are dropped unanswered.
            if let path = malformed.path {
                sendError(path: path, reason: "not a well-formed OSC message (liblo error \(malformed.code))", to: sender)
            }
            return false
        case .success(let message):
            switch RemoteCommandParser.parse(path: message.path, arguments: message.arguments) {
            case .failure(let error):
                refused.add(1, ordering: .relaxed)
                sendError(path: message.path, reason: error.reason, to: sender)
                return false
            case .success(.ping):
                send("/tactus/pong", [], to: sender)
                return false
            case .success(let command):
                guard requests.pointee.push(RemoteRequest(command: command, sender: sender, microseconds: now)) else {
                    refused.add(1, ordering: .relaxed)
                    sendError(path: message.path, reason: "busy: \(requests.pointee.capacity) commands are waiting for the control thread", to: sender)
                    return false
                }
                handedOn.add(1, ordering: .relaxed)
                return true
            }
        }
    }
}

/// Why the OSC server could not start: one line for the player.
public enum OSCServerError: Error, CustomStringConvertible {
    case badHost(String)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .badHost(let host): "--osc-host '\(host)' is not an IPv4 address (e.g. 127.0.0.1, or 0.0.0.0 for every interface)"
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}
