/// A new sample rate under a running engine (a JACK server restarted at another rate).
extension Engine {
    /// The settings in force now (after every command applied so far), to build an
    /// engine at another sample rate that sounds the same. The clock offset is
    /// scaled to keep its duration.
    public func configuration(atSampleRate rate: Int) -> EngineConfiguration {
        let bar = pendingBar
        return EngineConfiguration(
            sampleRate: rate, tempo: bar?.tempo ?? pendingTempo ?? grid.tempo, bar: bar?.settings ?? pattern.bar,
            gains: bar?.sound.gains ?? audio.scheduled.gains ?? audio.gains,
            clockOffsetFrames: Int32(clamping: scaledOffset(toRate: rate)),
            clockWhileStopped: clockWhileStopped, sendSongPosition: sendSongPosition, muted: audio.muted, feedbackNotes: midi.feedbackNotes,
            map: map?.timeline, countIn: practice.countIn, trainer: practice.trainer, gap: practice.gap, sync: sync.settings)
    }

    /// Goes on at another sample rate (a JACK server restarted at a new rate)
    /// from `frame`, the first frame the new rate renders: the song, the bar and
    /// the position in the bar carry on, the next pulse lands where it would
    /// have in time, and `sounds` (synthesised or read at the new rate) replace
    /// the old set, which `freed` gets with any set still waiting for its bar
    /// line. Not for the render thread while it renders.
    public mutating func changeSampleRate(to rate: Int, sounds: SoundSet, continuingAt frame: Int64, freed: (SoundSet) -> Void) {
        forgetCachedPoints()
        let ratio = Double(rate) / Double(grid.sampleRate)
        let offset = scaledOffset(toRate: rate)
        // A preset's sounds still waiting were read at the old rate: freed; its gains stay.
        if let entry = agenda.entry(.bar), case .bar(var change) = entry.change, let waiting = change.sound.sounds {
            freed(waiting)
            change.sound.sounds = nil
            agenda.schedule(AgendaEntry(pulse: entry.pulse, change: .bar(change)))
        }
        audio.resample(sounds: sounds, continuingAt: frame, ratio: ratio, freed: freed)
        midi.resample(continuingAt: frame, ratio: ratio, maximumLateness: MaximumLateness.frames(atSampleRate: rate))
        grid.resample(to: rate, pulse: cursor, continuingAt: frame)
        sync.resample(to: rate)
        // The map's exact positions were laid at the old rate: the song goes on at the tempo reached.
        stopMap()
        setClockOffset(Int32(clamping: offset))
        sampleRate = rate
    }

    /// The clock offset (clock delay minus click delay, the alignment left
    /// out: latencies are in frames, and the control thread reads them again
    /// from the new server) in frames at `rate`, rounded.
    func scaledOffset(toRate rate: Int) -> Int64 {
        (Int64(delays.clockOffset) * Int64(rate) + Int64(sampleRate / 2)) / Int64(sampleRate)
    }

}
