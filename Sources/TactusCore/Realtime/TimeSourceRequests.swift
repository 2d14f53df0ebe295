/// What the player asked for of what a time source owns (`SourceOwnership`,
/// docs/DESIGN.md §9): the tempo and start/stop go to the source, which decides
/// when they take effect, instead of bending the grid. Gathered by the engine
/// (the block's commands, the trainer's and a tempo map's steps in the
/// block before) and handed to the source by the next `Engine.cycle`: the one
/// channel from the player to the source, read once a cycle.
public struct TimeSourceRequests: Sendable, BitwiseCopyable, Equatable {
    /// The last tempo asked for (keys, taps, pressure, presets, trainer, map), if any.
    public private(set) var tempo: BPM?
    /// Where `tempo` takes effect when it is the engine's own: the song pulse of
    /// the trainer's bar line or of a map segment's first pulse, which the
    /// engine reaches in the block before (it looks one grid point ahead), so a
    /// source that places the change where it hears the request would move
    /// that bar line. Nil for the player's tempi: from where the source hears them.
    public private(set) var tempoSongPulse: Int64?
    /// The last transport command: true for Start or Continue, false for Stop.
    public var running: Bool?
    /// A tempo among them was the engine's own (the trainer's step, a tempo
    /// map's segment), which no key or hold announces to the player: a host
    /// whose source refuses it says so (`CycleEvent.engineTempoRefused`).
    public var enginesOwnTempo: Bool

    public init(tempo: BPM? = nil, tempoSongPulse: Int64? = nil, running: Bool? = nil, enginesOwnTempo: Bool = false) {
        self.tempo = tempo
        self.tempoSongPulse = tempoSongPulse
        self.running = running
        self.enginesOwnTempo = enginesOwnTempo
    }

    /// Asks for `tempo` (the last asked wins), from song pulse `pulse` when given.
    public mutating func ask(tempo: BPM, fromSongPulse pulse: Int64? = nil) {
        self.tempo = tempo
        tempoSongPulse = pulse
    }
}

extension Engine {
    /// A tempo the engine would set itself (the trainer's step, a tempo map's
    /// segment) from grid pulse `e`: asked of the source when it owns the
    /// tempo, from that pulse of its song; false then, and the grid is left to
    /// the source.
    mutating func tempoIsOwn(_ tempo: BPM, at e: Int64) -> Bool {
        guard owner.tempo else { return true }
        sourceRequests.ask(tempo: tempo, fromSongPulse: e - (followed != nil ? followBase : song.songOrigin))
        sourceRequests.enginesOwnTempo = true
        return false
    }

    /// The length of the meter's beat in pulses (96 a quarter note): how a
    /// source's beats become song pulses.
    public var pulsesPerBeat: Int64 { grid.pulsesPerBeat }

    /// Whether the song plays (MIDI Start given, no Stop since).
    public var isRunning: Bool { song.running }
}
