import TactusCore
import TactusJACK

/// The control thread's side of `--link` (docs/DESIGN.md §11): a tempo the
/// session set (a peer's) goes into the pressure controller, so the next key,
/// tap or hold goes on from it, without being sent back; and the session's
/// figures for the display. The engine already plays the peer's tempo: the
/// real-time cycle reads it from Link through the time-source seam.
final class LinkFollower {
    private let metronome: JackMetronome
    /// The last tempo taken from a peer, while it is still the one playing.
    private var adopted: BPM?

    init(_ metronome: JackMetronome) { self.metronome = metronome }

    /// One control round; nil without `--link`.
    func round(_ loop: ControlLoop<MonotonicClock>) -> LinkSessionView? {
        guard let link = metronome.link else { return nil }
        let shared = metronome.shared
        if let tempo = metronome.takePeerTempo() {
            if tempo != loop.tempo {
                loop.adopt(tempo)
                adopted = tempo
            }
        }
        if adopted != loop.tempo { adopted = nil }
        let phase = shared.pointee.linkPhaseMillionths.load(ordering: .relaxed)
        return LinkSessionView(peers: link.peers, phaseTenths: phase / 100_000, quantum: Int(metronome.linkQuantum),
                               tempoFromPeer: adopted != nil)
    }
}
