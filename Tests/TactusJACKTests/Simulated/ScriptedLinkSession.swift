import TactusLink

/// An Ableton Link session without the network, for the simulated process
/// loop: the session's timeline in host µs (its tempo and the time of its
/// beat 0, so its bar lines are every `quantum` beats from there), this
/// peer's timeline and start/stop state, and the other peers' changes at
/// chosen host times. `capture` and `commit` are Link 3's audio-thread API
/// with Link's own arithmetic (`ScriptedTimeline`, `ScriptedLinkState`):
///
/// * a peer's tempo change at a time keeps the session's beat there
///   continuous (the peer's `setTempo` and commit), and reaches this peer at
///   the time it is heard (Link's thread then continues this peer's beat at
///   the new tempo, `updateClientTimelineFromSession`);
/// * a peer's start or stop is the session's at a beat; with start/stop
///   sync (`sharesStartStop`) this peer takes it, at that beat's time;
/// * alone (`peers` 0), a request for a beat takes effect at once; with
///   peers, at the next time of the same phase (Link's quantized launch);
/// * this peer's commit of a timeline changes the session at the commit's
///   time (`updateSessionTimelineFromClient`), and hides the peers' changes
///   from its captures for a second (Link's `kLocalModGracePeriod`).
///
/// Every peer here reads the same clock (Link's ghost time is the host's).
/// Test code: a class, so the cycle's copies of the handle share one session.
final class ScriptedLinkSession: LinkAudioSession {
    /// A start/stop state as a peer holds it: playing or not from `time`,
    /// given at `timestamp` (the newer one wins, `selectPreferredStartStopState`).
    struct StartStop: Equatable { var playing: Bool, time: Int64, timestamp: Int64 }
    /// A commit of this peer, as the session took it.
    struct Commit { var at: Int64, tempo: Double, startStop: StartStop }

    /// Link's `kLocalModGracePeriod` (Controller.hpp): 1 s.
    static let localChangeGrace: Int64 = 1_000_000

    /// Link's clock now: the simulated loop sets it to each cycle's time
    /// (the cycle captures and commits at its wake-up).
    var now: Int64 = 0
    /// The other peers (the control thread's count, which the cycle reads as `alone`).
    var peers: Int
    /// `enableStartStopSync`.
    let sharesStartStop: Bool
    /// The session's timeline and start/stop state (in session beats).
    private(set) var session: ScriptedTimeline { didSet { history.append((now, session)) } }
    /// Every timeline the session had, from the `now` it took it at.
    private(set) var history: [(from: Int64, timeline: ScriptedTimeline)] = []
    private(set) var sessionPlaying: (playing: Bool, beats: Int64, timestamp: Int64) = (false, 0, 0)
    /// This peer's timeline and start/stop state on Link's thread.
    private(set) var client: ScriptedTimeline
    private(set) var clientStartStop = StartStop(playing: false, time: 0, timestamp: 0)
    /// The real-time thread's cached copies and when it last changed them.
    private var realtime: (timeline: ScriptedTimeline, startStop: StartStop)
    private var changed: (timeline: Int64, startStop: Int64) = (.min / 2, .min / 2)
    /// The peers' changes, each applied once `now` reaches the time it is heard.
    private var pending: [(heard: Int64, apply: (ScriptedLinkSession) -> Void)] = []
    private(set) var commits: [Commit] = []
    private(set) var captures = 0

    /// A session at `tempo` whose beat 0 is at `beatZero` (µs), with `peers`
    /// other peers; this peer's beats count from `beatZero` as
    /// `beatMagnitude` (Link shares the phase, not the beat's magnitude).
    init(tempo: Double, beatZero: Int64, peers: Int, sharesStartStop: Bool = false, beatMagnitude: Double = 0) {
        self.peers = peers
        self.sharesStartStop = sharesStartStop
        session = ScriptedTimeline(bpm: tempo, beatOrigin: 0, timeOrigin: beatZero)
        history = [(.min, session)]
        client = ScriptedTimeline(bpm: tempo, beatOrigin: ScriptedTimeline.microBeats(beatMagnitude), timeOrigin: beatZero)
        realtime = (client, clientStartStop)
    }

    // MARK: The session as the tests read it

    /// The session's bar line at or after `time` (µs): its beats every `quantum` from beat 0.
    func barLine(atOrAfter time: Int64, quantum: Double = 4) -> Int64 {
        let q = ScriptedTimeline.microBeats(quantum)
        let beat = session.toBeats(time)
        let bar = ScriptedTimeline.nextPhaseMatch(beat, 0, q)
        var line = session.fromBeats(bar)
        if line < time { line = session.fromBeats(bar + q) }
        return line
    }

    /// The session's beat (µs) at `time`, in session beats.
    func sessionBeat(at time: Int64) -> Double { ScriptedTimeline.beats(session.toBeats(time)) }
    /// The session's beat at `time` on the timeline it had then (the last one taken by `time`).
    func sessionBeatInForce(at time: Int64) -> (beat: Double, bpm: Double) {
        let timeline = history.last { $0.from <= time }?.timeline ?? session
        return (ScriptedTimeline.beats(timeline.toBeats(time)), timeline.bpm)
    }
    func time(atSessionBeat beat: Double) -> Int64 { session.fromBeats(ScriptedTimeline.microBeats(beat)) }

    // MARK: What other peers do

    /// A peer sets `bpm` at `time` (its `setTempo` at that time, committed then):
    /// the session's beat continuous there. This peer hears of it at `heard`
    /// (its Link thread then takes the session's timeline at that time).
    func peerSetsTempo(_ bpm: Double, at time: Int64, heard: Int64? = nil) {
        pending.append((heard ?? time, { s in
            var peer = ScriptedLinkState(timeline: ScriptedTimeline(bpm: s.session.bpm, beatOrigin: 0, timeOrigin: s.session.fromBeats(0)),
                                         playing: false, playingTime: 0, respectsQuantum: true)
            peer.setTempo(bpm, at: time)
            s.session = s.session.updated(from: peer.timeline, at: time).sent
            s.client = s.client.following(s.session, at: heard ?? time)
        }))
    }

    /// A peer starts or stops the session at session beat `beat`, given at
    /// `time`; this peer hears of it at `heard`, and takes it with start/stop sync.
    func peerSetsPlaying(_ playing: Bool, atSessionBeat beat: Double, at time: Int64, heard: Int64? = nil) {
        pending.append((heard ?? time, { s in
            s.sessionPlaying = (playing, ScriptedTimeline.microBeats(beat), time)
            guard s.sharesStartStop else { return }
            let incoming = StartStop(playing: playing, time: s.session.fromBeats(ScriptedTimeline.microBeats(beat)), timestamp: time)
            if incoming.timestamp > s.clientStartStop.timestamp { s.clientStartStop = incoming }
        }))
    }

    /// The peers' changes heard by `now`, in the order they are heard.
    private func deliver() {
        pending.sort { $0.heard < $1.heard }
        while let first = pending.first, first.heard <= now {
            pending.removeFirst()
            first.apply(self)
        }
    }

    // MARK: LinkAudioSession

    func capture() -> ScriptedLinkState {
        captures += 1
        deliver()
        // `clientStateRtSafe`: Link's thread's state, but what this peer's own
        // commit changed for a second after it.
        if now - changed.timeline > Self.localChangeGrace { realtime.timeline = client }
        if now - changed.startStop > Self.localChangeGrace { realtime.startStop = clientStartStop }
        return ScriptedLinkState(timeline: realtime.timeline, playing: realtime.startStop.playing,
                                 playingTime: realtime.startStop.time, respectsQuantum: peers > 0)
    }

    func commit(_ state: ScriptedLinkState) {
        if state.timeline != state.original.timeline {
            var timeline = state.timeline
            timeline.bpm = ScriptedTimeline.clamped(timeline.bpm)
            realtime.timeline = timeline
            changed.timeline = now
            client = timeline
            session = session.updated(from: timeline, at: now)
        }
        if state.playing != state.original.playing || state.playingTime != state.original.playingTime {
            let incoming = StartStop(playing: state.playing, time: state.playingTime, timestamp: now)
            if incoming.timestamp > realtime.startStop.timestamp {
                realtime.startStop = incoming
                changed.startStop = now
                clientStartStop = incoming
                if sharesStartStop { sessionPlaying = (incoming.playing, session.toBeats(incoming.time), now) }
            }
        }
        commits.append(Commit(at: now, tempo: realtime.timeline.bpm, startStop: realtime.startStop))
    }

    // MARK: Link's application-thread API (the control thread's)

    /// `captureAppSessionState`: Link's thread's state as it is now.
    func captureApp() -> ScriptedLinkState {
        deliver()
        return ScriptedLinkState(timeline: client, playing: clientStartStop.playing, playingTime: clientStartStop.time, respectsQuantum: peers > 0)
    }

    /// `commitAppSessionState`: this peer's state and the session changed at
    /// `now`; no grace is kept for the real-time thread's captures (Link keeps
    /// one only after a real-time commit), so its next capture sees it, and
    /// a peer's change after it, at once.
    func commitApp(_ state: ScriptedLinkState) {
        if state.timeline != state.original.timeline {
            var timeline = state.timeline
            timeline.bpm = ScriptedTimeline.clamped(timeline.bpm)
            client = timeline
            session = session.updated(from: timeline, at: now)
        }
        if state.playing != state.original.playing || state.playingTime != state.original.playingTime {
            let incoming = StartStop(playing: state.playing, time: state.playingTime, timestamp: now)
            if incoming.timestamp > clientStartStop.timestamp {
                clientStartStop = incoming
                if sharesStartStop { sessionPlaying = (incoming.playing, session.toBeats(incoming.time), now) }
            }
        }
        commits.append(Commit(at: now, tempo: client.bpm, startStop: clientStartStop))
    }
}
