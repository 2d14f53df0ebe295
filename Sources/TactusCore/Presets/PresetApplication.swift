extension Preset {
    /// Hands the preset to the engine: bar, tempo, gains and clock options.
    ///
    /// The bar and tempo travel together in one `.changeBar` command, so they take
    /// effect on the same pulse (the next bar line or beat, where the engine
    /// re-anchors its grid: no tick is lost or doubled); the control thread's
    /// `ControlLoop` learns the tempo from the outcome (`setTempo(_:alreadySent:)`)
    /// and sends no `.setTempo` of its own, which would take effect at the next
    /// clock tick instead, ahead of the bar. The gains and `samples`, the
    /// preset's WAV files already read by the caller (reading files is not the
    /// engine's job), ride with the bar change and sound from its first click;
    /// clock options apply at once; the pressure settings are the caller's.
    ///
    /// Returns false, having changed nothing, when the command ring is full
    /// (`samples` then stay the caller's to free).
    public func apply(to control: borrowing EngineControl, sampleRate: Int, at point: SwitchPoint, masterGain: Float = 1,
                      samples: SoundSet? = nil) -> Bool {
        var gains = sounds.gains
        gains.master = masterGain
        guard control.pushBarChange(bar, tempo: tempo, at: point, sounds: samples, gains: gains) else { return false }
        control.commands.push(.setClockOffset(frames: clock.offsetFrames(sampleRate: sampleRate)))
        control.commands.push(.setClockWhileStopped(clock.sendWhileStopped))
        control.commands.push(.setSongPositionEnabled(clock.sendSongPosition))
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

extension Preset {
    /// The WAV file of every sound the preset does not leave built in, paths
    /// resolved against the folder of `presetFile` (`SampleChoice.path`).
    public func sampleFiles(presetFile: String, home: String? = PresetFile.homeDirectory) -> [ClickSound: String] {
        var files: [ClickSound: String] = [:]
        for sound in ClickSound.allCases {
            if let path = sounds[sound].path(presetFile: presetFile, home: home) { files[sound] = path }
        }
        return files
    }
}

extension PresetEntry {
    /// The preset's sample files, resolved against its file's folder.
    public func sampleFiles(home: String? = PresetFile.homeDirectory) -> [ClickSound: String] {
        preset.sampleFiles(presetFile: file, home: home)
    }
}
