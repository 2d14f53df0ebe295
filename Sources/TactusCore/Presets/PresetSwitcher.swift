/// The control thread's side of preset switching: which preset plays, and what
/// a Program Change, a deep press, a name typed in the terminal or a file does.
///
/// A preset is re-read from its file when it is chosen, so an edit made while
/// Tactus runs is picked up, and a file broken by that edit is refused: the
/// preset playing stays, nothing is sent to the engine, and the outcome carries
/// the message to show (docs/DESIGN.md §6: the running state is left unchanged).
public struct PresetSwitcher {
    public enum Outcome: Hashable, Sendable {
        /// The engine has the new preset; the caller applies `preset.pressure` and `preset.sounds`.
        case switched(PresetEntry)
        /// The preset could not be used; nothing changed.
        case refused(PresetError)
        /// The request selects no preset (a program number past the list); nothing changed.
        case ignored(String)
        /// The preset's samples are being read (`SampleRead`): the preset playing
        /// goes on; `poll` gives the switch (or the refusal) once they are read.
        case loading(PresetEntry)
    }

    public private(set) var library: PresetLibrary
    public private(set) var current: PresetEntry?
    /// The place of `current` in the list, nil when it came from elsewhere (`--preset PATH`).
    public private(set) var currentIndex: Int?
    public var switchPoint: SwitchPoint
    /// The engine's sample rate, read at each switch (the JACK server's may change).
    public var sampleRate: () -> Int
    /// Starts reading a preset's WAV samples at `sampleRate`, off the control thread,
    /// before the switch: nil when the preset sounds as the one playing (nothing to
    /// swap); a read that ends in a `PresetError` naming the field of a file that
    /// does not decode refuses the preset, like any other broken preset. Nil:
    /// samples are not switched.
    public var samples: ((PresetEntry, Int) -> SampleRead?)?
    /// The preset whose samples are being read, its place in the list, and the read.
    private var loading: (entry: PresetEntry, index: Int?, read: SampleRead)?
    /// The preset waiting for its samples (`Outcome.loading`), nil when none.
    public var loadingEntry: PresetEntry? { loading?.entry }
    /// `--gain`, kept when a preset sets the other gains.
    public var masterGain: Float
    private let loader: (String) throws(PresetError) -> Preset

    public init(library: PresetLibrary, sampleRate: Int, switchPoint: SwitchPoint = .nextBar, masterGain: Float = 1,
                loader: @escaping (String) throws(PresetError) -> Preset = { path throws(PresetError) in try PresetFile.load(path: path) }) {
        self.library = library
        self.sampleRate = { sampleRate }
        self.switchPoint = switchPoint
        self.masterGain = masterGain
        self.loader = loader
    }

    /// The preset the engine was started with (not sent to the engine: it is in its configuration).
    public mutating func started(with entry: PresetEntry) {
        current = entry
        currentIndex = library.entries.firstIndex { $0.file == entry.file }
    }

    /// MIDI Program Change on the control channel.
    public mutating func programChange(_ program: UInt7, control: borrowing EngineControl) -> Outcome {
        guard let index = library.index(forProgram: program) else {
            return .ignored("Program Change \(program) selects no preset: the list has \(library.entries.count)")
        }
        return select(index: index, control: control)
    }

    /// The next preset in list order, wrapping after the last (the deep press, docs/DESIGN.md §5.8).
    public mutating func next(control: borrowing EngineControl) -> Outcome {
        guard let index = library.index(after: currentIndex) else { return .ignored("there are no presets to switch to") }
        return select(index: index, control: control)
    }

    /// The preset called `name` (the terminal).
    public mutating func select(named name: String, control: borrowing EngineControl) -> Outcome {
        guard let index = library.index(named: name) else { return .ignored("no preset is named \"\(name)\"") }
        return select(index: index, control: control)
    }

    /// The preset at `index` of the list, read afresh from its file.
    public mutating func select(index: Int, control: borrowing EngineControl) -> Outcome {
        let listed = library.entries[index]
        let preset: Preset
        do throws(PresetError) {
            preset = try loader(listed.file)
        } catch {
            return .refused(error)
        }
        return apply(PresetEntry(preset: preset, file: listed.file, origin: listed.origin), index: index, control: control)
    }

    /// A preset file, in the list or not.
    public mutating func load(path: String, control: borrowing EngineControl) -> Outcome {
        let preset: Preset
        do throws(PresetError) {
            preset = try loader(path)
        } catch {
            return .refused(error)
        }
        let index = library.entries.firstIndex { $0.file == path }
        return apply(PresetEntry(preset: preset, file: path, origin: index.map { library.entries[$0].origin } ?? .file), index: index, control: control)
    }

    /// The bytes of a preset file (a test, a pipe).
    public mutating func load(bytes: [UInt8], file: String, control: borrowing EngineControl) -> Outcome {
        let preset: Preset
        do throws(PresetError) {
            preset = try Preset.decode(bytes, file: file)
        } catch {
            return .refused(error)
        }
        return apply(PresetEntry(preset: preset, file: file, origin: .file), index: library.entries.firstIndex { $0.file == file }, control: control)
    }

    /// The control thread, each round: the switch to the preset whose samples
    /// were being read, once they are (or its refusal); nil while they read or
    /// when nothing does. Samples read at a rate the engine no longer runs at are
    /// read again at the new one.
    public mutating func poll(control: borrowing EngineControl) -> Outcome? {
        guard let loading, let outcome = loading.read.take() else { return nil }
        self.loading = nil
        switch outcome {
        case .failure(let error):
            return .refused(error)
        case .success(let sounds):
            guard loading.read.sampleRate == sampleRate() else {
                sounds.deallocate()
                return apply(loading.entry, index: loading.index, control: control)
            }
            return switchNow(loading.entry, index: loading.index, sounds: sounds, control: control)
        }
    }

    /// A newer choice wins over a preset still waiting for its samples.
    private mutating func apply(_ entry: PresetEntry, index: Int?, control: borrowing EngineControl) -> Outcome {
        loading?.read.abandon()
        loading = nil
        if let read = samples?(entry, sampleRate()) {
            loading = (entry, index, read)
            return poll(control: control) ?? .loading(entry)
        }
        return switchNow(entry, index: index, sounds: nil, control: control)
    }

    private mutating func switchNow(_ entry: PresetEntry, index: Int?, sounds: SoundSet?, control: borrowing EngineControl) -> Outcome {
        let rate = sampleRate()
        guard entry.preset.apply(to: control, sampleRate: rate, at: switchPoint, masterGain: masterGain, samples: sounds) else {
            sounds?.deallocate()
            return .refused(PresetError(file: entry.file, problem: "the engine's command queue is full; try again", allowed: nil))
        }
        current = entry
        currentIndex = index
        return .switched(entry)
    }
}
