import TactusCore

/// Ableton Link as the engine's time source (docs/DESIGN.md §8.3, §11): once a
/// cycle, the session's beat at the time this block is *heard* becomes a
/// `TimelinePosition`, and the player's tempo and start/stop go to the session.
///
/// * The block's host time: JACK's cycle times (jack2: CLOCK_MONOTONIC_RAW, Link's
///   clock on Linux) through a `FrameTimeFilter`, so one late wake-up moves no
///   beat; the block is heard `latencyFrames` later (the `click` port's JACK
///   playback latency), and the session's beat is read at that time.
/// * Song position 0 is a bar line of the session (a beat where the phase over
///   the quantum is 0): the start waits for the next one, so joining a running
///   session starts on its bar line (the count-in rule of Link apps); alone in
///   the session, a start asks Link for beat 0 now and starts at once.
/// * The player's tempo is set at the block's heard time and committed from
///   the cycle that took it; a peer's tempo arrives in the captured state and
///   bends the block's frames per pulse, with the beat continuous (Link keeps
///   the beat where the tempo changed).
/// * With start/stop shared, a start or stop is the session's: a peer's stop
///   ends the song on the next bar line after it, a start begins on a bar line.
///
/// A plain value for the process callback: no allocation, no lock; the only
/// calls out are Link's audio-thread API (`LinkAudio`).
public struct LinkTimeline: BitwiseCopyable {
    public let link: LinkAudio
    /// Link's quantum in beats (`--link-quantum`, default the beats of a bar).
    public let quantum: Double
    /// `--link-start-stop`.
    public let sharesStartStop: Bool
    var filter = FrameTimeFilter()
    /// The player's transport (or, sharing start/stop, the session's).
    public private(set) var running = false
    /// Song position 0 in session beats, once a start chose its bar line.
    public private(set) var startBeat: Double?
    /// The bar line a shared stop ends the song on.
    public private(set) var stopBeat: Double?
    /// The session's tempo and the phase where the last block is heard (for the status).
    public private(set) var tempo: Double = 0
    public private(set) var phase: Double = 0
    /// Commits made (tempo or transport changes sent to the session).
    public private(set) var commits = 0
    /// Tempo changes that came from the session, not from this cycle's commits:
    /// a peer's (or Link's clamp of ours to its 20–999 BPM).
    public private(set) var peerTempoChanges = 0

    /// How much later than a shared start or stop (µs) its bar line may be,
    /// at the least, with peers in the session: 50 ms.
    static let sharedLead: Int64 = 50_000

    /// How far (µs) a cycle's time may lie off the filter's line before it
    /// starts a new one: 20 ms, far beyond jack2's disturbed cycles after an
    /// xrun (a few ms, which the filter's own gate holds out).
    static let newLine = 20_000.0

    /// `tempo`: the one this peer joined with (`LinkSession(tempo:)`), so that a
    /// session found at another tempo is counted as a peer's change from the
    /// first cycle, and said (0: none, the first capture is taken as it is).
    public init(link: LinkAudio, quantum: Double, sharesStartStop: Bool, tempo: Double = 0) {
        self.link = link
        self.quantum = quantum
        self.sharesStartStop = sharesStartStop
        self.tempo = tempo
    }

    /// One cycle: the block of `frames` from engine frame `frame`, whose first
    /// frame JACK timed at `hostMicroseconds` (Link's clock) with
    /// `microsecondsPerFrame`, heard `latencyFrames` later; `requests` what the
    /// player asked since the last cycle; `pulsesPerBeat` the meter's beat;
    /// `alone`: no other peer in the session (the control thread counts them).
    ///
    /// It commits only what changes the session: the player's tempo, a shared
    /// start or stop, and a start alone in the session (beat 0 now). Joining
    /// peers needs no commit: Link's quantized launch would only move this
    /// peer's own beat count to the next bar line, which `nextBarLine` does.
    /// (Link's commit wakes its thread with `pthread_cond_signal`.)
    @_noLocks @_noAllocation
    public mutating func position(frame: Int64, frames: Int, hostMicroseconds: Double, microsecondsPerFrame: Double,
                                  latencyFrames: Int, pulsesPerBeat: Int64, alone: Bool, requests: TimeSourceRequests) -> TimelinePosition {
        // A cycle far off the filter's line is a new line, not jitter: the first
        // sounding cycle after the dry run and the gate (the frame continues where
        // the dry run ended, the time does not), a server back after a loss. The
        // filter would hold its old line for a few cycles to confirm it, and the
        // beat would jump twice; start it afresh instead.
        if let predicted = _unsafePerformance({ filter.microseconds(atFrame: frame) }),
           abs(predicted - hostMicroseconds) > Self.newLine {
            filter = _unsafePerformance { FrameTimeFilter() }
        }
        _ = _unsafePerformance { filter.update(frame: frame, microseconds: hostMicroseconds, microsecondsPerFrame: microsecondsPerFrame) }
        let heard = frame + Int64(latencyFrames)
        // Link's clock counts whole µs; host times are positive, so + 0.5 rounds.
        let start = Int64((_unsafePerformance { filter.microseconds(atFrame: heard) } ?? hostMicroseconds) + 0.5)
        let end = Int64((_unsafePerformance { filter.microseconds(atFrame: heard + Int64(frames)) }
            ?? hostMicroseconds + Double(frames) * microsecondsPerFrame) + 0.5)
        let state = link.capture()
        let captured = state.tempo
        // Link sends a tempo as whole µs a beat: a change below the engine's
        // 0.01 BPM is that rounding coming back, not a peer's change.
        if tempo != 0 && abs(captured - tempo) >= 0.005 { peerTempoChanges += 1 }
        var changed = false
        if let bpm = requests.tempo {
            state.setTempo(_unsafePerformance { bpm.value }, at: start)
            changed = true
        }
        if let wanted = requests.running {
            if sharesStartStop {
                // With peers, the start or stop is the session's from a time the
                // peers learn of early enough: a bar line nearer than a message's
                // trip (a few ms, more on a loaded machine) would pass on a peer
                // before it hears of it, and that peer would start or stop a bar
                // after this one. So the bar line chosen is the first one
                // `sharedLead` after the request.
                let at = alone ? start : start + Self.sharedLead
                if wanted { state.setPlaying(true, at: at, requestingBeat: 0, quantum: quantum) } else { state.setPlaying(false, at: at) }
                changed = true
            } else if wanted != running {
                running = wanted
                if wanted && alone {
                    state.requestBeat(0, at: start, quantum: quantum)
                    changed = true
                }
                startBeat = nil
                stopBeat = nil
            }
        }
        if changed {
            link.commit()
            commits += 1
        }
        let first = state.beat(at: start, quantum: quantum)
        let last = state.beat(at: end, quantum: quantum)
        tempo = state.tempo
        phase = state.phase(at: start, quantum: quantum)
        // Half a frame in beats: a bar line computed a hair after the block's first frame is that frame.
        let halfFrame = (last - first) / Double(2 * max(frames, 1))
        if sharesStartStop { followSharedTransport(state, first: first, halfFrame: halfFrame) }
        if running && startBeat == nil { startBeat = nextBarLine(atOrAfter: first - halfFrame) }
        if let stop = stopBeat, last > stop {
            running = false
            startBeat = nil
            stopBeat = nil
        }
        guard running, let zero = startBeat, last > zero, last > first else {
            return _unsafePerformance { TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0) }
        }
        let pulses = Double(pulsesPerBeat)
        let songPulse = (first - zero) * pulses, framesPerPulse = Double(frames) / ((last - first) * pulses)
        // TactusCore's initializer: another module, out of the checker's sight.
        let sessionTempo = tempo
        return _unsafePerformance { TimelinePosition(rolling: true, songPulse: songPulse, framesPerPulse: framesPerPulse, tempo: BPM(sessionTempo)) }
    }

    /// The session's start/stop state, shared: a start plays from the next bar
    /// line, a stop ends the song on the next bar line after the stop's time.
    @_noLocks @_noAllocation
    mutating func followSharedTransport(_ state: LinkAudioState, first: Double, halfFrame: Double) {
        let playing = state.isPlaying
        if playing && (!running || stopBeat != nil) {
            if !running {
                // The start's bar line, if it is not behind this block yet (a peer's
                // start reaches this one a few ms after it was given); else the next.
                let line = nextBarLine(atOrAfter: state.beat(at: state.timeForIsPlaying, quantum: quantum) - halfFrame)
                startBeat = line >= first - halfFrame ? line : nil
            }
            running = true
            stopBeat = nil
        } else if !playing && running && stopBeat == nil {
            let stopTime = state.timeForIsPlaying
            stopBeat = nextBarLine(atOrAfter: max(state.beat(at: stopTime, quantum: quantum), first) - halfFrame)
        }
    }

    /// The first beat at or after `beat` whose phase over the quantum is 0 (Link
    /// shares the phase, not the beat's magnitude: every peer's bar lines fall
    /// on multiples of the quantum of its own beat count).
    @_noLocks @_noAllocation
    func nextBarLine(atOrAfter beat: Double) -> Double {
        guard quantum > 0 else { return beat }
        let bars = beat / quantum
        var whole = Double(Int64(bars))
        if whole < bars { whole += 1 }
        return whole * quantum
    }
}
