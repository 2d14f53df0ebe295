import TactusCore

extension Options {
    /// The synthesised sounds, with the `--sample-*` files and the starting
    /// preset's samples in their place, at `sampleRate`.
    /// Read off the real-time thread, before the engine starts (or to be swapped in).
    /// A `--sample-*` file that does not decode is named by its option
    /// (`tactus: --sample-beat: cannot read 'bad.wav': …`).
    public func soundSet(sampleRate: Int) throws(OptionError) -> SoundSet {
        try Options.soundSet(files: presetSamples.merging(samples) { _, commandLine in commandLine }, sampleRate: sampleRate) { sound, error in
            samples[sound] == nil ? error : OptionError("tactus: --sample-\(sound): \(error.reason)")
        }
    }

    /// The synthesised sounds with `files` (WAV paths by sound) in their place.
    public static func soundSet(files: [ClickSound: String], sampleRate: Int) throws(OptionError) -> SoundSet {
        try soundSet(files: files, sampleRate: sampleRate) { _, error in error }
    }

    /// The same, `failure` saying what a file that does not decode was for (a
    /// preset's field); files are read in `ClickSound` order, so the first of
    /// several bad ones is always the same.
    static func soundSet<Failure: Error>(files: [ClickSound: String], sampleRate: Int,
                                         failure: (ClickSound, OptionError) -> Failure) throws(Failure) -> SoundSet {
        var user: [ClickSound: [Float]] = [:]
        for sound in ClickSound.allCases {
            guard let path = files[sound] else { continue }
            do throws(OptionError) {
                user[sound] = try WAVReader.clickSample(path: path, sampleRate: sampleRate)
            } catch {
                throw failure(sound, error)
            }
        }
        return SoundSet(sampleRate: sampleRate) { sound in
            user[sound] ?? ClickSynthesizer.samples(for: sound, sampleRate: sampleRate)
        }
    }
}
