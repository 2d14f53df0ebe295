import Synchronization

/// What the engine publishes for the display, the tests and the other threads:
/// atomics written by the render thread only, read by anyone.
public struct EngineStatus: ~Copyable, @unchecked Sendable {
    public let running = Atomic<Bool>(false)
    /// The tempo the grid is at now (after any pending change took effect): what
    /// the engine plays, which may lag the control thread's `ControlLoop.tempo`
    /// by a clock tick or, with a bar change pending, up to its bar line.
    public let tempoHundredths = Atomic<Int32>(0)
    /// Bar (1-based) and beat (1-based) of the last beat that sounded.
    public let bar = Atomic<Int>(0)
    public let beat = Atomic<Int>(0)
    /// Beats per bar of the meter now playing.
    public let beatsPerBar = Atomic<Int>(4)
    /// The accent of the last beat (`Accent.rawValue`), for the beat indicator.
    public let lastAccent = Atomic<UInt8>(0)
    /// MIDI clocks (0xF8) sent since the engine was created.
    public let clocksSent = Atomic<Int>(0)
    /// Clicks started since the engine was created.
    public let clicksPlayed = Atomic<Int>(0)
    /// Events whose frame had already passed when their block was rendered (after an xrun).
    public let lateEvents = Atomic<Int>(0)
    /// Events that could not be emitted at all (queue full, or too late to matter).
    public let droppedEvents = Atomic<Int>(0)
    /// The frame of the last block rendered.
    public let frame = Atomic<Int64>(0)
    /// The number of the last bar change asked for (`EngineControl.pushBarChange`)
    /// that the engine applied: from then on it is heard. A plain value, not a
    /// count of changes: a time source's meter change moves no number, so the
    /// control thread never takes it for the change it waits for.
    public let barRequestApplied = Atomic<Int>(0)
    /// The practice tools at the last beat heard (`EnginePractice.publishPractice`):
    /// the tempo map's entry (index, −1: no map plays) and the bar within it (from 1),
    /// whether the bar is a gap bar, the speed trainer's bars to its next step
    /// (−1: no trainer, or holding) and the tempo it will step to, in hundredths.
    public let mapSection = Atomic<Int>(-1)
    public let mapSectionBar = Atomic<Int>(0)
    public let gapMuted = Atomic<Bool>(false)
    public let trainerBarsToStep = Atomic<Int>(-1)
    public let trainerNextHundredths = Atomic<Int32>(0)

    public init() {}
}

/// Everything shared between the control thread and the render thread, kept
/// together at one stable address (an `UnsafeMutablePointer` owned by the host).
public struct EngineControl: ~Copyable, @unchecked Sendable {
    /// Control thread → render thread, tempo included (`.setTempo`); the engine's
    /// first tempo is its `EngineConfiguration.tempo`.
    public let commands: SPSCRing<EngineCommand>
    /// Render thread → control thread: sound sets no longer used, to be freed.
    public let retiredSounds: SPSCRing<SoundSet>
    public let status = EngineStatus()
    /// The number of the last bar change pushed (`pushBarChange`). Control thread only.
    public let barRequestsPushed = Atomic<Int>(0)

    public init(commandCapacity: Int = 256) {
        commands = SPSCRing(capacity: commandCapacity)
        retiredSounds = SPSCRing(capacity: 8)
    }

    /// Pushes a bar change numbered (from 1, rising) so that the control thread
    /// knows when the engine applied it (`EngineStatus.barRequestApplied`); the
    /// number is `barRequestsPushed` after the push. False, nothing numbered,
    /// when the ring is full. Control thread only (the ring's one producer).
    public func pushBarChange(_ settings: BarSettings, tempo: BPM?, at point: SwitchPoint, sounds: SoundSet? = nil,
                              gains: SoundGains? = nil) -> Bool {
        let request = barRequestsPushed.load(ordering: .relaxed) + 1
        guard commands.push(.changeBar(settings, tempo: tempo, at: point, sounds: sounds, gains: gains, request: request)) else { return false }
        barRequestsPushed.store(request, ordering: .relaxed)
        return true
    }
}
