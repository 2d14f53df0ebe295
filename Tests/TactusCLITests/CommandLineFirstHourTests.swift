import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// What a musician met in the first hour on the
/// command line, one test per item.
@Suite("Command line: the first hour")
struct CommandLineFirstHourTests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-first-hour-\(UUID().uuidString)-\(name)"
    }

    func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    // MARK: - 1. A bare word is not a port

    @Test func item1_bareWordIsNotAPort() throws {
        // A mistyped command: status 2 and the command it most likely meant, before JACK is tried.
        let typo = try TactusProcess.run(["rendr", "out.wav"])
        #expect(typo.status == 2)
        #expect(typo.standardError == "tactus: unknown command 'rendr' (did you mean render?)\n")
        #expect(throws: OptionError("tactus: unknown command 'rendr' (did you mean render?)")) { try OptionParser.parse(["rendr", "out.wav"]) }
        #expect(throws: OptionError("tactus: unknown command 'foo': one of run, render, presets, ports, learn, clock-meter; a JACK port has a colon "
                                    + "(system:playback_1); klick's form is METER TEMPO PATTERN (e.g. 7/8 133 X.x.x..)")) {
            try OptionParser.parse(["foo"])
        }

        // Options before the command work: 130 BPM, a MIDI clock every 48 000 × 60 / 130 / 24 = 923.08 frames.
        let wav = temporary("130.wav"), log = temporary("130.log")
        defer { try? FileManager.default.removeItem(atPath: wav); try? FileManager.default.removeItem(atPath: log) }
        let render = try TactusProcess.run(["--bpm", "130", "render", wav, "--seconds", "1", "--midi-log", log])
        #expect(render.status == 0, "\(render.standardError)")
        #expect(try lines(log).prefix(4) == ["0 FA start", "0 F8 clock", "923 F8 clock", "1846 F8 clock"])
        // An option of another command says where it belongs.
        #expect(throws: OptionError("tactus: --seconds is not an option of run (no command given: tactus runs the metronome): "
                                    + "it belongs to render and clock-meter (tactus render --help)")) {
            try OptionParser.parse(["--bpm", "130", "--seconds", "3"])
        }
        #expect(throws: OptionError("tactus: --connect-clock is not an option of render: it belongs to run (tactus run --help)")) {
            try OptionParser.parse(["render", "x.wav", "--seconds", "1", "--connect-clock", "a:b"])
        }

        // klick's positional form, in klick's order; ports (a colon) anywhere.
        var klick = try OptionParser.parse(["7/8", "133", "X.x.x..", "system:playback_1"])
        #expect(klick.command == .run)
        #expect(klick.meter == Meter("7/8"))
        #expect(klick.accents == AccentPattern("X.x.x.."))
        #expect(klick.arguments == ["system:playback_1"])
        #expect(klick.quarterNoteTempo == BPM(133))
        // klick's tempo counts quarter notes whatever the meter: 133 quarter notes are 266 eighths.
        try klick.resolveQuarterNoteTempo(meter: Meter("7/8")!)
        #expect(klick.tempo == BPM(266))
        // A quarter-note tempo the meter's unit cannot hold at two decimals, or beyond 999, is refused.
        var whole = try OptionParser.parse(["3/1", "97.33"])
        #expect(throws: OptionError("tactus: the tempo 97.33 counts quarter notes, as in klick; in 3/1 that is 24.3325 beats a minute, "
                                    + "not a tempo from 1 to 999 with two decimals at most")) { try whole.resolveQuarterNoteTempo(meter: whole.meter!) }
        var fast = try OptionParser.parse(["7/8", "600"])
        #expect(throws: OptionError("tactus: the tempo 600 counts quarter notes, as in klick; in 7/8 that is 1200 beats a minute, "
                                    + "not a tempo from 1 to 999 with two decimals at most")) { try fast.resolveQuarterNoteTempo(meter: fast.meter!) }
        var waltz = try OptionParser.parse(["3/4", "96"])
        try waltz.resolveQuarterNoteTempo(meter: waltz.meter!)
        #expect(waltz.tempo == BPM(96) && waltz.meter == Meter("3/4") && waltz.arguments.isEmpty)
        // klick's speed trainer as it is: 80 to 120 quarter notes, a BPM faster every 10 bars (in 6/8: eighths, twice the numbers).
        var trainer = try OptionParser.parse(["80-120/10"])
        try trainer.resolveQuarterNoteTempo(meter: .fourFour)
        #expect(trainer.trainer == SpeedTrainer(from: BPM(80), to: BPM(120), bars: 10, stepHundredths: 100))
        var compound = try OptionParser.parse(["6/8", "80-120/10", "X..x.."])
        try compound.resolveQuarterNoteTempo(meter: compound.meter!)
        #expect(compound.trainer == SpeedTrainer(from: BPM(160), to: BPM(240), bars: 10, stepHundredths: 200))
        #expect(compound.accents == AccentPattern("X..x.."))
        #expect(throws: OptionError("tactus: the tempo is given twice: '133' and --bpm")) { try OptionParser.parse(["-b", "90", "133"]) }
        // The start line says what klick's number became.
        #expect(StartLine.text(tempo: BPM(266), source: .klick(quarterNotes: BPM(133)), bar: try klick.barSettings(), startStopped: false)
                == "tactus: 266 BPM (eighths: 133 quarter notes a minute, as klick counts), 7/8 X.x.x.., no subdivision; Ctrl-C to quit")
    }

    // MARK: - 2. Option typos, attached values, units

    @Test func item2_optionTyposGetSuggestionsAndValuesTakeUnits() throws {
        #expect(throws: OptionError("tactus: unknown option '--bmp' (did you mean --bpm?)")) { try OptionParser.parse(["--bmp", "120"]) }
        #expect(throws: OptionError("tactus: unknown option '--sample-bet' (did you mean --sample-beat?)")) { try OptionParser.parse(["--sample-bet", "a.wav"]) }
        #expect(throws: OptionError("tactus: unknown option '--frobnicate' (tactus --help lists them)")) { try OptionParser.parse(["--frobnicate"]) }
        #expect(try OptionParser.parse(["-b97.3"]).tempo == BPM(97.3))
        #expect(try OptionParser.parse(["--bpm=97.3"]).tempo == BPM(97.3))
        #expect(try OptionParser.parse(["--bpm", "97.3bpm"]).tempo == BPM(97.3))
        #expect(try OptionParser.parse(["--gain", "-6dB"]).gainDecibels == -6)
        #expect(try OptionParser.parse(["-g-6db"]).gainDecibels == -6)
        #expect(try OptionParser.parse(["--gain", "-6 dB"]).gainDecibels == -6)
        #expect(try OptionParser.parse(["--clock-offset", "12ms"]).clockOffsetMilliseconds == 12)
        #expect(try OptionParser.parse(["-o-7.5ms"]).clockOffsetMilliseconds == -7.5)
        #expect(try OptionParser.parse(["--alsa-lookahead=8ms"]).alsaLookaheadMilliseconds == 8)
        #expect(try OptionParser.parse(["render", "x.wav", "--seconds", "30s"]).seconds == 30)
        #expect(try OptionParser.parse(["render", "x.wav", "-r", "44.1kHz"]).sampleRate == 44_100)
        #expect(try OptionParser.parse(["render", "x.wav", "-r96000Hz"]).sampleRate == 96_000)
        // A unit that is not the option's is still an error naming the option.
        #expect(throws: OptionError("tactus: --gain '-6ms' is not valid: a gain in dB from -60 to 12")) { try OptionParser.parse(["--gain", "-6ms"]) }
        #expect(throws: OptionError("tactus: -b '97.333' is not valid: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)")) {
            try OptionParser.parse(["-b97.333"])
        }
        #expect(throws: OptionError("tactus: -i takes no value")) { try OptionParser.parse(["-iV"]) }
    }

    // MARK: - 3. Per-command help, from one table

    /// The help's option lines of `text`: those that start with two spaces and a dash, or six spaces and `--`.
    func optionLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  -") || $0.hasPrefix("      --") }
    }

    @Test func item3_eachCommandsHelpListsItsOptionsOnly() throws {
        for command in Options.Command.allCases {
            let r = try TactusProcess.run([command.rawValue, "--help"])
            #expect(r.status == 0)
            #expect(r.standardOutput == Help.text(for: command) + "\n")
            let shown = optionLines(r.standardOutput).map { $0.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true) }
            let longNames = shown.map { words in String(words.first { $0.hasPrefix("--") } ?? "") }
            #expect(longNames == OptionSpec.Section.allCases.flatMap { section in
                OptionTable.options(of: command).filter { $0.section == section }.map(\.long)
            }, "\(command)")
        }
        let render = Help.text(for: .render), ports = Help.text(for: .ports), learn = Help.text(for: .learn)
        #expect(render.contains("      --seconds N") && !render.contains("--connect-clock") && !render.contains("--pressure-mode"))
        #expect(optionLines(ports) == ["  -s, --server NAME  JACK server name", "  -h, --help         this text; after a command, that command's options",
                                       "  -V, --version      the version"])
        #expect(learn.contains("--connect-control PORT") && !learn.contains("--connect-clock") && !learn.contains("--bpm"))
        #expect(Help.text(for: .presets).contains("--setlist FILE") && !Help.text(for: .presets).contains("--bpm"))
        // The global help lists the commands, not every option.
        let global = try TactusProcess.run(["--help"])
        #expect(global.standardOutput.hasPrefix("Usage: tactus [COMMAND] [OPTIONS] [ARGUMENTS]\n\nCommands:\n  run          click on JACK"))
        for command in Options.Command.allCases { #expect(global.standardOutput.contains("\n  \(command.rawValue)  ")) }
        #expect(!global.standardOutput.contains("--bpm"))
        // The table a man page and completions will be generated from: every name once, a help line, a command.
        let names = OptionTable.all.flatMap(\.names)
        #expect(Set(names).count == names.count)
        for spec in OptionTable.all {
            #expect(spec.long.hasPrefix("--") && !spec.help.isEmpty && !spec.commands.isEmpty, "\(spec.long)")
            #expect(spec.takesValue == !spec.allowed.isEmpty, "\(spec.long): a value option says what it allows")
            // Each choice a completion would offer is one the parser takes, for one of its commands.
            for choice in spec.choices {
                let command = Options.Command.allCases.first { spec.commands.contains($0) }!
                #expect(throws: Never.self, "\(spec.long) \(choice)") { try OptionParser.parse([command.rawValue, spec.long, choice] + (command == .render ? ["x.wav"] : [])) }
            }
        }
        #expect(OptionTable.all.filter { !$0.choices.isEmpty }.map(\.long) == ["--meter", "--subdivision", "--pulse", "--transport", "--pressure-mode", "--switch", "--action", "--format", "--sync-out", "--sync-reset"])
    }

    // MARK: - 4. --midi-log -, and the option a bad sample came from

    @Test func item4_midiLogToStandardOutputAndBadSamplesNameTheirOption() throws {
        let wav = temporary("log.wav"), log = temporary("log.txt"), bad = temporary("bad.wav")
        defer { for f in [wav, log, bad] { try? FileManager.default.removeItem(atPath: f) } }
        let toFile = try TactusProcess.run(["render", wav, "--seconds", "2", "--midi-log", log])
        let toOutput = try TactusProcess.run(["render", wav, "--seconds", "2", "--midi-log", "-"])
        #expect(toOutput.status == 0)
        // Standard output is the log alone, line for line the file's; the summary goes to standard error.
        #expect(toOutput.standardOutput == (try String(contentsOfFile: log, encoding: .utf8)))
        #expect(toOutput.standardOutput.hasPrefix("0 FA start\n0 F8 clock\n1000 F8 clock\n"))
        #expect(toOutput.standardError.hasPrefix("tactus: rendered 96000 frames (2.0 s at 48000 Hz) to \(wav)"))
        #expect(toFile.standardOutput.hasPrefix("tactus: rendered 96000 frames"))

        try "junk".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try TactusProcess.run(["render", wav, "--seconds", "1", "--sample-beat", bad])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --sample-beat: cannot read '\(bad)': Format not recognised.\n")
        let missing = try TactusProcess.run(["render", wav, "--seconds", "1", "--sample-accent", "/nonexistent/accent.wav"])
        #expect(missing.standardError.hasPrefix("tactus: --sample-accent: cannot read '/nonexistent/accent.wav': "))
    }

    // MARK: - 5. scripts/run asks the parser whether ports were given

    @Test func item5_scriptsRunDecidesPortsWithTactusOwnParser() throws {
        let cases: [([String], String)] = [
            (["--connect-clock", "ardour:MIDI Clock in"], "no"),
            (["--preset", "Pressure: continuous"], "no"),
            (["--alsa-clock-to", "Qtractor:0", "-b", "97.3"], "no"),
            (["7/8", "133", "X.x.x.."], "no"),
            (["system:playback_1"], "yes"),
            (["run", "--bpm", "97.3", "system:playback_1", "system:playback_2"], "yes"),
            (["render", "x.wav", "--seconds", "1"], "other"),
            (["--help"], "other"),
            (["--bmp", "120"], "other"),
        ]
        for (words, answer) in cases {
            let r = try TactusProcess.run([PortsGiven.option] + words)
            #expect(r.status == 0)
            #expect(r.standardOutput == answer + "\n", "\(words)")
        }
        // The script asks that question and looks for no colon of its own.
        let script = try String(contentsOfFile: RepositoryFiles.root + "/scripts/run", encoding: .utf8)
        #expect(script.contains(#"[ "$("$bin" --print-ports-given "$@")" != no ] || set -- "$@" system:playback_1 system:playback_2"#))
        #expect(!script.contains("*:*)"))
    }

    // MARK: - 8. The last tempo, explained

    @Test func item8_theStartLineSaysWhereTheTempoCameFromAndRenderDoesNotReadTheLastTempo() throws {
        let state = temporary("state")
        try FileManager.default.createDirectory(atPath: state + "/tactus", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let store = LastTempoStore(path: state + "/tactus/last-tempo")
        let bar = BarSettings()
        let noPreset: PresetEntry? = nil
        #expect(StartLine.text(try OptionParser.parse([]), tempo: BPM(120), bar: bar, preset: noPreset, lastTempo: store, startStopped: false)
                == "tactus: 120 BPM (the default; --bpm or a preset to choose another), 4/4 Xxxx, no subdivision; Ctrl-C to quit")
        try store.save(BPM(133))
        #expect(StartLine.text(try OptionParser.parse([]), tempo: BPM(133), bar: bar, preset: noPreset, lastTempo: store, startStopped: false)
                == "tactus: 133 BPM (the last tempo; --bpm or a preset to choose another), 4/4 Xxxx, no subdivision; Ctrl-C to quit")
        #expect(StartLine.text(try OptionParser.parse(["--bpm", "90"]), tempo: BPM(90), bar: bar, preset: noPreset, lastTempo: store, startStopped: true)
                == "tactus: 90 BPM, 4/4 Xxxx, no subdivision; stopped, waiting for start; Ctrl-C to quit")
        let waltz = PresetEntry(preset: Preset(name: "Waltz", tempo: BPM(168)), file: "/w.json", origin: .shipped)
        #expect(StartLine.source(try OptionParser.parse([]), preset: waltz, lastTempo: store) == .preset(name: "Waltz"))
        // The help says which changes save it.
        #expect(Help.text(for: .run).contains("The last tempo is saved when a\n  pressure hold ends, when the tempo keys (arrows) change it and when taps set it; a preset does not."))
        // render: 120 unless --bpm or a preset, with a last tempo of 133 saved: a clock every 1000 frames.
        #expect(Help.text(for: .render).contains("The tempo: --bpm, else the preset's, else 120. A render never reads the last tempo"))
        let wav = temporary("120.wav"), log = temporary("120.log")
        defer { try? FileManager.default.removeItem(atPath: wav); try? FileManager.default.removeItem(atPath: log) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "1", "--midi-log", log], environment: ["XDG_STATE_HOME": state])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(try lines(log).prefix(3) == ["0 FA start", "0 F8 clock", "1000 F8 clock"])
    }
}

/// Files of the repository, found from this source file.
enum RepositoryFiles {
    static var root: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}
