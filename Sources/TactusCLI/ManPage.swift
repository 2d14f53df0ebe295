/// `tactus --help-man` (hidden): the manual page tactus(1), in man(7) roff,
/// built from `OptionTable` and the commands' usage and notes as `--help` is,
/// so the page, the help and the completion cannot disagree. `scripts/package`
/// writes it to /usr/share/man/man1/tactus.1.gz.
enum ManPage {
    static let option = "--help-man"

    static var text: String {
        var page = [".TH TACTUS 1 \"\" \"tactus \(TactusVersion.string)\" \"User Commands\""]
        page += [".SH NAME", "tactus \\- real\\-time metronome and MIDI beat clock for JACK and the ALSA sequencer"]
        page += [".SH SYNOPSIS", ".nf"]
        page += Options.Command.allCases.flatMap(\.usage).map { "\\fBtactus\\fR" + roff(String($0.dropFirst("tactus".count))) }
        page += [".fi", ".SH DESCRIPTION"]
        page += description.map(roff)
        page.append(".SH COMMANDS")
        for command in Options.Command.allCases {
            page += [".TP", "\\fB\(command.rawValue)\\fR", roff(sentence(command.summary))]
            page += paragraphs(command.notes).flatMap { [".IP", roff($0)] }
        }
        page.append(".SH OPTIONS")
        for section in OptionSpec.Section.allCases {
            let options = OptionTable.all.filter { $0.section == section }
            guard !options.isEmpty else { continue }
            page.append(".SS " + roff(section.rawValue))
            for spec in options { page += entry(spec) }
        }
        page += [".PP", roff(Help.badValues)]
        page += section("PRESET FILES", presetFormat) + section("CONTROLLER FILE", controllerFormat)
        page += [".SH FILES"] + files.flatMap(item)
        page += [".SH ENVIRONMENT"] + environment.flatMap(item)
        page += [".SH EXIT STATUS"] + exitStatus.flatMap(item)
        page.append(".SH EXAMPLES")
        for (command, says) in examples { page += [".PP", roff(says), ".RS", ".nf", "\\fB" + roff(command) + "\\fR", ".fi", ".RE"] }
        page += [".SH SEE ALSO", ".BR jackd (1),", ".BR klick (1),", ".BR aconnect (1)"]
        return page.joined(separator: "\n") + "\n"
    }

    /// `.TP` `\fB-b\fR, \fB--bpm\fR \fIBPM\fR`, its help, what it takes, its commands.
    static func entry(_ spec: OptionSpec) -> [String] {
        let names = spec.names.map { "\\fB" + roff($0) + "\\fR" }.joined(separator: ", ")
        // The help as --help words it (`none, eighths, …` stays lower case).
        var lines = [".TP", names + (spec.placeholder.map { " \\fI" + roff($0) + "\\fR" } ?? ""), roff(spec.help + (spec.help.hasSuffix(".") ? "" : "."))]
        if spec.takesValue { lines.append(roff(sentence("Takes " + spec.allowed))) }
        // The usual values of a free one (meters); where `allowed` names them all, it said them.
        if !spec.choices.allSatisfy(spec.allowed.contains) { lines.append(roff(sentence("Usual values: " + spec.choices.joined(separator: ", ")))) }
        let commands = Options.Command.allCases.filter { spec.commands.contains($0) }.map(\.rawValue)
        lines.append(roff(sentence((commands.count == 1 ? "Command: " : "Commands: ") + commands.joined(separator: ", "))))
        return lines
    }

    static func section(_ title: String, _ body: [String]) -> [String] {
        [".SH " + title] + body.flatMap { $0.hasPrefix(" ") ? [".RS", ".nf", roff($0), ".fi", ".RE"] : [".PP", roff($0)] }
    }

    static func item(_ pair: (String, String)) -> [String] {
        [".TP", "\\fI" + roff(pair.0) + "\\fR", roff(pair.1)]
    }

    /// The notes' lines joined where a line goes on in the next (which starts with two spaces).
    static func paragraphs(_ lines: [String]) -> [String] {
        var result: [String] = []
        for line in lines {
            if line.hasPrefix("  "), let last = result.popLast() {
                result.append(last + " " + line.drop { $0 == " " })
            } else {
                result.append(line)
            }
        }
        return result
    }

    static func sentence(_ text: String) -> String {
        let capital = text.prefix(1).uppercased() + text.dropFirst()
        return capital.hasSuffix(".") ? capital : capital + "."
    }

    /// Text as roff reads it (man(7), groff(7)): a backslash is `\e`, a hyphen a minus
    /// `\-` (options are typed with it), a line cannot start with `.` or `'` (a request),
    /// and a character past ASCII is `\[uXXXX]` so groff needs no input encoding.
    static func roff(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        // One space is one space in filled text; a leading one would break the line.
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    // MARK: - What the table does not hold

    static let description = [
        "Tactus clicks through JACK, sends MIDI beat clock (0xF8, Start, Stop, Continue, Song Position Pointer) over JACK MIDI and the ALSA sequencer, and lets a keyboard player speed up or slow down by pressing a key harder: channel pressure (aftertouch) drives the tempo.",
        "Options may come before or after the command; values are written as getopt programs take them (-b97.3, --bpm=97.3) and with their unit (--gain -6dB, --clock-offset 12ms, -r 44.1kHz).",
    ]

    /// Lines starting with a space are shown as they are (an example file), the others are paragraphs.
    static let presetFormat = [
        "A preset is one JSON file (UTF-8, at most 1 MiB) in a preset folder (see FILES). Only name and tempo are required; a key left out has the engine's default.",
        "  {",
        "    \"format\": 1, \"name\": \"7/8 (2+2+3)\", \"program\": 12,",
        "    \"tempo\": 210, \"meter\": \"7/8\", \"accents\": \"XxXxXxx\", \"subdivision\": \"none\",",
        "    \"sounds\": { \"beat\": { \"sample\": \"samples/rim.wav\", \"gain\": 0.8 } },",
        "    \"clock\": { \"offsetMs\": -5, \"sendSongPosition\": true },",
        "    \"pressure\": { \"mode\": \"continuous\", \"channel\": 1 }",
        "  }",
        "name: 1 to 64 characters; program: 0 to 127, the Program Change that selects it; tempo: 1 to 999 BPM of the meter's unit; meter, accents and subdivision as the options --meter, --accents and --subdivision take them; a sample is \"builtin\" or a WAV file (relative to the preset's folder), a gain 0 to 4.",
        "A user preset with a shipped one's name (ignoring case) hides it. tactus presets check validates files and prints every error of each, file by file in order, with the line and column of the value. A set list (--setlist) is one preset name a line; # starts a comment.",
    ]

    static let controllerFormat = [
        "tactus learn writes the keyboard controller's keys and aftertouch calibration to controller.json (see FILES); run reads it. Every field is required except hasAftertouch (default true):",
        "  {",
        "    \"version\": 1, \"channel\": 1,",
        "    \"upKey\": 72, \"downKey\": 71, \"presetKey\": 70,",
        "    \"hasAftertouch\": true,",
        "    \"calibration\": { \"deadZone\": 2, \"maximum\": 112, \"curve\": \"linear\" }",
        "  }",
        "channel: 1 to 16 or \"omni\"; keys: note numbers 0 to 127; curve: linear, exponential or logarithmic; deadZone 0 to 126 and below maximum, 1 to 127. The options --control-channel, --up-key, --down-key and --preset-key win over the file.",
    ]

    static let files = [
        ("/usr/share/tactus/presets/", "The shipped presets (the first tactus/presets folder of $XDG_DATA_DIRS; a clone's Presets/ when run from its build)."),
        ("~/.config/tactus/presets/", "Your presets ($XDG_CONFIG_HOME/tactus/presets/); they win over the shipped ones."),
        ("~/.config/tactus/controller.json", "The controller mapping and calibration tactus learn saves ($XDG_CONFIG_HOME/tactus/controller.json)."),
        ("~/.local/state/tactus/last-tempo", "The last tempo, restored by run without --bpm or a preset ($XDG_STATE_HOME/tactus/last-tempo)."),
    ]

    static let environment = [
        ("TACTUS_PRESETS_DIR", "The folder of the shipped presets, instead of the one found."),
        ("XDG_CONFIG_HOME", "Where your presets and controller.json are (default ~/.config)."),
        ("XDG_STATE_HOME", "Where the last tempo is kept (default ~/.local/state)."),
        ("XDG_DATA_DIRS", "Where the shipped presets are looked for, as tactus/presets (default /usr/local/share:/usr/share)."),
        ("JACK_DEFAULT_SERVER", "The JACK server to use when -s is not given (libjack reads it)."),
    ]

    static let exitStatus = [
        ("0", "Success; run ends by q, Ctrl-C, SIGINT or SIGTERM."),
        ("1", "A failure while running: no JACK server was ever reached (run ended by Ctrl-C or --wait), clock-meter's port or server missing or gone, a file that cannot be written (render's file or --midi-log: the reason first, the library's words after), learn ended without a result."),
        ("2", "A usage error: an unknown option or command, a bad value, a preset or controller file with an error (one line naming it and what is allowed)."),
    ]

    static let examples = [
        ("tactus --bpm 97.3 --meter 7/8 system:playback_1 system:playback_2", "Click at 97.3 eighths a minute in 7/8 on both playback ports, clock on tactus:clock and Tactus:clock."),
        ("tactus 7/8 133 X.x.x..", "klick's form: meter, tempo in quarter notes, accents."),
        ("tactus --preset Waltz --connect-clock 'a2j:Midi Through [14] (playback): Midi Through Port-0'", "Start with a preset and send the clock to a JACK MIDI port."),
        ("tactus --alsa-clock-to 20:0 --alsa-control-from 24:0", "Clock to an ALSA sequencer port, the controller read from another (aconnect -l lists them too)."),
        ("tactus --wait 10 system:playback_1", "As a service would: exit 1 if no JACK server answered within 10 seconds."),
        ("tactus learn", "Press the control keys and press hard: saves controller.json."),
        ("tactus render click.wav --seconds 600 --bpm 120 --subdivision eighths", "Ten minutes of click track, offline."),
        ("tactus render song.flac --map song.map", "A klick tempo map rendered whole, to FLAC (.wav, .aiff and .ogg by their names too)."),
        ("tactus --bpm 96 --sync-out po system:playback_2 --connect-sync system:playback_1", "A Pocket Operator in a sync-in mode: the pulses on the left output (the PO's clock input), the click on the right."),
        ("tactus render po.wav --seconds 300 --bpm 96 --sync-out po", "A click track with a Pocket Operator's sync pulses beside it: channel 1 the click, channel 2 the sync."),
        ("tactus presets check ~/.config/tactus/presets/song.json", "Check a preset file and print every error in it."),
        ("tactus clock-meter 'a2j:Drum Machine [20] (capture): Port 1' --bpm 120", "How steady a clock is: its tempo, the spread of its tick intervals, their drift against 120 BPM and ticks missing, a line a second."),
        ("tactus ports", "The ALSA sequencer and JACK ports to give --alsa-clock-to, --connect-clock and the like."),
    ]
}
