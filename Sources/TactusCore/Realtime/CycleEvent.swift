/// What a real-time cycle tells the control thread, through one `SPSCRing`:
/// the mirror of `EngineCommand`, in the other direction. Each value is one
/// thing that happened in a cycle, in the order it happened, taken once by the
/// control thread; nothing is inferred from a counter. Figures that are read
/// as they are (levels, the tempo shown, whether the transport rolls, its
/// frame) stay atomics (`EngineStatus`, `JackShared`).
public enum CycleEvent: Sendable, BitwiseCopyable, Equatable {
    /// JACK transport started rolling, at its frame (docs/DESIGN.md §13.2).
    case transportStarted(frame: UInt32)
    /// JACK transport stopped, at its frame.
    case transportStopped(frame: UInt32)
    /// JACK transport jumped to `frame`, a locate the cycle leaves to the
    /// control thread (of a stopped transport, a jump without jack2's
    /// `Starting` cycle): not an echo of Tactus's own locate or of jack2's
    /// reposition after a release (decided in the cycle, `ProcessCycle.isEcho`),
    /// and not taken by the engine in the cycle (§13.3).
    case transportLocated(frame: UInt32)
    /// Tactus's song started, from the bar whose first transport frame (at the
    /// grid's tempo and meter, `Engine.transportFrame(ofBar:)`) is given.
    case songStarted(transportFrame: UInt32)
    /// Tactus's song stopped.
    case songStopped
    /// Start or Continue (true), or Stop, asked of a JACK transport that owns
    /// them (`--transport follow`, `TimeSourceRequests.running`).
    case transportRequested(running: Bool)
    /// A tempo the Link session set that this peer did not (docs/DESIGN.md §11.3).
    case peerTempo(BPM)
    /// The followed source's tempo and beat for the Link session it is
    /// published to, for the control thread to commit (`SessionCommit`, §9).
    case sessionCommit(SessionCommit)
    /// One of the engine's own tempi (the trainer's step, a tempo map's
    /// segment) refused by a source that owns the tempo (§13.4).
    case engineTempoRefused
    /// This client was not run for `frames` frames from engine frame `from`
    /// (an xrun, a cycle the server skipped): the block begins that far past
    /// where the last one ended, and what fell between is late (docs/DESIGN.md §3.6).
    case cyclesSkipped(from: Int64, frames: Int64)
    /// What the incoming MIDI clock's follower changed (`--clock-in`,
    /// docs/DESIGN.md §9.1): a lock, a jump, Start, Continue, Stop, a Song
    /// Position, a hold, a dropout, a tick lost in transit, a Song Position
    /// ignored. With the filtered tempo then (hundredths of a BPM, 0 when none)
    /// and the song tick the clock's next tick plays (24 a quarter note).
    case clockIn(ClockFollowerChanges, tempoHundredths: Int32, nextSongTick: Int64)
    /// A malformed byte in the incoming clock, where it was; the ticks around it still count.
    case clockInError(ClockInputError)
}
