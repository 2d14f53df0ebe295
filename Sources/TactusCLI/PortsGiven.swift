/// `tactus --print-ports-given WORDS…` (hidden): whether `tactus WORDS…` would
/// run the metronome with the click connected to ports given on the command
/// line, decided by the parser `tactus` uses. `scripts/run` asks it before adding
/// the system playback ports, so a colon inside an option's value
/// (`--connect-clock 'ardour:MIDI Clock in'`, `--preset "Pressure: continuous"`)
/// is not taken for a port.
enum PortsGiven {
    static let option = "--print-ports-given"

    /// `yes`: a run with click ports; `no`: a run without (add some); `other`:
    /// not a run (render, presets, help) or words tactus refuses (it will say why).
    static func answer(_ words: [String]) -> String {
        guard let options = try? OptionParser.parse(words), options.command == .run, !options.showHelp, !options.showVersion else {
            return "other"
        }
        return options.arguments.isEmpty ? "no" : "yes"
    }
}
