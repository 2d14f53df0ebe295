/// What the player asked for while a time source owns the tempo and the
/// transport (Ableton Link, docs/DESIGN.md §9 and §11): the tempo and start/stop
/// go to the source, which decides when they take effect, instead of bending
/// the grid. Read and cleared once a cycle by whoever feeds the source.
public struct TimeSourceRequests: Sendable, BitwiseCopyable, Equatable {
    /// The last tempo asked for (keys, taps, pressure, presets, trainer), if any.
    public var tempo: BPM?
    /// The last transport command: true for Start or Continue, false for Stop.
    public var running: Bool?

    public init(tempo: BPM? = nil, running: Bool? = nil) {
        self.tempo = tempo
        self.running = running
    }
}

extension Engine {
    /// The commands queued for this block, applied now rather than at the top
    /// of `render` (whose own loop then finds the ring empty), so that the
    /// player's requests reach a time source before it positions the block.
    public mutating func applyCommands(blockStart: Int64, control: borrowing EngineControl) {
        while let command = control.commands.pop() {
            apply(command, blockStart: blockStart, control: control)
        }
    }

    /// The requests gathered since the last call, cleared.
    public mutating func takeSourceRequests() -> TimeSourceRequests {
        defer { sourceRequests = TimeSourceRequests() }
        return sourceRequests
    }

    /// The length of the meter's beat in pulses (96 a quarter note): how a
    /// source's beats become song pulses.
    public var pulsesPerBeat: Int64 { grid.pulsesPerBeat }

    /// Whether the song plays (MIDI Start given, no Stop since).
    public var isRunning: Bool { song.running }
}
