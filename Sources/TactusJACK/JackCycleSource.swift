import TactusCore
import TactusLink
#if canImport(Glibc)
import Glibc
#endif

/// The JACK cycle's time source (docs/DESIGN.md §9), asked by `Engine.cycle`
/// once the block's commands are applied: with Link owning the transport, the
/// session, which commits the player's requests first and answers with its
/// beat where the block is heard (§11.2); with JACK transport following
/// (`--transport follow`), the master's position read this cycle, the
/// player's Start and Stop handed to the control thread for
/// `jack_transport_start`/`_stop` and the engine's own tempi refused (§13.4);
/// otherwise none (the engine's own anchor). A followed source with Link (the
/// MIDI clock in, or JACK transport follow) positions the block as without it,
/// and what the session must be told to agree goes to the control thread
/// (`LinkBridge`, `CycleEvent.sessionCommit`, §9).
///
/// Generic over the Link session (`CycleHost.link`), as the cycle is over its
/// host: checked by the compiler as specialized from the callback
/// (`ProcessCycle.run(_:frames:)`), for `LinkAudio`.
struct JackCycleSource<Session: LinkAudioSession>: CycleSource {
    let context: UnsafeMutablePointer<ProcessContext>
    /// The Link session of this cycle's host (nil without `--link`).
    let session: Session?
    let owner: SourceOwnership
    /// The transport's position (follow mode), read before the cycle.
    let transport: TimelinePosition?
    /// The block follows `transport` (the MIDI clock in, JACK transport follow),
    /// published to the Link session, if any, rather than read from it.
    let follows: Bool
    let start: Int64
    let frames: Int
    /// The block's host time (Link's clock) and JACK's filtered period.
    let host: Double
    let microsecondsPerFrame: Double

    mutating func position(answering requests: TimeSourceRequests, pulsesPerBeat: Int64) -> TimelinePosition? {
        guard owner.transport else { return transport }
        let shared = context.pointee.shared
        if let session, follows, let transport {
            let latency = shared.pointee.clickLatency.load(ordering: .relaxed)
            if let commit = context.pointee.link?.timeline.commit(following: transport, of: session, frame: start, frames: frames,
                                                                  hostMicroseconds: host, microsecondsPerFrame: microsecondsPerFrame,
                                                                  latencyFrames: latency, pulsesPerBeat: pulsesPerBeat) {
                ProcessCycle.tell(context, .sessionCommit(commit))
            }
            let phase = context.pointee.link?.timeline.phase ?? 0
            let tempo = context.pointee.link?.timeline.tempo ?? 0
            shared.pointee.linkPhaseMillionths.store(Int(phase * 1_000_000), ordering: .relaxed)
            shared.pointee.linkTempoHundredths.store(Int(tempo * 100 + 0.5), ordering: .relaxed)
            shared.pointee.linkSessionCommits.store(context.pointee.link?.timeline.bridge.commits ?? 0, ordering: .relaxed)
        } else if let session, let before = context.pointee.link?.timeline.peerTempoChanges {
            let position = context.pointee.link?.timeline.position(of: session, frame: start, frames: frames, hostMicroseconds: host,
                                                          microsecondsPerFrame: microsecondsPerFrame,
                                                          latencyFrames: shared.pointee.clickLatency.load(ordering: .relaxed),
                                                          pulsesPerBeat: pulsesPerBeat,
                                                          alone: shared.pointee.linkPeers.load(ordering: .relaxed) == 0,
                                                          requests: requests)
            let phase = context.pointee.link?.timeline.phase ?? 0
            let tempo = context.pointee.link?.timeline.tempo ?? 0
            let changes = context.pointee.link?.timeline.peerTempoChanges ?? before
            shared.pointee.linkPhaseMillionths.store(Int(phase * 1_000_000), ordering: .relaxed)
            shared.pointee.linkTempoHundredths.store(Int(tempo * 100 + 0.5), ordering: .relaxed)
            shared.pointee.linkPeerTempoChanges.store(changes, ordering: .relaxed)
            // A peer's tempo: the control thread takes it into the pressure controller now.
            if changes != before {
                ProcessCycle.tell(context, .peerTempo(BPM(hundredths: Int32(clamping: Int(tempo * 100 + 0.5)))))
            }
            return position
        }
        if let running = requests.running {
            ProcessCycle.tell(context, .transportRequested(running: running))
        }
        // The player's tempi the control session sees itself; the engine's own it hears of
        // here, woken to say so now (once a run: the trainer steps at bar lines at the most).
        if requests.enginesOwnTempo {
            ProcessCycle.tell(context, .engineTempoRefused)
        }
        return transport
    }
}
