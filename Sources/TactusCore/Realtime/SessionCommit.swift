/// What a followed time source (the incoming MIDI clock, a JACK timebase
/// master's BBT) asks of the Ableton Link session it is published to
/// (docs/DESIGN.md §9, §11.3): the session's tempo and, while the source
/// rolls, its beat at one time of Link's clock, and with `--link-start-stop`
/// its start/stop state. The cycle decides it (`LinkBridge`) and hands it to
/// the control thread as a `CycleEvent`, which commits it with Link's
/// application-thread API: Link's audio-thread commit signals a condition
/// variable (`pthread_cond_signal`, a lock inside glibc), which a source that
/// moves the session at every tempo it measures must not do in the cycle.
/// Plain values: it crosses the real-time boundary through the events ring.
public struct SessionCommit: Sendable, BitwiseCopyable, Equatable {
    /// The session's tempo from `microseconds` on (BPM of Link beats, one a beat of the meter).
    public var tempo: Double
    /// Link's clock (µs): where the block whose source position is `beat` is heard.
    public var microseconds: Int64
    /// The source's song position in beats: the session's beat at `microseconds`
    /// (nil while the source stands still: the tempo alone is committed).
    public var beat: Double?
    /// Link's quantum: song position 0, and every bar, is a bar line of the session.
    public var quantum: Double
    /// The session's start/stop state (with `--link-start-stop`; nil: left as it is).
    public var playing: Bool?

    /// Made in the JACK cycle (`LinkBridge`), whose module is always checked.
    @_noLocks @_noAllocation
    public init(tempo: Double, microseconds: Int64, beat: Double?, quantum: Double, playing: Bool?) {
        self.tempo = tempo
        self.microseconds = microseconds
        self.beat = beat
        self.quantum = quantum
        self.playing = playing
    }
}
