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
        let text = line.hasPrefix("tactus: ") ? String(line.dropFirst(8)) : line
        guard text.hasPrefix("ALSA: ") else { return false }
        let body = String(text.dropFirst(6))
        if body.hasPrefix("disconnected ") {
            let rest = body.dropFirst(13)
            if rest.hasPrefix("clock → ") {
                let gone = MIDIConnection(.alsa, .clock, String(rest.dropFirst(8)))
                connections.withLock { $0.removeAll { $0 == gone } }
            } else if rest.hasSuffix(" → control") {
                let gone = MIDIConnection(.alsa, .control, String(rest.dropLast(10)))
                connections.withLock { $0.removeAll { $0 == gone } }
            } else {
                return false
            }
        } else if body.hasPrefix("clock → ") {
            add(MIDIConnection(.alsa, .clock, String(body.dropFirst(8))))
        } else if body.hasSuffix(" → control") {
            add(MIDIConnection(.alsa, .control, String(body.dropLast(10))))
        } else if let range = body.firstRange(of: " went away;") {
            let port = String(body[..<range.lowerBound])
            connections.withLock { $0.removeAll { $0.other == port } }
        } else {
            return false
        }
        return true
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
