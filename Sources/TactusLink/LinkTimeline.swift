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
/// calls out are Link's audio-thread API, through the `LinkAudioSession` it is
/// given each cycle (`LinkAudio` on a server, a scripted session in the
/// deterministic tests).
public struct LinkTimeline: BitwiseCopyable {
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
    public internal(set) var tempo: Double = 0
    public internal(set) var phase: Double = 0
    /// Commits made (tempo or transport changes sent to the session).
    public private(set) var commits = 0
    /// Tempo changes that came from the session, not from this cycle's commits:
    /// a peer's (or Link's clamp of ours to its 20–999 BPM).
    public private(set) var peerTempoChanges = 0
    /// With a followed source (`LinkBridge`): what it commits to the session.
    public var bridge = LinkBridge()

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
    public init(quantum: Double, sharesStartStop: Bool, tempo: Double = 0) {
        self.quantum = quantum
        self.sharesStartStop = sharesStartStop
        self.tempo = tempo
    }

    /// One cycle on `session`: the block of `frames` from engine frame `frame`,
    /// whose first frame JACK timed at `hostMicroseconds` (Link's clock) with
    /// `microsecondsPerFrame`, heard `latencyFrames` later; `requests` what the
    /// player asked since the last cycle; `pulsesPerBeat` the meter's beat;
    /// `alone`: no other peer in the session (the control thread counts them).
    ///
    /// It commits only what changes the session: the player's tempo, a shared
    /// start or stop, and a start alone in the session (beat 0 now). Joining
    /// peers needs no commit: Link's quantized launch would only move this
    /// peer's own beat count to the next bar line, which `nextBarLine` does.
    /// (Link's commit wakes its thread with `pthread_cond_signal`.)
    ///
    /// Only Link's calls are here, generic over the session; the rules are in
    /// the functions it calls, which carry the real-time check themselves.
    /// Inlinable, so the JACK callback's call is specialized for `LinkAudio` in
    /// its module, where the check follows it (a generic body is checked
    /// there, as specialized, docs/DESIGN.md §2.2).
    @inlinable
    public mutating func position<Session: LinkAudioSession>(
        of session: Session, frame: Int64, frames: Int, hostMicroseconds: Double, microsecondsPerFrame: Double,
        latencyFrames: Int, pulsesPerBeat: Int64, alone: Bool, requests: TimeSourceRequests
    ) -> TimelinePosition {
        let heard = heardTimes(frame: frame, frames: frames, hostMicroseconds: hostMicroseconds,
                               microsecondsPerFrame: microsecondsPerFrame, latencyFrames: latencyFrames)
        var state = session.capture()
        let asked = changes(answering: requests, capturedTempo: state.tempo, start: heard.start, alone: alone, pulsesPerBeat: pulsesPerBeat)
        // The engine's own step pivots on its bar line's time (the beat there kept,
        // Link's `setTempo`), which the engine reached a block or more early.
        if let bpm = asked.tempo { state.setTempo(bpm, at: asked.tempoBeat.map { state.time(atBeat: $0, quantum: quantum) } ?? heard.start) }
        if let playing = asked.playing {
            if playing { state.setPlaying(true, at: asked.playingAt, requestingBeat: 0, quantum: quantum) }
            else { state.setPlaying(false, at: asked.playingAt) }
        }
        if asked.beatZeroNow { state.requestBeat(0, at: heard.start, quantum: quantum) }
        if asked.commits { session.commit(state) }
        let reading = LinkReading(first: state.beat(at: heard.start, quantum: quantum), last: state.beat(at: heard.end, quantum: quantum),
                                  tempo: state.tempo, phase: state.phase(at: heard.start, quantum: quantum), isPlaying: state.isPlaying,
                                  startStopBeat: sharesStartStop ? state.beat(at: state.timeForIsPlaying, quantum: quantum) : 0)
        return advance(reading, frames: frames, pulsesPerBeat: pulsesPerBeat)
    }

    /// The block's first frame and one past its last, in Link's µs where they
    /// are heard: `latencyFrames` after JACK's frames, on the filter's line.
    @usableFromInline @_noLocks @_noAllocation
    mutating func heardTimes(frame: Int64, frames: Int, hostMicroseconds: Double, microsecondsPerFrame: Double,
                             latencyFrames: Int) -> (start: Int64, end: Int64) {
        // A cycle far off the filter's line is a new line, not jitter: the first
        // sounding cycle after the dry run and the gate (the frame continues where
        // the dry run ended, the time does not), a server back after a loss. The
        // filter would hold its old line for a few cycles to confirm it, and the
        // beat would jump twice; start it afresh instead.
        if let predicted = filter.microseconds(atFrame: frame), abs(predicted - hostMicroseconds) > Self.newLine {
            filter = FrameTimeFilter()
        }
        filter.update(frame: frame, microseconds: hostMicroseconds, microsecondsPerFrame: microsecondsPerFrame)
        let heard = frame + Int64(latencyFrames)
        // Link's clock counts whole µs; host times are positive, so + 0.5 rounds.
        let start = Int64((filter.microseconds(atFrame: heard) ?? hostMicroseconds) + 0.5)
        let end = Int64((filter.microseconds(atFrame: heard + Int64(frames)) ?? hostMicroseconds + Double(frames) * microsecondsPerFrame) + 0.5)
        return (start, end)
    }

    /// What this cycle changes in the session, from the player's `requests`
    /// and the tempo the session was captured at (`capturedTempo`, a peer's
    /// change counted here); the block is heard from `start` (µs). An engine's
    /// own tempo takes effect on the beat of its song pulse (`tempoBeat`).
    @usableFromInline @_noLocks @_noAllocation
    mutating func changes(answering requests: TimeSourceRequests, capturedTempo: Double, start: Int64, alone: Bool,
                          pulsesPerBeat: Int64) -> LinkSessionChanges {
        // Link sends a tempo as whole µs a beat: a change below the engine's
        // 0.01 BPM is that rounding coming back, not a peer's change.
        if tempo != 0 && abs(capturedTempo - tempo) >= 0.005 { peerTempoChanges += 1 }
        var asked = LinkSessionChanges()
        if let bpm = requests.tempo {
            asked.tempo = bpm.value
            if let pulse = requests.tempoSongPulse, let startBeat, running {
                asked.tempoBeat = startBeat + Double(pulse) / Double(max(pulsesPerBeat, 1))
            }
        }
        if let wanted = requests.running {
            if sharesStartStop {
                // With peers, the start or stop is the session's from a time the
                // peers learn of early enough: a bar line nearer than a message's
                // trip (a few ms, more on a loaded machine) would pass on a peer
                // before it hears of it, and that peer would start or stop a bar
                // after this one. So the bar line chosen is the first one
                // `sharedLead` after the request.
                asked.playing = wanted
                asked.playingAt = alone ? start : start + Self.sharedLead
            } else if wanted != running {
                running = wanted
                asked.beatZeroNow = wanted && alone
                startBeat = nil
                stopBeat = nil
            }
        }
        if asked.commits { commits += 1 }
        return asked
    }

    /// The block's position from what the session says where it is heard:
    /// the shared transport followed, song position 0 chosen on a bar line,
    /// a stop's bar line passed.
    @usableFromInline @_noLocks @_noAllocation
    mutating func advance(_ reading: LinkReading, frames: Int, pulsesPerBeat: Int64) -> TimelinePosition {
        let first = reading.first, last = reading.last
        tempo = reading.tempo
        phase = reading.phase
        // Half a frame in beats: a bar line computed a hair after the block's first frame is that frame.
        let halfFrame = (last - first) / Double(2 * max(frames, 1))
        if sharesStartStop { followSharedTransport(reading, halfFrame: halfFrame) }
        if running && startBeat == nil { startBeat = nextBarLine(atOrAfter: first - halfFrame) }
        if let stop = stopBeat, last > stop {
            running = false
            startBeat = nil
            stopBeat = nil
        }
        guard running, let zero = startBeat, last > zero, last > first else {
            return TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0)
        }
        let pulses = Double(pulsesPerBeat)
        let songPulse = (first - zero) * pulses, framesPerPulse = Double(frames) / ((last - first) * pulses)
        // The one call the checker cannot follow: BPM's rounding initializer
        // (`rounded()`'s rounding rule is metadata to it); plain arithmetic.
        let sessionTempo = tempo
        let bpm = _unsafePerformance { BPM(sessionTempo) }
        return TimelinePosition(rolling: true, songPulse: songPulse, framesPerPulse: framesPerPulse, tempo: bpm)
    }

    /// The session's start/stop state, shared: a start plays from the next bar
    /// line, a stop ends the song on the next bar line after the stop's time.
    @_noLocks @_noAllocation
    mutating func followSharedTransport(_ reading: LinkReading, halfFrame: Double) {
        let first = reading.first
        if reading.isPlaying && (!running || stopBeat != nil) {
            if !running {
                // The start's bar line, if it is not behind this block yet (a peer's
                // start reaches this one a few ms after it was given); else the next.
                let line = nextBarLine(atOrAfter: reading.startStopBeat - halfFrame)
                startBeat = line >= first - halfFrame ? line : nil
            }
            running = true
            stopBeat = nil
        } else if !reading.isPlaying && running && stopBeat == nil {
            stopBeat = nextBarLine(atOrAfter: max(reading.startStopBeat, first) - halfFrame)
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

/// What one cycle changes in the session (`LinkTimeline.changes`): the
/// player's tempo, a shared start or stop and its time, beat 0 now for a
/// start alone in the session.
@usableFromInline
struct LinkSessionChanges: BitwiseCopyable {
    @usableFromInline var tempo: Double?
    @usableFromInline var playing: Bool?
    @usableFromInline var playingAt: Int64 = 0
    @usableFromInline var beatZeroNow = false
    /// The beat an engine's own tempo pivots on (nil: where the block is heard).
    @usableFromInline var tempoBeat: Double?
    /// Something to commit.
    @usableFromInline var commits: Bool { tempo != nil || playing != nil || beatZeroNow }

    @usableFromInline init() {}
}

/// What the session says where one block is heard: the beats at its first
/// frame and one past its last, the tempo and the phase at the first, and the
/// shared start/stop state with the beat of its time (0 without sharing).
@usableFromInline
struct LinkReading: BitwiseCopyable {
    @usableFromInline var first: Double
    @usableFromInline var last: Double
    @usableFromInline var tempo: Double
    @usableFromInline var phase: Double
    @usableFromInline var isPlaying: Bool
    @usableFromInline var startStopBeat: Double

    @usableFromInline
    init(first: Double, last: Double, tempo: Double, phase: Double, isPlaying: Bool, startStopBeat: Double) {
        self.first = first
        self.last = last
        self.tempo = tempo
        self.phase = phase
        self.isPlaying = isPlaying
        self.startStopBeat = startStopBeat
    }
}
