import Synchronization

/// The ALSA sequencer connections Tactus made, followed from the ALSA client's
/// report lines (its notification channel, called on its input thread): the
/// port connector says "ALSA: <port> → control", "ALSA: clock → <port>" and
/// "ALSA: <port> went away; …". Connections made by others (aconnect, a
/// patchbay) are not reported, so not shown.
public final class ALSAConnectionTracker: Sendable {
    private let connections = Mutex<[MIDIConnection]>([])

    public init() {}

    /// Takes note of one report line; true when it was about a connection.
    @discardableResult
    public func note(_ line: String) -> Bool {
        guard line.hasPrefix("ALSA: ") else { return false }
        var body = line.dropFirst(6)
        let disconnected = body.hasPrefix("disconnected ")
        if disconnected { body = body.dropFirst("disconnected ".count) }
        if let connection = Self.connection(body) {
            if disconnected { connections.withLock { $0.removeAll { $0 == connection } } } else { add(connection) }
            return true
        }
        guard !disconnected, let range = body.firstRange(of: " went away;") else { return false }
        let port = String(body[..<range.lowerBound])
        connections.withLock { $0.removeAll { $0.other == port } }
        return true
    }

    /// "clock → PORT" or "PORT → control", as the ALSA client words a connection.
    private static func connection(_ body: Substring) -> MIDIConnection? {
        if body.hasPrefix("clock → ") { return MIDIConnection(.alsa, .clock, String(body.dropFirst("clock → ".count))) }
        if body.hasSuffix(" → control") { return MIDIConnection(.alsa, .control, String(body.dropLast(" → control".count))) }
        return nil
    }

    public var current: [MIDIConnection] { connections.withLock { $0 } }

    /// The ALSA client's report function: connections noted, every line on
    /// standard error as before (captured while the live display runs).
    public var report: @Sendable (String) -> Void {
        { [self] line in
            note(line)
            printError("tactus: " + line)
        }
    }

    private func add(_ connection: MIDIConnection) {
        connections.withLock { if !$0.contains(connection) { $0.append(connection) } }
    }
}
