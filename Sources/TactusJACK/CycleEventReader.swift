import TactusCore

/// The control thread's end of the cycles' events (`JackShared.cycleEvents`,
/// `CycleEvent`): the one consumer, which takes them in order each round and
/// hands each to the part that acts on it. The transport's and Tactus's moves
/// go to `JackTransportLink`; a Link peer's tempo waits for the control
/// session's next round (`takePeerTempo`); the engine's own tempi a source
/// refused are counted for the session to say once a run.
final class CycleEventReader {
    /// The engine's own tempi (the trainer's, a tempo map's) the JACK
    /// timebase master refused (`--transport follow` owns the tempo,
    /// docs/DESIGN.md §9, §13.4).
    private(set) var refusedEngineTempi = 0
    /// The gaps this client was not run for (`CycleEvent.cyclesSkipped`) and
    /// their frames, said when it stops.
    private(set) var gaps = 0
    private(set) var framesSkipped: Int64 = 0
    private var peerTempo: BPM?
    /// The incoming clock's news (`CycleEvent.clockIn`, `.clockInError`) since
    /// the last `takeClockInEvents`, in order, for the session to say.
    private var clockInEvents: [CycleEvent] = []

    /// The incoming clock's news since the last call, once.
    func takeClockInEvents() -> [CycleEvent] {
        defer { clockInEvents.removeAll(keepingCapacity: true) }
        return clockInEvents
    }

    private var sessionCommit: SessionCommit?

    /// What a followed source last asked of the Link session, once (the
    /// newest replaces an older one not yet committed: it says all of it).
    func takeSessionCommit() -> SessionCommit? {
        defer { sessionCommit = nil }
        return sessionCommit
    }

    /// A peer's tempo since the last call, once.
    func takePeerTempo() -> BPM? {
        defer { peerTempo = nil }
        return peerTempo
    }

    /// Every event waiting, in order. Transport events go to `transportLink`
    /// only with a `client` (nil: what happened before a reconnection or a
    /// mode change is not news). True when the transport or the song moved.
    func take(from shared: UnsafeMutablePointer<JackShared>, client: OpaquePointer?, transportLink: JackTransportLink,
              control: UnsafeMutablePointer<EngineControl>) -> Bool {
        var requests = client.map { JackTransportRequests(client: $0) }
        return take(from: shared, requests: &requests, transportLink: transportLink, control: control)
    }

    /// The same, what is asked of the transport going to `requests` (nil: not
    /// news): libjack's calls on a server, a scripted transport in the tests,
    /// which also see each event as it is taken (`seen`).
    @discardableResult
    func take<Requests: TransportRequests>(from shared: UnsafeMutablePointer<JackShared>, requests: inout Requests?,
                                           transportLink: JackTransportLink, control: UnsafeMutablePointer<EngineControl>,
                                           seen: (CycleEvent) -> Void = { _ in }) -> Bool {
        var moved = false
        while let event = shared.pointee.cycleEvents.pop() {
            seen(event)
            switch event {
            case .peerTempo(let tempo): peerTempo = tempo
            case .sessionCommit(let commit): sessionCommit = commit
            case .engineTempoRefused: refusedEngineTempi += 1
            case .clockIn, .clockInError: clockInEvents.append(event)
            case .cyclesSkipped(_, let frames):
                gaps += 1
                framesSkipped += frames
            default:
                moved = true
                if requests != nil { transportLink.handle(event, requests: &requests!, control: control, shared: shared) }
            }
        }
        return moved
    }
}
