/// `tactus --help` (the commands), `tactus COMMAND --help` (that command's
/// options, from `OptionTable`).
public enum Help {
    /// `tactus --help`: what each command does and how it is called.
    public static var text: String {
        var lines = ["Usage: tactus [COMMAND] [OPTIONS] [ARGUMENTS]", "", "Commands:"]
        let width = (Options.Command.allCases.map(\.rawValue.count).max() ?? 0) + 2
        for command in Options.Command.allCases {
            lines.append("  " + Format.padded(command.rawValue, width) + command.summary)
        }
        lines += ["", "Usage of each:"]
        lines += Options.Command.allCases.flatMap(\.usage).map { "  " + $0 }
        lines += ["", "tactus COMMAND --help lists the options of that command (tactus run --help: the metronome's).",
                  "The manual: man tactus once installed; from a clone, tactus --help-man | man -l - (the page, generated)."]
        lines += optionLines(OptionTable.general)
        lines.append(badValues)
        return lines.joined(separator: "\n")
    }

    /// `tactus COMMAND --help`: its usage, then its options by section, then its notes.
    public static func text(for command: Options.Command) -> String {
        var lines = ["Usage: " + command.usage[0]] + command.usage.dropFirst().map { "       " + $0 }
        lines += ["", command.summary.prefix(1).uppercased() + command.summary.dropFirst() + "."]
        let options = OptionTable.options(of: command)
        let column = options.map(\.synopsis.count).max()
        for section in OptionSpec.Section.allCases {
            let inSection = options.filter { $0.section == section }
            guard !inSection.isEmpty else { continue }
            lines += ["", section.rawValue + ":"]
            lines += optionLines(inSection, column: column)
        }
        if !command.notes.isEmpty { lines += [""] + command.notes }
        lines.append(badValues)
        return lines.joined(separator: "\n")
    }

    static let badValues = "Bad values exit with status 2 and one line naming the option and what is allowed (and the word meant, for a typo)."

    /// Where the manual is, installed or from a clone (`tactus --help-man` writes tactus(1)).
    static let whereIsTheManual = "the manual is man tactus once installed; from a clone, tactus --help-man | man -l -; tactus --help lists the commands"

    /// `  -b, --bpm BPM              tempo, …`: the synopses in one column, as
    /// wide as the widest of the command's (`column`), two spaces before the help.
    static func optionLines(_ options: [OptionSpec], column: Int? = nil) -> [String] {
        let width = column ?? options.map(\.synopsis.count).max() ?? 0
        return options.map { "  " + Format.padded($0.synopsis, width) + "  " + $0.help }
    }
}

extension Options.Command {
    /// One line: what the command does.
    var summary: String {
        switch self {
        case .run: "click on JACK, MIDI clock on JACK MIDI and the ALSA sequencer (the default command)"
        case .render: "render a click track to a WAV, AIFF, FLAC or Ogg file offline, by the engine code the JACK callback runs"
        case .presets: "list the presets with their Program Change numbers, or check preset files"
        case .ports: "list the ALSA sequencer and JACK ports Tactus can connect to"
        case .learn: "map the control keys and calibrate aftertouch (saves controller.json)"
        case .clockMeter: "measure a MIDI beat clock: tempo, interval spread, worst deviation, drift in ppm, ticks missing, a line a second"
        }
    }

    /// How it is called, one form a line.
    var usage: [String] {
        switch self {
        case .run: ["tactus [run] [OPTIONS] [PORT...]", "tactus [run] [OPTIONS] [METER] TEMPO [PATTERN] [PORT...]   (klick's form)"]
        case .render: ["tactus render OUT.wav --seconds N [OPTIONS]"]
        case .presets: ["tactus presets [--setlist FILE] [--names]", "tactus presets check [FILE|NAME...]"]
        case .ports: ["tactus ports [-s SERVER]"]
        case .learn: ["tactus learn [OPTIONS]"]
        case .clockMeter: ["tactus clock-meter PORT [OPTIONS]", "tactus clock-meter --alsa-clock-from C:P [OPTIONS]"]
        }
    }

    /// What the options do not say.
    var notes: [String] {
        switch self {
        case .run: [
            "PORT...: audio ports the click goes to; a JACK port name has a colon (system:playback_1).",
            "klick's form: tactus 7/8 133 X.x.x.. is meter, tempo and accents in klick's order. Its tempo counts",
            "  quarter notes, as klick's does (7/8 at 133 plays 266 eighths a minute); --bpm counts the meter's unit.",
            "The tempo: --bpm, else the preset's, else the last tempo, else 120. The last tempo is saved when a",
            "  pressure hold ends, when the tempo keys (arrows) change it and when taps set it; a preset does not.",
        ]
        case .render: [
            "--map FILE sets each entry's tempo, meter and pattern: --bpm, --meter and --accents are refused with it.",
            "The tempo: --bpm, else the preset's, else 120. A render never reads the last tempo, so a command",
            "  renders the same file each time.",
            "The file's extension chooses its type: .wav, .aiff (.aif), .flac (16 or 24 bit) or .ogg (Ogg Vorbis,",
            "  lossy: no --format); no extension is WAV; - (standard output) is refused, the header comes last.",
            "WAV files past 4 GiB are RF64 (WAV with 64-bit sizes, EBU Tech 3306), as libsndfile, sox and DAWs read.",
            "--sync-out KIND adds a sync track after the click: channel 2 the pulses (full scale, +1.0), channel 3",
            "  DIN sync's run line (din24, din48) or ppqn:N's reset (--sync-reset bar); play it to the device's sync in.",
        ]
        case .presets: [
            "check without FILE checks every file of both preset folders; a NAME checks that preset's file.",
            "A user preset wins a name or Program Change number it shares with a shipped one.",
        ]
        case .ports: []
        case .learn: ["Listens on tactus:control (JACK) and Tactus:control (ALSA) like tactus run; the click stays silent."]
        case .clockMeter: [
            "PORT: a JACK MIDI output (tactus ports lists them); the meter's client tactus-meter reads it on clock_in, in frames,",
            "  so the figures are the sender's (JACK MIDI is sample-accurate), not the meter's.",
            "Each second: the tempo (0.01 BPM) and the spread (σ) of the tick intervals and the worst one's distance from their",
            "  mean, over the last 4 beats (96 intervals); the drift in ppm (+: faster) against --bpm, or without it against",
            "  the first beat's tempo rounded to 0.01 BPM (fixed again at each Start and Continue); ticks missing.",
            "Start, Stop, Continue, Song Position and malformed bytes are a line each, as they come; the meter goes on.",
            "--alsa-clock-from C:P: the clock of an ALSA sequencer port (tactus ports lists them: out), timed by the kernel's",
            "  arrival stamps (µs), so the figures are the sender's and the sequencer's delivery, not the meter's reads.",
            "Exit status 1: no JACK server or ALSA sequencer, no such port, or the server went away.",
        ]
        }
    }
}
