#if canImport(Glibc)
import Glibc
#endif
import TactusALSA
import TactusCore
import TactusJACK

/// `tactus clock-meter PORT`: how steady a MIDI beat clock is, a line a second
/// (docs/DESIGN.md §9.1, "The meter"; `JackClockMeter`). The clock comes from a
/// JACK MIDI output; its figures are measured in the frames the sender put its
/// ticks at.
public enum ClockMeterCommand {
    public static func run(_ options: Options) -> Int32 {
        if let alsa = options.alsaClockFrom { return runALSA(options, source: alsa) }
        guard options.arguments.count == 1 else {
            printError(options.arguments.isEmpty
                ? "tactus: clock-meter needs the port to read: a JACK MIDI output (tactus ports lists them), or --alsa-clock-from C:P"
                : "tactus: clock-meter reads one port, not \(options.arguments.count): \(options.arguments.joined(separator: " "))")
            return OptionError.exitStatus
        }
        var settings = JackClockMeter.Settings(port: options.arguments[0])
        settings.serverName = options.serverName
        settings.tempo = options.tempo
        settings.seconds = options.seconds
        ProcessPolicy.apply()
        return JackClockMeter.run(settings, output: standardOutputLine, log: { printError("tactus: " + $0) })
    }

    /// `--alsa-clock-from C:P`: the sequencer's clock, on its kernel arrival stamps.
    static func runALSA(_ options: Options, source text: String) -> Int32 {
        guard options.arguments.isEmpty else {
            printError("tactus: clock-meter reads one clock: --alsa-clock-from \(text) or a JACK port, not both (\(options.arguments.joined(separator: " ")))")
            return OptionError.exitStatus
        }
        let source: PortSpecifier
        do {
            source = try PortSpecifier(parsing: text)
        } catch {
            printError("tactus: --alsa-clock-from: \(error)")
            return OptionError.exitStatus
        }
        var settings = ALSAClockMeter.Settings(source: source)
        settings.tempo = options.tempo
        settings.seconds = options.seconds
        ProcessPolicy.apply()
        return ALSAClockMeter.run(settings, shouldStop: { TerminationSignals.wait(milliseconds: 0) != nil },
                                  output: standardOutputLine, log: { printError("tactus: " + $0) })
    }

    /// One `write` a line, so each line is out when it is printed, into a pipe or a file too.
    static func standardOutputLine(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
    }
}
