import TactusCore

/// `--preset NAME|FILE` and `--setlist FILE` at start: the preset list in the
/// order Program Change and the deep press use, and the preset to start with.
public struct PresetStart: Sendable {
    public var library: PresetLibrary
    /// The `--preset`, nil when none was given.
    public var preset: PresetEntry?

    /// Reads the preset folders, orders them by the set list and resolves `--preset`.
    /// A bad preset file, an unknown name or a bad set list throws: the caller
    /// prints every message and exits with status 2.
    public init(options: Options, directories: PresetDirectories) throws(PresetError) {
        library = PresetLibrary.load(directories)
        if let setlist = options.setlist {
            library = try library.ordered(by: try Setlist.load(path: setlist))
        }
        preset = try options.preset.map { name throws(PresetError) in try library.resolve(name) }
    }

    /// The folders of this installation and user.
    public static var directories: PresetDirectories {
        .standard(environment: ProcessEnvironment.current, executablePath: PresetDirectories.currentExecutable)
    }

    /// The starting preset's sounds, gains and clock options into `options`, where
    /// the command line did not say otherwise: `--sample-*` and `--clock-offset`
    /// win; `--clock-while-stopped` and `--no-song-position` win when given (a
    /// flag can only say yes, or no); its `"transport"` unless `--transport` was
    /// given; its `"clockIn"` unless `--clock-in` or `--alsa-clock-from` was.
    /// Tempo and bar: `settings(_:)`.
    /// A sample file that does not decode throws, naming its field.
    public func applySettings(to options: inout Options) throws(PresetError) {
        guard let entry = preset else { return }
        try SampleFilesInUse.check(entry, except: options.samples)
        options.presetSamples = entry.sampleFiles()
        options.soundGains = entry.preset.sounds.gains
        options.presetClock = entry.preset.clock
        // `"link": true` can only say yes, as `--link` can.
        if entry.preset.link { options.link = true }
        if let mode = options.transport(of: entry.preset, playing: options.transport) {
            if let refusal = options.transportRefusal(mode) {
                throw PresetError(file: entry.file, path: "transport", problem: refusal, allowed: "\"off\", \"master\" or \"master-force\" with Link; any mode without it")
            }
            options.transport = mode
        }
        // `"clockIn"` unless `--clock-in` or `--alsa-clock-from` was given: at
        // start only, the clock input is made with the client.
        if !options.followsClock, let choice = entry.preset.clockIn, let refusal = options.takeClockIn(choice) {
            throw PresetError(file: entry.file, path: "clockIn", problem: refusal, allowed: ClockInSchema.allowed)
        }
        // `"sync"` unless `--sync-out` was given; a `--sync-width` or `--sync-reset` given shapes it.
        if options.syncKind == nil, let sync = entry.preset.sync {
            options.syncKind = sync.kind
            options.syncWidthMilliseconds = options.syncWidthMilliseconds ?? sync.widthMilliseconds
            options.syncReset = options.syncReset ?? sync.reset
        }
        try applyPractice(entry.preset.practice, to: &options, file: entry.file)
    }

    /// The preset's count-in, trainers and tempo map, at start only (Presets/README.md
    /// "Practice"). An option of the same tool wins: `--count-in`, `--gap`/`--gap-random`,
    /// `--trainer` or `--bpm` over `trainer`, `--map` or `--trainer` over `sections`.
    func applyPractice(_ practice: PresetPractice, to options: inout Options, file: String) throws(PresetError) {
        if options.countInBars == nil { options.countInBars = practice.countIn }
        if options.gapTrainer == nil {
            (options.gap.play, options.gap.mute, options.gap.probability) = (practice.gap.play, practice.gap.mute, practice.gap.probability)
        }
        if options.tempoMap == nil && options.trainer == nil, var map = practice.sections {
            if let label = options.startAt {
                guard let from = map.starting(at: label) else {
                    throw PresetError(file: file, path: "sections", problem: "--start-at '\(label)': no entry has that label",
                                      allowed: map.labels.isEmpty ? "an entry with a label" : map.labels.joined(separator: ", "))
                }
                map = from
            }
            options.tempoMap = map
        }
        if options.trainer == nil && options.tempo == nil && options.tempoMap == nil { options.trainer = practice.trainer }
        // `MapFile.load` left these to the preset; without sections they have no map.
        if options.tempoMap == nil, let label = options.startAt {
            throw PresetError(file: file, path: "sections", problem: "--start-at '\(label)' needs a tempo map: --map FILE or the preset's sections")
        }
        if options.tempoMap == nil && options.mapLoop {
            throw PresetError(file: file, path: "sections", problem: "--map-loop needs a tempo map: --map FILE or the preset's sections")
        }
    }

    /// Tempo and bar for the engine: an option given on the command line wins over the preset.
    public func settings(_ options: Options) throws(OptionError) -> (tempo: BPM?, bar: BarSettings) {
        guard let preset = preset?.preset else { return (options.tempo, try options.barSettings()) }
        return (options.tempo ?? preset.tempo, try options.barSettings(base: preset.bar))
    }
}

extension Options {
    /// `preset` as the command line leaves it: `--clock-offset` given replaces its
    /// offset; `--clock-while-stopped` and `--no-song-position` (flags that can
    /// only say yes, or no) win over its clock keys; `--pulse` and `--swing`
    /// over its `pulse` and `swing` (the feel the player counts in). At start
    /// and on every switch, so a preset never undoes what the player asked for.
    /// `--swing` swings eighths: a preset whose subdivision is triplets,
    /// sixteenths or the shuffle keeps it, unswung.
    public func overriding(_ preset: Preset) -> Preset {
        var p = preset
        p.clock = overriding(p.clock)
        if let pulse { p.bar.pulse = pulse }
        if let swingRatio, p.bar.subdivision == .none || p.bar.subdivision == .eighths {
            p.bar.subdivision = .eighths
            p.bar.swingRatio = swingRatio
        }
        return p
    }

    func overriding(_ keys: ClockOptions) -> ClockOptions {
        var c = keys
        if let clockOffsetMilliseconds { c.offsetMilliseconds = clockOffsetMilliseconds }
        c.sendWhileStopped = c.sendWhileStopped || clockWhileStopped
        c.sendSongPosition = c.sendSongPosition && sendSongPosition
        return c
    }

    /// The clock options that play: the starting preset's keys (or the defaults)
    /// as the command line leaves them.
    public var clock: ClockOptions { overriding(presetClock) }
}
