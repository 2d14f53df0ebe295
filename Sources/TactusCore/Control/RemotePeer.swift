/// Where an OSC message came from or goes to: an IPv4 address and a UDP port.
///
/// Plain data, so a command and its sender cross from the OSC server's thread
/// to the control thread in one `SPSCRing` slot.
public struct RemotePeer: Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
    /// The address in host byte order (127.0.0.1 is 0x7F00_0001).
    public var address: UInt32
    public var port: UInt16

    public init(address: UInt32, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// The dotted address alone, as the display names a sender: `127.0.0.1`.
    public var host: String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
    }

    /// `127.0.0.1:9001`.
    public var description: String { "\(host):\(port)" }

    /// A dotted IPv4 address (`127.0.0.1`), or `localhost`; nil for anything else:
    /// Tactus never looks a name up (a remote sender must not make it wait on DNS).
    public static func address(_ text: some StringProtocol) -> UInt32? {
        if text == "localhost" { return 0x7F00_0001 }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var address: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            address = address << 8 | UInt32(byte)
        }
        return address
    }

    /// A liblo URL for UDP, `osc.udp://127.0.0.1:9001/` (the path after the port,
    /// if any, is ignored); nil for another protocol, a name to look up or a bad port.
    public init?(url: String) {
        let prefix = "osc.udp://"
        guard url.hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        let hostAndPort = rest.prefix { $0 != "/" }
        guard let colon = hostAndPort.lastIndex(of: ":"),
              let address = Self.address(hostAndPort[..<colon]),
              let port = UInt16(hostAndPort[hostAndPort.index(after: colon)...]), port > 0 else { return nil }
        self.init(address: address, port: port)
    }

    /// The form `init(url:)` reads.
    public var url: String { "osc.udp://\(description)/" }
}
