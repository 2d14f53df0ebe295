/// What the player asked for of what a time source owns (`SourceOwnership`,
/// docs/DESIGN.md §9): the tempo and start/stop go to the source, which decides
/// when they take effect, instead of bending the grid. Gathered by the engine
/// (the block's commands, the trainer's and a tempo map's steps in the
/// block before) and handed to the source by the next `Engine.cycle`: the one
/// channel from the player to the source, read once a cycle.
public struct TimeSourceRequests: Sendable, BitwiseCopyable, Equatable {
    /// The last tempo asked for (keys, taps, pressure, presets, trainer, map), if any.
    public var tempo: BPM?
    /// The last transport command: true for Start or Continue, false for Stop.
    public var running: Bool?
    /// A tempo among them was the engine's own (the trainer's step, a tempo
    /// map's segment), which no key or hold announces to the player: a host
    /// whose source refuses it says so (`CycleEvent.engineTempoRefused`).
    public var enginesOwnTempo: Bool

    public init(tempo: BPM? = nil, running: Bool? = nil, enginesOwnTempo: Bool = false) {
        self.tempo = tempo
        self.running = running
        self.enginesOwnTempo = enginesOwnTempo
    }
}

extension Engine {
    /// A tempo the engine would set itself (the trainer's step, a tempo map's
    /// segment): asked of the source when it owns the tempo; false then, and
    /// the grid is left to the source.
    mutating func tempoIsOwn(_ tempo: BPM) -> Bool {
        guard owner.tempo else { return true }
        sourceRequests.tempo = tempo
        sourceRequests.enginesOwnTempo = true
        return false
    }

    /// The length of the meter's beat in pulses (96 a quarter note): how a
    /// source's beats become song pulses.
    public var pulsesPerBeat: Int64 { grid.pulsesPerBeat }

    /// Whether the song plays (MIDI Start given, no Stop since).
    public var isRunning: Bool { song.running }
}
