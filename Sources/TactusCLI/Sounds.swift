import TactusCore

extension Options {
    /// The synthesised sounds, with the `--sample-*` files and the starting
    /// preset's samples in their place, at `sampleRate`.
    /// Read off the real-time thread, before the engine starts (or to be swapped in).
    public func soundSet(sampleRate: Int) throws(OptionError) -> SoundSet {
        try Options.soundSet(files: presetSamples.merging(samples) { _, commandLine in commandLine }, sampleRate: sampleRate)
    }

    /// The synthesised sounds with `files` (WAV paths by sound) in their place.
    public static func soundSet(files: [ClickSound: String], sampleRate: Int) throws(OptionError) -> SoundSet {
        var user: [ClickSound: [Float]] = [:]
        for (sound, path) in files {
            user[sound] = try WAVReader.clickSample(path: path, sampleRate: sampleRate)
        }
        return SoundSet(sampleRate: sampleRate) { sound in
            user[sound] ?? ClickSynthesizer.samples(for: sound, sampleRate: sampleRate)
        }
    }
}
