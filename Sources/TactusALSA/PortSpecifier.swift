/// A port as the user names it on the command line (`--alsa-clock-to`,
/// `--alsa-control-from`): `CLIENT:PORT`, each by number or by name, or just
/// `CLIENT` for its first port that can be routed the needed way. The same forms
/// `aconnect` accepts: `24:0`, `Midi Through:0`, `"USB Keystation 49:USB Keystation 49 MIDI 1"`, `Keystation`.
///
/// Kept as text and resolved against the live port list each time the System
/// Announce port reports a change, so a keyboard plugged in later, or plugged in
/// again under a new client number, is found by its name.
public struct PortSpecifier: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public enum ParseError: Error, CustomStringConvertible, Equatable {
        case empty
        case clientNumberOutOfRange(String)

        public var description: String {
            switch self {
            case .empty: "an ALSA port is named CLIENT:PORT, by name or number (e.g. 24:0 or \"Midi Through:0\"), not an empty string"
            case .clientNumberOutOfRange(let text): "ALSA port '\(text)': client and port numbers are 0–255"
            }
        }
    }

    public init(parsing text: String) throws(ParseError) {
        let trimmed = String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        guard !trimmed.isEmpty, trimmed != ":" else { throw .empty }
        if let colon = trimmed.firstIndex(of: ":"),
           let client = Int(trimmed[..<colon]), let port = Int(trimmed[trimmed.index(after: colon)...]),
           !(0...255).contains(client) || !(0...255).contains(port) {
            throw .clientNumberOutOfRange(trimmed)
        }
        self.text = trimmed
    }

    public var description: String { text }

    /// Which way a port must be routable.
    public enum Direction: Sendable {
        /// MIDI comes out of it (we subscribe to read from it).
        case source
        /// MIDI goes into it (we subscribe to write to it).
        case destination
    }

    /// The port this names among `ports`, or nil when it is not there (yet).
    ///
    /// Every way to split the text at a colon is tried, since client and port names
    /// may themselves contain colons. Exact matches (number or full name) win over
    /// case-insensitive prefixes, the way `aconnect` abbreviates client names.
    public func resolve(in ports: [SequencerPort], direction: Direction) -> SequencerPort? {
        let routable = ports.filter { direction == .source ? $0.isSource : $0.isDestination }
        var splits: [(client: Substring, port: Substring?)] = [(text[...], nil)]
        var index = text.startIndex
        while let colon = text[index...].firstIndex(of: ":") {
            splits.append((text[..<colon], text[text.index(after: colon)...]))
            index = text.index(after: colon)
        }
        for exact in [true, false] {
            for (clientText, portText) in splits {
                if let found = routable.first(where: { port in
                    Self.matches(number: port.address.client, name: port.clientName, text: clientText, exact: exact)
                        && (portText.map { Self.matches(number: port.address.port, name: port.portName, text: $0, exact: exact) } ?? true)
                }) {
                    return found
                }
            }
        }
        return nil
    }

    private static func matches(number: UInt8, name: String, text: Substring, exact: Bool) -> Bool {
        if let n = Int(text) { return n == Int(number) }
        if exact { return name == text }
        return !text.isEmpty && name.lowercased().hasPrefix(text.lowercased())
    }
}
