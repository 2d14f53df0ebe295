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
    }

    public private(set) var library: PresetLibrary
    public private(set) var current: PresetEntry?
    /// The place of `current` in the list, nil when it came from elsewhere (`--preset PATH`).
    public private(set) var currentIndex: Int?
    public var switchPoint: SwitchPoint
    /// The engine's sample rate, read at each switch (the JACK server's may change).
    public var sampleRate: () -> Int
    /// Reads a preset's WAV samples at `sampleRate`, off the real-time thread, before
    /// the switch: nil when the preset sounds as the one playing (nothing to swap),
    /// a `PresetError` naming the field when a file does not decode (the preset is
    /// refused, like any other broken preset). Nil: samples are not switched.
    public var samples: ((PresetEntry, Int) throws(PresetError) -> SoundSet?)?
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

    private mutating func apply(_ entry: PresetEntry, index: Int?, control: borrowing EngineControl) -> Outcome {
        let rate = sampleRate()
        var sounds: SoundSet?
        if let samples {
            do throws(PresetError) { sounds = try samples(entry, rate) } catch { return .refused(error) }
        }
        guard entry.preset.apply(to: control, sampleRate: rate, at: switchPoint, masterGain: masterGain, samples: sounds) else {
            sounds?.deallocate()
            return .refused(PresetError(file: entry.file, problem: "the engine's command queue is full; try again", allowed: nil))
        }
        current = entry
        currentIndex = index
        return .switched(entry)
    }
}
