import TactusCore
import TactusJACK

/// One option of the command line, as the parser, `--help`, and later a man
/// page and shell completions need it: its names, the placeholder of its value,
/// the commands that take it, one line of help, and what it sets.
public struct OptionSpec: Sendable {
    /// The heading an option is listed under in a command's help, in this order.
    public enum Section: String, Sendable, CaseIterable {
        case tempo = "Tempo and bar"
        case jack = "JACK"
        case link = "Ableton Link (tempo and beat shared over the network)"
        case clock = "MIDI clock"
        case sync = "Sync outputs (pulses for Pocket Operators, volcas, DIN sync, modular gear)"
        case pressure = "Pressure control (a key on your controller, pressed harder, changes the tempo)"
        case presets = "Presets"
        case alsa = "ALSA sequencer"
        case remote = "Remote control (OSC, buttons and pedals)"
        case display = "Display"
        case render = "Render"
        case general = "General"
    }

    /// `--bpm`.
    public let long: String
    /// `b` for `-b`; nil when there is only the long name.
    public let short: Character?
    /// The value's placeholder in help (`BPM`); nil for a flag, which takes no value.
    public let placeholder: String?
    /// The commands that take it; given to another it is an error saying where it belongs.
    public let commands: Set<Options.Command>
    public let section: Section
    /// One line for `--help`.
    public let help: String
    /// The values a completion offers and the man page lists: every value when they
    /// are a few words, the usual ones when the value is free (meters); else empty.
    public var choices: [String] = []
    /// What else a completion offers for the value: files, preset names, ports.
    public var completion: Completion = .none
    /// What values are allowed, in the error for a bad one.
    let allowed: String
    /// Sets the option from its value ("" for a flag) and the name it was written with.
    let apply: @Sendable (inout Options, String, String) throws(OptionError) -> Void

    var takesValue: Bool { placeholder != nil }

    /// A value `tactus --help-completion bash` finds at the time of completing.
    public enum Completion: Sendable, Equatable {
        case none
        case file
        /// A preset's name (`tactus presets --names`) or a file.
        case preset
        /// A JACK port of this kind and direction, from `tactus ports` (`midi in`, `audio in`).
        case jackPort(kind: String, direction: PortDirection)
        /// An ALSA sequencer port, from `tactus ports`: `out` sends MIDI, `in` receives it.
        case alsaPort(PortDirection)
    }

    /// As `tactus ports` writes a port's direction.
    public enum PortDirection: String, Sendable {
        case input = "in"
        case output = "out"
    }

    /// Every name it answers to: `-b`, `--bpm`.
    public var names: [String] { (short.map { ["-\($0)"] } ?? []) + [long] }

    /// `-b, --bpm BPM` or `    --mute`, as the help's left column shows it.
    public var synopsis: String {
        (short.map { "-\($0), " } ?? "    ") + long + (placeholder.map { " " + $0 } ?? "")
    }
}

extension Set where Element == Options.Command {
    /// The commands that play: they take the tempo, bar, sound and clock options.
    static var playing: Self { [.run, .render] }
    static var all: Self { Set(Options.Command.allCases) }
}

/// The table of every option: the one place an option is declared.
public enum OptionTable {
    public static let all: [OptionSpec] = tempo + jack + link + clock + pressure + presets + alsa + remote + practice + display + render + general

    /// The options `command` takes, in table order.
    public static func options(of command: Options.Command) -> [OptionSpec] {
        all.filter { $0.commands.contains(command) }
    }

    /// Each spec by every name it answers to.
    static let byName: [String: OptionSpec] = {
        var table: [String: OptionSpec] = [:]
        for spec in all { for name in spec.names { table[name] = spec } }
        return table
    }()

    // MARK: - The options, by section

    static let bpmAllowed = "a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"
    static let meterAllowed = "N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"
    /// The meters a completion offers first; any N/D of `meterAllowed` is taken.
    static let usualMeters = ["4/4", "3/4", "2/4", "6/8", "5/4", "7/8", "9/8", "12/8"]
    static let accentsAllowed = "one symbol a beat: X accent, x normal, o soft, . silent (e.g. X.x.x..), up to 32"

    static let tempo: [OptionSpec] = {
        let subdivisions = Subdivision.allCases.map(\.rawValue).joined(separator: ", ")
        return [
            value("--bpm", "b", "BPM", [.run, .render, .clockMeter], .tempo, "tempo, 1 to 999, two decimals at most (97.3, 97.3bpm); clock-meter: the tempo drift is measured against", bpmAllowed) { o, v, n throws(OptionError) in
                o.tempo = try bpm(v, n)
            },
            value("--meter", "m", "N/D", .playing, .tempo, "time signature; the tempo counts D-th notes (default 4/4)", meterAllowed,
                  choices: usualMeters) { o, v, n throws(OptionError) in
                guard let m = Meter(v) else { throw bad(n, v, meterAllowed) }
                o.meter = m
            },
            value("--accents", "a", "PATTERN", .playing, .tempo, "one symbol a beat: X accent, x normal, o soft, . silent with its subdivisions (default X then x)", accentsAllowed) { o, v, n throws(OptionError) in
                guard let a = AccentPattern(v) else { throw bad(n, v, accentsAllowed) }
                o.accents = a
            },
            value("--subdivision", "d", "KIND", .playing, .tempo, "\(subdivisions) (off from 300 BPM)", "one of \(subdivisions)",
                  choices: Subdivision.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
                guard let s = Subdivision(rawValue: v) else { throw bad(n, v, "one of \(subdivisions)") }
                o.subdivision = s
            },
            value("--pulse", nil, "KIND", .playing, .tempo, "beat, or dotted: 6/8, 9/8 and 12/8 clicked on the dotted quarter, the eighths as subdivisions",
                  "beat or dotted", choices: Pulse.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
                guard let p = Pulse(rawValue: v) else { throw bad(n, v, "beat or dotted") }
                o.pulse = p
            },
            value("--swing", nil, "RATIO", .playing, .tempo, "swung eighths: the off-beat eighth at RATIO of the beat (0.5 straight to 0.75; swing is 2/3)",
                  "a ratio from 0.5 to 0.75 (e.g. 0.58)") { o, v, n throws(OptionError) in
                o.swingRatio = try number(v, n, in: 0.5...0.75, "a ratio from 0.5 to 0.75 (e.g. 0.58)")
            },
            value("--gain", "g", "DB", .playing, .tempo, "click gain in dB, -60 to 12 (-6, -6dB; default 0)", "a gain in dB from -60 to 12") { o, v, n throws(OptionError) in
                o.gainDecibels = try number(v, n, in: -60...12, "a gain in dB from -60 to 12", unit: "dB")
            },
            flag("--mute", .playing, .tempo, "no clicks; the clock keeps running") { $0.mute = true },
            sample("--sample-accent", .accent, "your own accent sample instead of the synthesised click"),
            sample("--sample-beat", .beat, "your own beat sample"),
            sample("--sample-subdivision", .subdivision, "your own subdivision sample"),
        ]
    }()

    static let waitAllowed = "a duration in seconds from 0 to 86400 (0: try once)"

    static let jack: [OptionSpec] = [
        value("--name", "n", "NAME", [.run, .learn], .jack, "JACK client name (default tactus)", "a JACK client name") { o, v, n throws(OptionError) in
            guard !v.isEmpty, v.utf8.count <= 63 else { throw bad(n, v, "a JACK client name of 1 to 63 bytes") }
            o.clientName = v
        },
        value("--server", "s", "NAME", [.run, .learn, .ports, .clockMeter], .jack, "JACK server name", "a JACK server name") { o, v, _ in o.serverName = v },
        value("--wait", nil, "SECONDS", [.run], .jack, "give up (status 1) if no JACK server answered within SECONDS (default: wait until Ctrl-C)",
              waitAllowed) { o, v, n throws(OptionError) in o.waitSeconds = try number(v, n, in: 0...86_400, waitAllowed, unit: "s") },
        value("--connect-clock", nil, "PORT", [.run], .jack, "JACK MIDI port to send the clock to (repeatable)",
              "a JACK MIDI input port (e.g. 'ardour:MIDI clock in')", completion: .jackPort(kind: "midi", direction: .input)) { o, v, _ in o.connectClock.append(v) },
        value("--connect-control", nil, "PORT", [.run, .learn], .jack, "JACK MIDI port to read the controller from (repeatable)",
              "a JACK MIDI output port", completion: .jackPort(kind: "midi", direction: .output)) { o, v, _ in o.connectControl.append(v) },
        value("--connect-feedback", nil, "PORT", [.run], .jack, "audio port for the pressure feedback sounds (repeatable)",
              "a JACK audio input port", completion: .jackPort(kind: "audio", direction: .input)) { o, v, _ in o.connectFeedback.append(v) },
        flag("--start-stopped", [.run], .jack, "wait for a start command instead of starting at once") { $0.startStopped = true },
        value("--transport", nil, "MODE", [.run], .jack,
              "JACK transport: off, join (start/stop/locate together), master (and timebase master), master-force, follow (the master's tempo and bars)",
              transportAllowed, choices: JackTransportMode.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
            guard let mode = JackTransportMode(rawValue: v) else { throw bad(n, v, transportAllowed) }
            o.transport = mode
            o.transportPinned = true
        },
    ]

    static let link: [OptionSpec] = {
        let quantumAllowed = "a number of beats from 1 to 64"
        return [
            flag("--link", [.run], .link, "join the Link session: tempo and bar lines shared with every Link app on the network") { $0.link = true },
            value("--link-quantum", nil, "N", [.run], .link, "beats between the session's bar lines (default the beats of a bar)", quantumAllowed) { o, v, n throws(OptionError) in
                o.linkQuantum = try integer(v, n, in: 1...64, quantumAllowed)
            },
            flag("--link-start-stop", [.run], .link, "share start and stop with the session's peers that share them") { $0.linkStartStop = true },
            flag("--clock-in", [.run], .link, "follow the MIDI beat clock on the clock_in JACK input: its tempo, Start, Stop and Song Position") { $0.clockIn = true },
            value("--connect-clock-in", nil, "PORT", [.run], .link, "JACK MIDI port whose clock clock_in follows, kept across a server restart (repeatable; with --clock-in)",
                  "a JACK MIDI output port", completion: .jackPort(kind: "midi", direction: .output)) { o, v, _ in o.connectClockIn.append(v) },
        ]
    }()

    static let transportAllowed = "one of " + JackTransportMode.allCases.map(\.rawValue).joined(separator: ", ")

    static let clock: [OptionSpec] = {
        let offsetAllowed = "milliseconds from -2000 to 2000, negative sends the clock early"
        return [
            value("--clock-offset", "o", "MS", .playing, .clock, "send the clock MS later (negative: earlier) than the click (12, 12ms)", offsetAllowed) { o, v, n throws(OptionError) in
                o.clockOffsetMilliseconds = try number(v, n, in: -2000...2000, offsetAllowed, unit: "ms")
            },
            flag("--align", [.run], .clock, "delay the click, clock and sync outputs by their JACK playback latencies' differences, so they arrive together (the default; --clock-offset trims on top)") { $0.align = true },
            flag("--no-align", [.run], .clock, "send every output on its grid frame, whatever latency JACK reports for its path") { $0.align = false },
            flag("--clock-while-stopped", .playing, .clock, "send 0xF8 while stopped") { $0.clockWhileStopped = true },
            flag("--no-song-position", .playing, .clock, "no Song Position Pointer on stop and continue") { $0.sendSongPosition = false },
        ]
    }()

    static let pressure: [OptionSpec] = {
        let modes = PressureConfiguration.Mode.allCases.map(\.rawValue).joined(separator: " or ")
        let channelAllowed = "a MIDI channel from 1 to 16, or omni"
        return [
            value("--pressure-mode", nil, "MODE", [.run], .pressure, "levels (light ±1, strong ±10) or continuous (default levels)", modes,
                  choices: PressureConfiguration.Mode.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
                guard let m = PressureConfiguration.Mode(rawValue: v) else { throw bad(n, v, modes) }
                o.pressureMode = m
            },
            value("--control-channel", nil, "CH", [.run], .pressure, "1 to 16, or omni (default omni)", channelAllowed) { o, v, n throws(OptionError) in
                if v == "omni" { o.controlChannel = .some(nil); return }
                o.controlChannel = .some(MIDIChannel(number: try integer(v, n, in: 1...16, channelAllowed)))
            },
            note("--up-key", "note number of the faster key (default 72)", \.upKey),
            note("--down-key", "note number of the slower key (default 71)", \.downKey),
            note("--preset-key", "note number of the preset key (default 70)", \.presetKey),
            flag("--feedback-midi", [.run], .pressure, "also send the feedback cues as MIDI notes on the clock ports: channel 16, 36 impact, 37 selection, 38 max, 39 commit") { $0.feedbackMIDI = true },
        ]
    }()

    static let presets: [OptionSpec] = [
        value("--preset", "p", "NAME|FILE", .playing, .presets, "start with this preset", "a preset name or a preset file", completion: .preset) { o, v, _ in o.preset = v },
        value("--setlist", nil, "FILE", [.run, .render, .presets], .presets, "preset order for Program Change and next-preset",
              "a set list file, one preset name a line", completion: .file) { o, v, _ in o.setlist = v },
        value("--switch", nil, "bar|now", [.run], .presets, "a preset switch lands on the next bar line (default) or beat", "bar or now",
              choices: ["bar", "now"]) { o, v, n throws(OptionError) in
            switch v {
            case "bar": o.switchPoint = .nextBar
            case "now": o.switchPoint = .nextBeat
            default: throw bad(n, v, "bar (at the next bar line) or now (at the next beat)")
            }
        },
        flag("--names", [.presets], .presets, "only the names, one a line, nothing else (for shell completion)") { $0.presetNamesOnly = true },
    ]

    static let alsa: [OptionSpec] = {
        let port = "an ALSA sequencer port CLIENT:PORT, by name or number"
        return [
            flag("--no-alsa", [.run, .learn], .alsa, "JACK only") { $0.useALSA = false },
            value("--alsa-clock-to", nil, "C:P", [.run], .alsa, "subscribe this port to Tactus:clock (repeatable)", port,
                  completion: .alsaPort(.input)) { o, v, _ in o.alsaClockTo.append(v) },
            value("--alsa-control-from", nil, "C:P", [.run, .learn], .alsa, "subscribe Tactus:control to this port (repeatable)", port,
                  completion: .alsaPort(.output)) { o, v, _ in o.alsaControlFrom.append(v) },
            value("--alsa-clock-from", nil, "C:P", [.run, .clockMeter], .alsa,
                  "follow (clock-meter: measure) the MIDI beat clock from this port, on Tactus's ALSA clock_in (as --clock-in does from JACK)", port,
                  completion: .alsaPort(.output)) { o, v, _ in o.alsaClockFrom = v },
            value("--alsa-lookahead", nil, "MS", [.run], .alsa, "schedule clock events this far ahead (default 5)", "milliseconds from 1 to 100") { o, v, n throws(OptionError) in
                o.alsaLookaheadMilliseconds = try number(v, n, in: 1...100, "milliseconds from 1 to 100", unit: "ms")
            },
        ]
    }()

    static let display: [OptionSpec] = [
        flag("--interactive", [.run], .display, "live display and keys (default when output is a terminal)", short: "i") { $0.interactive = true },
        flag("--no-interactive", [.run], .display, "log lines instead") { $0.interactive = false },
    ]

    static let render: [OptionSpec] = {
        let secondsAllowed = "a duration in seconds, more than 0 and at most 86400"
        let formats = Options.WAVFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return [
            value("--seconds", nil, "N", [.render, .clockMeter], .render, "length of the click track, or of clock-meter's run; up to 86400 (a day) (600, 600s)", secondsAllowed) { o, v, n throws(OptionError) in
                let d = try number(v, n, in: 0...86_400, secondsAllowed, unit: "s")
                guard d > 0 else { throw bad(n, v, secondsAllowed) }
                o.seconds = d
            },
            value("--sample-rate", "r", "HZ", [.render], .render, "default 48000 (44100, 96kHz)", "a sample rate from 8000 to 192000 Hz") { o, v, n throws(OptionError) in
                o.sampleRate = try sampleRate(v, n)
            },
            value("--format", nil, "16|24|float", [.render], .render, "sample format of .wav and .aiff, of .flac 16 or 24 (default 16); .wav is RF64 past 4 GiB", "one of \(formats)",
                  choices: Options.WAVFormat.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
                guard let f = Options.WAVFormat(rawValue: v) else { throw bad(n, v, "one of \(formats)") }
                o.wavFormat = f
                o.wavFormatGiven = true
            },
            value("--midi-log", nil, "FILE", [.render], .render, "write every MIDI event with its absolute frame (- for standard output)",
                  "a file for the MIDI event log, or - for standard output", completion: .file) { o, v, _ in o.midiLog = v },
            value("--block", nil, "FRAMES", [.render], .render, "render block size (default 1024; the result does not depend on it)",
                  "a block size from 1 to 8192 frames") { o, v, n throws(OptionError) in
                o.blockSize = try integer(v, n, in: 1...8192, "a block size from 1 to 8192 frames")
            },
        ] + sync
    }()

    static let syncKindAllowed = "one of " + SyncKind.spellings.joined(separator: ", ")
    static let syncWidthAllowed = "a pulse width in milliseconds from 0.1 to 100"

    /// The sync outputs (docs/DESIGN.md §14): channels of the rendered file after
    /// the click, or the JACK audio ports `sync` and `sync_run` of a live run.
    static let sync: [OptionSpec] = [
        value("--sync-out", nil, "KIND", [.run, .render], .sync,
              "sync pulses on the port sync (render: channel 2): po, volca (2 pulses a quarter note), din24, din48 (clock, run line on sync_run), ppqn:N (modular clock)",
              syncKindAllowed, choices: SyncKind.spellings) { o, v, n throws(OptionError) in
            guard let kind = SyncKind(parsing: v) else { throw bad(n, v, syncKindAllowed) }
            o.syncKind = kind
        },
        value("--sync-width", nil, "MS", [.run, .render], .sync, "sync pulse width (default 15 for po and volca, 5 for ppqn:N, half the pulse for din)",
              syncWidthAllowed) { o, v, n throws(OptionError) in
            o.syncWidthMilliseconds = try number(v, n, in: SyncSettings.widthRange, syncWidthAllowed, unit: "ms")
        },
        value("--sync-reset", nil, "bar|off", [.run, .render], .sync, "ppqn:N's reset line (on sync_run): a pulse on every bar line and at a locate, or none (default off)",
              "bar or off", choices: SyncReset.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
            guard let reset = SyncReset(rawValue: v) else { throw bad(n, v, "bar or off") }
            o.syncReset = reset
        },
        value("--connect-sync", nil, "PORT", [.run], .sync, "audio port the sync pulses go to, e.g. the output a Pocket Operator's input is wired to (repeatable)",
              "a JACK audio input port", completion: .jackPort(kind: "audio", direction: .input)) { o, v, _ in o.connectSync.append(v) },
        value("--connect-sync-run", nil, "PORT", [.run], .sync, "audio port the run line (din24, din48) or reset line (ppqn:N) goes to (repeatable)",
              "a JACK audio input port", completion: .jackPort(kind: "audio", direction: .input)) { o, v, _ in o.connectSyncRun.append(v) },
    ]

    static let general: [OptionSpec] = [
        flag("--help", .all, .general, "this text; after a command, that command's options", short: "h") { $0.showHelp = true },
        flag("--version", .all, .general, "the version", short: "V") { $0.showVersion = true },
    ]

    // MARK: - Building the table

    static func value(_ long: String, _ short: Character?, _ placeholder: String, _ commands: Set<Options.Command>, _ section: OptionSpec.Section,
                      _ help: String, _ allowed: String, choices: [String] = [], completion: OptionSpec.Completion = .none,
                      _ apply: @escaping @Sendable (inout Options, String, String) throws(OptionError) -> Void) -> OptionSpec {
        OptionSpec(long: long, short: short, placeholder: placeholder, commands: commands, section: section, help: help, choices: choices,
                   completion: completion, allowed: allowed, apply: apply)
    }

    static func flag(_ long: String, _ commands: Set<Options.Command>, _ section: OptionSpec.Section, _ help: String, short: Character? = nil,
                     _ set: @escaping @Sendable (inout Options) -> Void) -> OptionSpec {
        OptionSpec(long: long, short: short, placeholder: nil, commands: commands, section: section, help: help, allowed: "", apply: { o, _, _ in set(&o) })
    }

    static func note(_ long: String, _ help: String, _ keyPath: WritableKeyPath<Options, UInt7?> & Sendable) -> OptionSpec {
        let allowed = "a MIDI note number from 0 to 127"
        return value(long, nil, "N", [.run], .pressure, help, allowed) { o, v, n throws(OptionError) in
            o[keyPath: keyPath] = UInt7(try integer(v, n, in: 0...127, allowed))
        }
    }

    static func sample(_ long: String, _ sound: ClickSound, _ help: String) -> OptionSpec {
        value(long, nil, "WAV", .playing, .tempo, help, "a WAV file", completion: .file) { o, v, _ in o.samples[sound] = v }
    }

    // MARK: - Values

    static func bad(_ name: String, _ value: String, _ allowed: String) -> OptionError {
        OptionError("tactus: \(name) '\(value)' is not valid: \(allowed)")
    }

    /// A number, with `unit` after it or not, as a musician writes it: `-6dB`,
    /// `-6 dB` and `-6` are the same gain (the unit's case aside).
    static func number(_ value: String, _ name: String, in range: ClosedRange<Double>, _ allowed: String, unit: String? = nil) throws(OptionError) -> Double {
        guard let d = Double(withoutUnit(value, unit)), d.isFinite, range.contains(d) else {
            // `97,3`: a decimal comma, as many locales write it; the command line takes a point.
            let pointed = String(value.map { $0 == "," ? "." : $0 })
            if value.contains(","), Double(withoutUnit(pointed, unit)) != nil { throw bad(name, value, allowed + "; a decimal point, not a comma: \(pointed)") }
            throw bad(name, value, allowed)
        }
        return d
    }

    static func integer(_ value: String, _ name: String, in range: ClosedRange<Int>, _ allowed: String) throws(OptionError) -> Int {
        guard let i = Int(value), range.contains(i) else { throw bad(name, value, allowed) }
        return i
    }

    /// `97.3`, `97.3bpm`: two decimals is the engine's resolution, more would be silently rounded.
    static func bpm(_ value: String, _ name: String) throws(OptionError) -> BPM {
        let digits = withoutUnit(value, "bpm")
        let d = try number(digits, name, in: 1...999, bpmAllowed)
        if let dot = digits.firstIndex(of: "."), digits[digits.index(after: dot)...].count > 2 { throw bad(name, value, bpmAllowed) }
        return BPM(d)
    }

    /// `48000`, `48000Hz`, `96kHz`, `44.1kHz`.
    static func sampleRate(_ value: String, _ name: String) throws(OptionError) -> Int {
        let allowed = "a sample rate from 8000 to 192000 Hz"
        let lower = value.lowercased()
        let hertz: Double?
        if lower.hasSuffix("khz") {
            hertz = Double(withoutUnit(value, "kHz")).map { $0 * 1000 }
        } else {
            hertz = Double(withoutUnit(value, "Hz"))
        }
        guard let hertz, hertz == hertz.rounded(), (8000...192_000).contains(hertz) else { throw bad(name, value, allowed) }
        return Int(hertz)
    }

    /// `value` without a trailing `unit` (any case) and the spaces before it.
    static func withoutUnit(_ value: String, _ unit: String?) -> String {
        guard let unit, value.lowercased().hasSuffix(unit.lowercased()) else { return value }
        var number = value.dropLast(unit.count)
        while number.last == " " { number = number.dropLast() }
        return String(number)
    }
}
