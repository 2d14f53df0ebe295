import Synchronization
import TactusCore

/// The WAV files the click plays now, by sound: the command line's `--sample-*`
/// over the preset's. The control thread changes them on a preset switch; the
/// JACK side reads them when the server's sample rate changes and the sounds
/// must be read again at the new rate. Never touched by the real-time thread.
final class SampleFilesInUse: Sendable {
    private let files: Mutex<[ClickSound: String]>
    /// `--sample-*`: kept through every preset switch.
    let commandLine: [ClickSound: String]

    init(_ options: Options) {
        commandLine = options.samples
        files = Mutex(options.presetSamples.merging(options.samples) { _, given in given })
    }

    var current: [ClickSound: String] { files.withLock { $0 } }

    /// The files `entry` plays with.
    func files(for entry: PresetEntry) -> [ClickSound: String] {
        entry.sampleFiles().merging(commandLine) { _, given in given }
    }

    func use(_ entry: PresetEntry) {
        let new = files(for: entry)
        files.withLock { $0 = new }
    }

    /// The sounds at `sampleRate`; a file that cannot be read now (deleted since)
    /// is reported and the synthesised sounds play.
    func soundSet(sampleRate: Int) -> SoundSet {
        do { return try Options.soundSet(files: current, sampleRate: sampleRate) } catch {
            printError("\(error); using the synthesised sounds")
            return SoundSet.synthesized(sampleRate: sampleRate)
        }
    }

    /// Starts reading the sounds of `entry` at `sampleRate` on a thread of its own
    /// (a long file must not stall the control thread's pressure steps), calling
    /// `finished` on that thread when done; nil when they are the files playing
    /// now. A file that does not decode refuses the preset, naming its field
    /// (`sounds.beat.sample`) or its option (`--sample-beat`).
    func read(for entry: PresetEntry, sampleRate: Int, finished: @escaping @Sendable () -> Void = {}) -> SampleRead? {
        let wanted = files(for: entry)
        guard wanted != current else { return nil }
        let read = SampleRead(sampleRate: sampleRate)
        let commandLine = commandLine
        let decode: @Sendable () -> Void = {
            read.finish(Result { () throws(PresetError) in
                try Options.soundSet(files: wanted, sampleRate: sampleRate) { sound, error in
                    Self.failure(entry, sound, error, commandLine: commandLine[sound] != nil)
                }
            })
            finished()
        }
        // No thread to be had: read here, late rather than never.
        if !DetachedThread.start(decode) { decode() }
        return read
    }

    /// Reads every sample file of `entry` but those of the sounds in `except`
    /// (given on the command line): one that does not decode is a `PresetError`
    /// naming its field, e.g. `sounds.beat.sample`.
    static func check(_ entry: PresetEntry, except: [ClickSound: String] = [:]) throws(PresetError) {
        let files = entry.sampleFiles().filter { except[$0.key] == nil }
        guard !files.isEmpty else { return }
        try Options.soundSet(files: files, sampleRate: 48_000) { sound, error in
            failure(entry, sound, error, commandLine: false)
        }.deallocate()
    }

    /// A sample of `entry` that does not decode, by its field; a `--sample-*`
    /// file (read at start, gone since) by its option.
    private static func failure(_ entry: PresetEntry, _ sound: ClickSound, _ error: OptionError, commandLine: Bool) -> PresetError {
        let problem = error.reason
        guard !commandLine, let key = PresetFile.sampleKeys.first(where: { $0.1 == sound })?.0 else {
            return PresetError(file: entry.file, problem: "--sample-\(sound): \(problem)")
        }
        return PresetError(file: entry.file, path: "sounds." + key, problem: problem,
                           allowed: "\"builtin\" or a WAV file (mono or stereo) that libsndfile reads")
    }
}
