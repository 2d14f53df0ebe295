extension Preset {
    /// Hands the preset to the engine: bar, tempo, gains and clock options.
    ///
    /// The bar and tempo travel together in one `.changeBar` command, so they take
    /// effect on the same pulse (the next bar line or beat, where the engine
    /// re-anchors its grid: no tick is lost or doubled); the tempo is stored in
    /// `EngineControl.tempo` only after the command is pushed, because the engine
    /// reads the tempo first and takes a new tempo seen without its command for
    /// a plain tempo change at the next clock tick. Gains and clock options apply
    /// at once. Samples (`sounds`) and the pressure settings are the caller's:
    /// loading a WAV file and reconfiguring the controller are not the engine's job.
    ///
    /// Returns false, having changed nothing, when the command ring is full.
    public func apply(to control: borrowing EngineControl, sampleRate: Int, at point: SwitchPoint, masterGain: Float = 1) -> Bool {
        guard control.commands.push(.changeBar(bar, tempo: tempo, at: point)) else { return false }
        var gains = sounds.gains
        gains.master = masterGain
        control.commands.push(.setGains(gains))
        control.commands.push(.setClockOffset(frames: clock.offsetFrames(sampleRate: sampleRate)))
        control.commands.push(.setClockWhileStopped(clock.sendWhileStopped))
        control.commands.push(.setSongPositionEnabled(clock.sendSongPosition))
        control.tempo.store(tempo)
        return true
    }

    /// The engine's starting configuration for this preset.
    public func engineConfiguration(sampleRate: Int, masterGain: Float = 1, muted: Bool = false) -> EngineConfiguration {
        var gains = sounds.gains
        gains.master = masterGain
        return EngineConfiguration(sampleRate: sampleRate, tempo: tempo, bar: bar, gains: gains,
                                   clockOffsetFrames: clock.offsetFrames(sampleRate: sampleRate),
                                   clockWhileStopped: clock.sendWhileStopped, sendSongPosition: clock.sendSongPosition, muted: muted)
    }
}
