/// What the display shows of the Link session (`--link`): peers, the phase
/// where the click is heard (tenths of a beat, so the model changes ten times a
/// beat, not every cycle), the quantum, and whether the tempo playing is the
/// one a peer set.
public struct LinkSessionView: Hashable, Sendable {
    public var peers: Int
    public var phaseTenths: Int
    public var quantum: Int
    public var tempoFromPeer: Bool

    public init(peers: Int, phaseTenths: Int, quantum: Int, tempoFromPeer: Bool) {
        self.peers = peers
        self.phaseTenths = phaseTenths
        self.quantum = quantum
        self.tempoFromPeer = tempoFromPeer
    }

    /// `Link on  1 peer  phase 2.3/4`.
    public var text: String {
        "on  \(peers) \(peers == 1 ? "peer" : "peers")  phase \(phaseTenths / 10).\(phaseTenths % 10)/\(quantum)"
    }
}
