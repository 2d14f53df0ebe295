/// What the real-time thread asks of an Ableton Link session, and only that:
/// Link's audio-thread API as `LinkTimeline` uses it. A session is a handle on
/// state that lives elsewhere (Link's own, or the deterministic tests' scripted
/// session): `capture` copies the session out as one cycle sees it, the cycle
/// changes that copy, and `commit` hands the changes back, as Link's
/// `captureAudioSessionState` and `commitAudioSessionState` do.
///
/// A generic parameter, never an existential: the JACK callback's call is
/// specialized for `LinkAudio` and dispatched statically, and the compiler's
/// real-time check (docs/DESIGN.md §2.2) follows it into `LinkAudio`'s bodies.
public protocol LinkAudioSession {
    associatedtype State: LinkSessionState
    /// The session state for this cycle.
    func capture() -> State
    /// Commits what this cycle changed in `state`, captured from this session.
    func commit(_ state: State)
}

/// One cycle's copy of the session (Link's `SessionState`): times are Link's
/// clock in µs (CLOCK_MONOTONIC_RAW on Linux), beats Link's beats, whose phase
/// over `quantum` is the session's.
public protocol LinkSessionState {
    /// The session's tempo (BPM).
    var tempo: Double { get }
    /// `bpm` from `microseconds` on, the beat there unchanged (Link's `setTempo`).
    mutating func setTempo(_ bpm: Double, at microseconds: Int64)
    /// The beat at `microseconds`, with the session's phase over `quantum` (`beatAtTime`).
    func beat(at microseconds: Int64, quantum: Double) -> Double
    /// The session's phase over `quantum` at `microseconds`, in [0, quantum) (`phaseAtTime`).
    func phase(at microseconds: Int64, quantum: Double) -> Double
    /// When beat `beat` is, with the session's phase over `quantum` (`timeAtBeat`).
    func time(atBeat beat: Double, quantum: Double) -> Int64
    /// Beat `beat` at `microseconds`: at once alone in the session, else at the
    /// next time with the same phase (Link's quantized launch, `requestBeatAtTime`).
    mutating func requestBeat(_ beat: Double, at microseconds: Int64, quantum: Double)
    /// Beat `beat` at `microseconds`, with or without peers (`forceBeatAtTime`,
    /// which Link keeps for syncing a session to an external clock: docs/DESIGN.md §9).
    mutating func forceBeat(_ beat: Double, at microseconds: Int64, quantum: Double)
    /// The session plays (or stops) from `microseconds` (`setIsPlaying`).
    mutating func setPlaying(_ playing: Bool, at microseconds: Int64)
    /// `setPlaying`, and beat `beat` at the start's time if it starts
    /// (`setIsPlayingAndRequestBeatAtTime`).
    mutating func setPlaying(_ playing: Bool, at microseconds: Int64, requestingBeat beat: Double, quantum: Double)
    /// Whether the session plays, and from (or until) when (`isPlaying`, `timeForIsPlaying`).
    var isPlaying: Bool { get }
    var timeForIsPlaying: Int64 { get }
}
