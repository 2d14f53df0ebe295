import TactusCore

extension Options {
    /// The synthesised sounds, with any `--sample-*` files in their place, at `sampleRate`.
    /// Read off the real-time thread, before the engine starts (or to be swapped in).
    public func soundSet(sampleRate: Int) throws(OptionError) -> SoundSet {
        var user: [ClickSound: [Float]] = [:]
        for (sound, path) in samples {
            user[sound] = try WAVReader.clickSample(path: path, sampleRate: sampleRate)
        }
        return SoundSet(sampleRate: sampleRate) { sound in
            user[sound] ?? ClickSynthesizer.samples(for: sound, sampleRate: sampleRate)
        }
    }
}
