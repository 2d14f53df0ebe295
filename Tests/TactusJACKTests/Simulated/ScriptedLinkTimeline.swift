import TactusLink

/// A Link timeline as Link 3 keeps it (ableton/link/Timeline.hpp, Tempo.hpp,
/// Beats.hpp): a tempo, and the beat `beatOrigin` at the time `timeOrigin`.
/// Beats are whole micro-beats, times whole µs, a tempo goes between peers
/// as whole µs a beat, and every conversion rounds as Link's does (`llround`),
/// so the scripted session answers what Link would, to the micro-beat.
struct ScriptedTimeline: Equatable {
    var bpm: Double
    /// Micro-beats (Link's `Beats`).
    var beatOrigin: Int64
    /// µs on Link's clock (here the simulated loop's host time).
    var timeOrigin: Int64

    /// `std::llround`: to nearest, half away from zero.
    static func llround(_ x: Double) -> Int64 { Int64(x.rounded(.toNearestOrAwayFromZero)) }
    /// `Beats(double)`: micro-beats.
    static func microBeats(_ beats: Double) -> Int64 { llround(beats * 1e6) }
    static func beats(_ microBeats: Int64) -> Double { Double(microBeats) / 1e6 }

    /// `Tempo::microsPerBeat`.
    var microsPerBeat: Int64 { Self.llround(60 * 1e6 / bpm) }
    /// The tempo as a peer receives it (`Tempo(microsPerBeat)`).
    var sent: ScriptedTimeline { ScriptedTimeline(bpm: 60 * 1e6 / Double(microsPerBeat), beatOrigin: beatOrigin, timeOrigin: timeOrigin) }

    /// `Timeline::toBeats`.
    func toBeats(_ time: Int64) -> Int64 {
        beatOrigin + Self.microBeats(Double(time - timeOrigin) / Double(microsPerBeat))
    }

    /// `Timeline::fromBeats`.
    func fromBeats(_ beats: Int64) -> Int64 {
        timeOrigin + Self.llround(Self.beats(beats - beatOrigin) * Double(microsPerBeat))
    }

    /// `clampTempo`: Link keeps a tempo within 20–999 BPM.
    static func clamped(_ bpm: Double) -> Double { min(max(bpm, 20), 999) }

    // Phase.hpp, in micro-beats.

    static func phase(_ beats: Int64, _ quantum: Int64) -> Int64 {
        guard quantum != 0 else { return 0 }
        let bins = (abs(beats) + quantum) / quantum
        return (beats + bins * quantum) % quantum
    }

    static func nextPhaseMatch(_ x: Int64, _ target: Int64, _ quantum: Int64) -> Int64 {
        x + (phase(target, quantum) - phase(x, quantum) + quantum) % quantum
    }

    static func closestPhaseMatch(_ x: Int64, _ target: Int64, _ quantum: Int64) -> Int64 {
        nextPhaseMatch(x - microBeats(0.5 * beats(quantum)), target, quantum)
    }

    /// `toPhaseEncodedBeats`: this peer's beat at `time`, with the session's
    /// phase (the phase of the beats since `beatOrigin`, the session's beat 0).
    func phaseEncodedBeats(at time: Int64, quantum: Int64) -> Int64 {
        let beat = toBeats(time)
        return Self.closestPhaseMatch(beat, beat - beatOrigin, quantum)
    }

    /// `fromPhaseEncodedBeats`.
    func time(atPhaseEncodedBeat beat: Int64, quantum: Int64) -> Int64 {
        let fromOrigin = beat - beatOrigin
        let originOffset = fromOrigin - Self.phase(fromOrigin, quantum)
        let inversePhaseOffset = Self.closestPhaseMatch(quantum - Self.phase(fromOrigin, quantum), quantum - Self.phase(beat, quantum), quantum)
        return fromBeats(beatOrigin + originOffset + quantum - inversePhaseOffset)
    }

    /// `shiftClientTimeline`.
    func shifted(by shift: Int64) -> ScriptedTimeline {
        var t = self
        t.timeOrigin -= fromBeats(shift) - fromBeats(0)
        return t
    }

    /// `updateClientTimelineFromSession` (every peer's ghost time is the host's
    /// here): this peer's beat continues at `time` at the session's tempo, its
    /// origin moved to the session's beat 0.
    func following(_ session: ScriptedTimeline, at time: Int64) -> ScriptedTimeline {
        let continued = ScriptedTimeline(bpm: session.bpm, beatOrigin: toBeats(time), timeOrigin: time)
        let beatZero = session.fromBeats(0)
        return ScriptedTimeline(bpm: session.bpm, beatOrigin: continued.toBeats(beatZero), timeOrigin: beatZero)
    }

    /// `updateSessionTimelineFromClient`: the session after a peer committed
    /// `client` at `time`.
    func updated(from client: ScriptedTimeline, at time: Int64) -> ScriptedTimeline {
        if toBeats(client.timeOrigin) == 0 && client.bpm == bpm { return self }
        let pivot = ScriptedTimeline(bpm: client.bpm, beatOrigin: 0, timeOrigin: client.timeOrigin)
        let newBeatOrigin = max(toBeats(time), beatOrigin + 1)
        return ScriptedTimeline(bpm: client.bpm, beatOrigin: newBeatOrigin, timeOrigin: pivot.fromBeats(newBeatOrigin))
    }
}

/// One cycle's copy of the scripted session (Link's `SessionState`,
/// Link.ipp): what `LinkTimeline` reads and changes, then commits.
struct ScriptedLinkState: LinkSessionState {
    var timeline: ScriptedTimeline
    var playing: Bool
    var playingTime: Int64
    /// Link respects the quantum in `requestBeatAtTime` while it has peers.
    let respectsQuantum: Bool
    /// As captured, to tell what a commit changed.
    let original: (timeline: ScriptedTimeline, playing: Bool, playingTime: Int64)

    init(timeline: ScriptedTimeline, playing: Bool, playingTime: Int64, respectsQuantum: Bool) {
        self.timeline = timeline
        self.playing = playing
        self.playingTime = playingTime
        self.respectsQuantum = respectsQuantum
        original = (timeline, playing, playingTime)
    }

    var tempo: Double { timeline.bpm }

    mutating func setTempo(_ bpm: Double, at microseconds: Int64) {
        let desired = ScriptedTimeline(bpm: ScriptedTimeline.clamped(bpm), beatOrigin: timeline.toBeats(microseconds), timeOrigin: microseconds)
        timeline.bpm = desired.bpm
        timeline.timeOrigin = desired.fromBeats(timeline.beatOrigin)
    }

    func beat(at microseconds: Int64, quantum: Double) -> Double {
        ScriptedTimeline.beats(timeline.phaseEncodedBeats(at: microseconds, quantum: ScriptedTimeline.microBeats(quantum)))
    }

    func phase(at microseconds: Int64, quantum: Double) -> Double {
        let q = ScriptedTimeline.microBeats(quantum)
        return ScriptedTimeline.beats(ScriptedTimeline.phase(ScriptedTimeline.microBeats(beat(at: microseconds, quantum: quantum)), q))
    }

    func time(atBeat beat: Double, quantum: Double) -> Int64 {
        timeline.time(atPhaseEncodedBeat: ScriptedTimeline.microBeats(beat), quantum: ScriptedTimeline.microBeats(quantum))
    }

    mutating func requestBeat(_ beat: Double, at microseconds: Int64, quantum: Double) {
        var time = microseconds
        if respectsQuantum {
            let q = ScriptedTimeline.microBeats(quantum)
            let next = ScriptedTimeline.nextPhaseMatch(ScriptedTimeline.microBeats(self.beat(at: time, quantum: quantum)),
                                                       ScriptedTimeline.microBeats(beat), q)
            time = self.time(atBeat: ScriptedTimeline.beats(next), quantum: quantum)
        }
        forceBeat(beat, at: time, quantum: quantum)
    }

    /// `forceBeatAtTime`: a phase shift, then the beat's magnitude.
    mutating func forceBeat(_ beat: Double, at time: Int64, quantum: Double) {
        let q = ScriptedTimeline.microBeats(quantum), wanted = ScriptedTimeline.microBeats(beat)
        let current = ScriptedTimeline.microBeats(self.beat(at: time, quantum: quantum))
        let closest = ScriptedTimeline.closestPhaseMatch(current, wanted, q)
        timeline = timeline.shifted(by: closest - current)
        timeline.beatOrigin += wanted - closest
    }

    mutating func setPlaying(_ playing: Bool, at microseconds: Int64) {
        self.playing = playing
        playingTime = microseconds
    }

    mutating func setPlaying(_ playing: Bool, at microseconds: Int64, requestingBeat beat: Double, quantum: Double) {
        setPlaying(playing, at: microseconds)
        if playing { requestBeat(beat, at: microseconds, quantum: quantum) }
    }

    var isPlaying: Bool { playing }
    var timeForIsPlaying: Int64 { playingTime }
}
