/// A tempo preset: everything a musician keeps per song or exercise. A field the
/// file leaves out has the engine's default, so `Preset(name:tempo:)` is what a
/// file with only `name` and `tempo` decodes to.
///
/// The file format is in `Presets/README.md`; reading and writing it is
/// `Preset.decode` / `Preset.encoded`, the keys are listed in `PresetSchema`.
public struct Preset: Hashable, Sendable {
    /// The format this code reads and writes (`"format": 1`).
    public static let formatVersion = 1
    /// Names are typed on the command line and in set lists: short, one line.
    public static let maximumNameLength = 64

    public var name: String
    public var tempo: BPM
    /// Meter, accents (one per beat of the meter) and subdivision.
    public var bar: BarSettings
    public var sounds: PresetSounds
    public var pressure: PressureConfiguration
    public var clock: ClockOptions
    /// The Program Change number that selects this preset, whatever its place in the list.
    public var program: UInt7?
    /// Count-in, trainers and tempo map (`PresetPractice`), applied at start.
    public var practice = PresetPractice()
    /// Join the Ableton Link session at start, as `--link` (docs/DESIGN.md §11).
    public var link = false
    /// Buttons and pedals bound to actions while this preset plays, in place of
    /// `controller.json`'s (`ActionSchema`); nil keeps the controller's.
    public var actions: [ActionBinding]?
    /// JACK transport, as `--transport` (docs/DESIGN.md §13), at start and on
    /// every switch to this preset; nil (the key left out): the mode playing
    /// stays. An explicit `--transport` wins.
    public var transport: JackTransportMode?
    /// A sync track, as `--sync-out`, `--sync-width`, `--sync-reset`
    /// (docs/DESIGN.md §14), for `tactus render` at start; nil: none. The
    /// command line's `--sync-out` wins.
    public var sync: SyncSettings?
    /// The MIDI beat clock to follow, as `--clock-in` or `--alsa-clock-from`
    /// (docs/DESIGN.md §9.1), at start only: the inputs are made when the run
    /// starts. nil (the key left out): `controller.json`'s, or none. The
    /// command line's wins.
    public var clockIn: ClockInChoice?

    public init(name: String, tempo: BPM, bar: BarSettings = BarSettings(), sounds: PresetSounds = PresetSounds(),
                pressure: PressureConfiguration = PressureConfiguration(), clock: ClockOptions = ClockOptions(), program: UInt7? = nil) {
        self.name = name
        self.tempo = tempo
        self.bar = bar
        self.sounds = sounds
        self.pressure = pressure
        self.clock = clock
        self.program = program
    }
}

/// Where a click sound comes from.
public enum SampleChoice: Hashable, Sendable {
    /// The synthesised sound (`ClickSynthesizer`).
    case builtin
    /// A WAV file; a relative path is relative to the preset file's folder.
    case file(String)

    /// The path to open, for a preset read from `presetFile`: `~/` is the home
    /// folder, a relative path is taken from the preset file's folder.
    public func path(presetFile: String, home: String?) -> String? {
        guard case .file(let path) = self else { return nil }
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/"), let home { return home + path.dropFirst(1) }
        guard let slash = presetFile.lastIndex(of: "/") else { return path }
        return presetFile[...slash] + path
    }
}

/// The sounds of a preset and their gains (`SoundGains.master` stays with `--gain`).
public struct PresetSounds: Hashable, Sendable {
    public var accent = SampleChoice.builtin
    public var beat = SampleChoice.builtin
    public var subdivision = SampleChoice.builtin
    public var impact = SampleChoice.builtin
    public var selection = SampleChoice.builtin
    public var maximum = SampleChoice.builtin
    public var commit = SampleChoice.builtin
    public var gains = SoundGains()

    public init() {}

    public subscript(sound: ClickSound) -> SampleChoice {
        switch sound {
        case .accent: accent
        case .beat: beat
        case .subdivision: subdivision
        case .impact: impact
        case .selection: selection
        case .maximum: maximum
        case .commit: commit
        }
    }
}

/// MIDI clock options of a preset, with the engine's defaults (`EngineConfiguration`).
public struct ClockOptions: Hashable, Sendable {
    /// Milliseconds the MIDI clock is sent after the click (negative: before).
    public var offsetMilliseconds: Double = 0
    /// Send 0xF8 while stopped, so a slave can lock its tempo before Start.
    public var sendWhileStopped = false
    /// Song Position Pointer (0xF2) on Stop and before Continue.
    public var sendSongPosition = true

    public init(offsetMilliseconds: Double = 0, sendWhileStopped: Bool = false, sendSongPosition: Bool = true) {
        self.offsetMilliseconds = offsetMilliseconds
        self.sendWhileStopped = sendWhileStopped
        self.sendSongPosition = sendSongPosition
    }

    /// The offset in frames at `sampleRate`, rounded to the nearest frame (`EngineCommand.setClockOffset`).
    public func offsetFrames(sampleRate: Int) -> Int32 {
        Int32((offsetMilliseconds * Double(sampleRate) / 1000).rounded())
    }
}
