import TactusCore

/// A followed position published to the Link session (docs/DESIGN.md §9, §11.3:
/// MIDI clock in with `--link`, `--link` with `--transport follow`): the source
/// (the incoming clock's filtered grid, the timebase master's BBT) positions the
/// block, and the session is made to agree with it where the block is heard.
///
/// Each cycle the session's captured state is compared with the source: its
/// tempo (to Link's own resolution, whole µs a beat: 0.005 BPM) and its beat at
/// the block's heard time (within `beatTolerance`). What disagrees, the
/// source's own tempo change or a peer's, becomes a `SessionCommit`: the
/// source's tempo and its song position as the session's beat (Link's
/// `forceBeatAtTime`, which Link keeps for syncing a session to an external
/// clock), so a peer's tempo is answered with the source's. Song position 0 is
/// a session bar line (beat 0 has phase 0 over the quantum). The commit is the
/// control thread's (`SessionCommit`): the cycle only decides it, so it runs
/// Link's audio-thread capture (atomics) and nothing else of Link.
///
/// After a commit the next is held for `hold` unless the source starts or
/// stops: Link takes an application-thread commit through its own thread, and
/// the cycles in between still capture the state before it.
public struct LinkBridge: BitwiseCopyable {
    /// The source's tempo (Link BPM) while it last rolled; 0 before.
    public private(set) var sourceTempo: Double = 0
    /// Commits asked for.
    public private(set) var commits = 0
    /// The heard time of the last commit asked for, and whether the source rolled then.
    var lastCommit: Int64 = .min / 2
    var committedRolling = false

    /// 0.1 ms: well inside the 1 ms a peer's click is held to, far above the
    /// µs Link's clock and beats are counted in.
    public static let beatTolerance = 100.0
    /// 20 ms: a control thread's round and Link's thread taking the commit.
    public static let hold: Int64 = 20_000

    public init() {}

    /// The commit this block asks for, or nil: `source` the block's position
    /// at its first frame, heard at `heard` (Link's µs) on a line of
    /// `microsecondsPerFrame`; `session` the session's tempo, beat at `heard`
    /// and start/stop state as captured this cycle.
    @_noLocks @_noAllocation
    public mutating func commit(following source: TimelinePosition, pulsesPerBeat: Int64, heard: Int64, microsecondsPerFrame: Double,
                                session: (tempo: Double, beat: Double, isPlaying: Bool), quantum: Double,
                                sharesStartStop: Bool) -> SessionCommit? {
        let pulses = Double(max(pulsesPerBeat, 1))
        let rolling = source.rolling && source.framesPerPulse > 0 && microsecondsPerFrame > 0
        var beat: Double?
        if rolling {
            sourceTempo = 60_000_000 / (source.framesPerPulse * pulses * microsecondsPerFrame)
            beat = source.songPulse / pulses
        }
        guard sourceTempo > 0 else { return nil }
        var differs = abs(session.tempo - sourceTempo) >= 0.005
        if let beat, abs(session.beat - beat) * 60_000_000 / sourceTempo > Self.beatTolerance { differs = true }
        if sharesStartStop && session.isPlaying != rolling { differs = true }
        guard differs, rolling != committedRolling || heard - lastCommit >= Self.hold else { return nil }
        lastCommit = heard
        committedRolling = rolling
        commits += 1
        return SessionCommit(tempo: sourceTempo, microseconds: heard, beat: beat, quantum: quantum, playing: sharesStartStop ? rolling : nil)
    }
}

extension SessionCommit {
    /// Makes `state` (the control thread's capture of the session) what the
    /// source said: its tempo from the heard time on, its song position there
    /// as the session's beat whatever the peers do, its start/stop state.
    public func apply<State: LinkSessionState>(to state: inout State) {
        state.setTempo(tempo, at: microseconds)
        if let beat { state.forceBeat(beat, at: microseconds, quantum: quantum) }
        if let playing, playing != state.isPlaying { state.setPlaying(playing, at: microseconds) }
    }
}

extension LinkTimeline {
    /// One cycle with a followed source (`LinkBridge`): the block's heard
    /// times on the filter's line, the session captured there, and the commit
    /// the source asks for. The status's tempo and phase are the session's.
    @inlinable
    public mutating func commit<Session: LinkAudioSession>(
        following source: TimelinePosition, of session: Session, frame: Int64, frames: Int, hostMicroseconds: Double,
        microsecondsPerFrame: Double, latencyFrames: Int, pulsesPerBeat: Int64
    ) -> SessionCommit? {
        let heard = heardTimes(frame: frame, frames: frames, hostMicroseconds: hostMicroseconds,
                               microsecondsPerFrame: microsecondsPerFrame, latencyFrames: latencyFrames)
        let state = session.capture()
        let beat = state.beat(at: heard.start, quantum: quantum)
        let reading = (tempo: state.tempo, beat: beat, isPlaying: state.isPlaying)
        return bridged(reading, phase: state.phase(at: heard.start, quantum: quantum), source: source, heard: heard.start,
                       microsecondsPerFrame: microsecondsPerFrame, pulsesPerBeat: pulsesPerBeat)
    }

    /// `commit(following:)`'s rules on what the session said.
    @usableFromInline @_noLocks @_noAllocation
    mutating func bridged(_ session: (tempo: Double, beat: Double, isPlaying: Bool), phase: Double, source: TimelinePosition,
                          heard: Int64, microsecondsPerFrame: Double, pulsesPerBeat: Int64) -> SessionCommit? {
        tempo = session.tempo
        self.phase = phase
        // The filter's rate, not the period's: Link's tempo is in its clock's
        // minutes, and one period's µs per frame jitters with the wake-ups.
        let rate = _unsafePerformance { filter.microsecondsPerFrame } ?? microsecondsPerFrame
        return bridge.commit(following: source, pulsesPerBeat: pulsesPerBeat, heard: heard, microsecondsPerFrame: rate,
                             session: session, quantum: quantum, sharesStartStop: sharesStartStop)
    }
}
