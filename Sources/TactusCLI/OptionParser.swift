import TactusCore

/// Parses `tactus [COMMAND] [OPTIONS] [ARGUMENTS]` in the style of JACK tools:
/// short `-n NAME`, long `--bpm 120` or `--bpm=120`, `--` ends options.
public enum OptionParser {
    public static func parse(_ words: [String]) throws(OptionError) -> Options {
        var options = Options()
        var rest = words[...]
        if let first = rest.first, let command = Options.Command(rawValue: first) {
            options.command = command
            rest = rest.dropFirst()
        }
        var onlyArguments = false
        while let word = rest.popFirst() {
            if onlyArguments || !word.hasPrefix("-") || word == "-" {
                options.arguments.append(word)
                continue
            }
            if word == "--" { onlyArguments = true; continue }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inlineValue = String(word[word.index(after: eq)...])
            }
            guard let option = OptionParser.table[name] else {
                throw OptionError("tactus: unknown option '\(name)' (tactus --help lists them)")
            }
            var value: String?
            if option.takesValue {
                if let inlineValue {
                    value = inlineValue
                } else if let next = rest.popFirst() {
                    value = next
                } else {
                    throw OptionError("tactus: \(name) needs a value: \(option.allowed)")
                }
            } else if inlineValue != nil {
                throw OptionError("tactus: \(name) takes no value")
            }
            try option.apply(&options, value ?? "", name)
        }
        return options
    }

    struct Option: Sendable {
        var takesValue: Bool
        /// What values are allowed, for the error message.
        var allowed: String
        var apply: @Sendable (inout Options, String, String) throws(OptionError) -> Void
    }

    static func bad(_ name: String, _ value: String, _ allowed: String) -> OptionError {
        OptionError("tactus: \(name) '\(value)' is not valid: \(allowed)")
    }

    static func number(_ value: String, _ name: String, in range: ClosedRange<Double>, _ allowed: String) throws(OptionError) -> Double {
        guard let d = Double(value), d.isFinite, range.contains(d) else { throw bad(name, value, allowed) }
        return d
    }

    static func integer(_ value: String, _ name: String, in range: ClosedRange<Int>, _ allowed: String) throws(OptionError) -> Int {
        guard let i = Int(value), range.contains(i) else { throw bad(name, value, allowed) }
        return i
    }

    static func flag(_ set: @escaping @Sendable (inout Options) -> Void) -> Option {
        Option(takesValue: false, allowed: "") { o, _, _ in set(&o) }
    }

    static func value(_ allowed: String, _ set: @escaping @Sendable (inout Options, String, String) throws(OptionError) -> Void) -> Option {
        Option(takesValue: true, allowed: allowed, apply: set)
    }

    static func note(_ allowed: String, _ keyPath: WritableKeyPath<Options, UInt7?> & Sendable) -> Option {
        value(allowed) { o, v, n throws(OptionError) in
            o[keyPath: keyPath] = UInt7(try integer(v, n, in: 0...127, allowed))
        }
    }

    static func sample(_ sound: ClickSound) -> Option {
        value("a WAV file") { o, v, _ in o.samples[sound] = v }
    }

    static let bpmAllowed = "a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"

    /// Every option, by every name it answers to.
    static let table: [String: Option] = {
        var t: [String: Option] = [:]
        func add(_ names: [String], _ o: Option) { for n in names { t[n] = o } }
        add(["-h", "--help"], flag { $0.showHelp = true })
        add(["-V", "--version"], flag { $0.showVersion = true })
        add(["-b", "--bpm"], value(bpmAllowed) { o, v, n throws(OptionError) in
            let d = try number(v, n, in: 1...999, bpmAllowed)
            // Two decimals is the engine's resolution; more would be silently rounded.
            if let dot = v.firstIndex(of: "."), v[v.index(after: dot)...].count > 2 { throw bad(n, v, bpmAllowed) }
            o.tempo = BPM(d)
        })
        add(["-m", "--meter"], value("N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)") { o, v, n throws(OptionError) in
            guard let m = Meter(v) else { throw bad(n, v, "N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)") }
            o.meter = m
        })
        add(["-a", "--accents"], value("one symbol a beat: X accent, x normal, . silent (e.g. X.x.x..), up to 32") { o, v, n throws(OptionError) in
            guard let a = AccentPattern(v) else { throw bad(n, v, "one symbol a beat: X accent, x normal, . silent (e.g. X.x.x..), up to 32") }
            o.accents = a
        })
        let subdivisions = Subdivision.allCases.map(\.rawValue).joined(separator: ", ")
        add(["-d", "--subdivision"], value("one of \(subdivisions)") { o, v, n throws(OptionError) in
            guard let s = Subdivision(rawValue: v) else { throw bad(n, v, "one of \(subdivisions)") }
            o.subdivision = s
        })
        add(["-g", "--gain"], value("a gain in dB from -60 to 12") { o, v, n throws(OptionError) in
            o.gainDecibels = try number(v, n, in: -60...12, "a gain in dB from -60 to 12")
        })
        add(["--mute"], flag { $0.mute = true })
        add(["--sample-accent"], sample(.accent))
        add(["--sample-beat"], sample(.beat))
        add(["--sample-subdivision"], sample(.subdivision))
        add(["-n", "--name"], value("a JACK client name") { o, v, n throws(OptionError) in
            guard !v.isEmpty, v.utf8.count <= 63 else { throw bad(n, v, "a JACK client name of 1 to 63 bytes") }
            o.clientName = v
        })
        add(["-s", "--server"], value("a JACK server name") { o, v, _ in o.serverName = v })
        add(["--connect-clock"], value("a JACK MIDI input port (e.g. 'ardour:MIDI clock in')") { o, v, _ in o.connectClock.append(v) })
        add(["--connect-feedback"], value("a JACK audio input port") { o, v, _ in o.connectFeedback.append(v) })
        add(["--connect-control"], value("a JACK MIDI output port") { o, v, _ in o.connectControl.append(v) })
        add(["--start-stopped"], flag { $0.startStopped = true })
        add(["-o", "--clock-offset"], value("milliseconds from -2000 to 2000, negative sends the clock early") { o, v, n throws(OptionError) in
            o.clockOffsetMilliseconds = try number(v, n, in: -2000...2000, "milliseconds from -2000 to 2000, negative sends the clock early")
        })
        add(["--clock-while-stopped"], flag { $0.clockWhileStopped = true })
        add(["--no-song-position"], flag { $0.sendSongPosition = false })
        let modes = PressureConfiguration.Mode.allCases.map(\.rawValue).joined(separator: " or ")
        add(["--pressure-mode"], value(modes) { o, v, n throws(OptionError) in
            guard let m = PressureConfiguration.Mode(rawValue: v) else { throw bad(n, v, modes) }
            o.pressureMode = m
        })
        add(["--control-channel"], value("a MIDI channel from 1 to 16, or omni") { o, v, n throws(OptionError) in
            if v == "omni" { o.controlChannel = .some(nil); return }
            o.controlChannel = .some(MIDIChannel(number: try integer(v, n, in: 1...16, "a MIDI channel from 1 to 16, or omni")))
        })
        add(["--up-key"], note("a MIDI note number from 0 to 127", \.upKey))
        add(["--down-key"], note("a MIDI note number from 0 to 127", \.downKey))
        add(["--preset-key"], note("a MIDI note number from 0 to 127", \.presetKey))
        add(["--feedback-midi"], flag { $0.feedbackMIDI = true })
        add(["-p", "--preset"], value("a preset name or a preset file") { o, v, _ in o.preset = v })
        add(["--setlist"], value("a set list file, one preset name a line") { o, v, _ in o.setlist = v })
        add(["--switch"], value("bar or now") { o, v, n throws(OptionError) in
            switch v {
            case "bar": o.switchPoint = .nextBar
            case "now": o.switchPoint = .nextBeat
            default: throw bad(n, v, "bar (at the next bar line) or now (at the next beat)")
            }
        })
        add(["--no-alsa"], flag { $0.useALSA = false })
        add(["--alsa-clock-to"], value("an ALSA sequencer port CLIENT:PORT, by name or number") { o, v, _ in o.alsaClockTo.append(v) })
        add(["--alsa-control-from"], value("an ALSA sequencer port CLIENT:PORT, by name or number") { o, v, _ in o.alsaControlFrom.append(v) })
        add(["--alsa-lookahead"], value("milliseconds from 1 to 100") { o, v, n throws(OptionError) in
            o.alsaLookaheadMilliseconds = try number(v, n, in: 1...100, "milliseconds from 1 to 100")
        })
        add(["-i", "--interactive"], flag { $0.interactive = true })
        add(["--no-interactive"], flag { $0.interactive = false })
        add(["--seconds"], value("a duration in seconds, more than 0 and at most 86400") { o, v, n throws(OptionError) in
            let d = try number(v, n, in: 0...86_400, "a duration in seconds, more than 0 and at most 86400")
            guard d > 0 else { throw bad(n, v, "a duration in seconds, more than 0 and at most 86400") }
            o.seconds = d
        })
        add(["-r", "--sample-rate"], value("a sample rate from 8000 to 192000 Hz") { o, v, n throws(OptionError) in
            o.sampleRate = try integer(v, n, in: 8000...192_000, "a sample rate from 8000 to 192000 Hz")
        })
        add(["--block"], value("a block size from 1 to 8192 frames") { o, v, n throws(OptionError) in
            o.blockSize = try integer(v, n, in: 1...8192, "a block size from 1 to 8192 frames")
        })
        add(["--midi-log"], value("a file for the MIDI event log") { o, v, _ in o.midiLog = v })
        let formats = Options.WAVFormat.allCases.map(\.rawValue).joined(separator: ", ")
        add(["--format"], value("one of \(formats)") { o, v, n throws(OptionError) in
            guard let f = Options.WAVFormat(rawValue: v) else { throw bad(n, v, "one of \(formats)") }
            o.wavFormat = f
        })
        return t
    }()
}
