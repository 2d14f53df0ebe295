import TactusALSA
import TactusJACK

/// `tactus ports`: every MIDI port Tactus can be connected to, with the address
/// to give `--alsa-clock-to`, `--alsa-control-from`, `--alsa-clock-from`,
/// `--connect-clock`, `--connect-control` or `--connect-clock-in`. A missing
/// sequencer or JACK server is a line of output, not an error: each half is
/// listed when it is there.
public enum PortsCommand {
    public static func run(_ options: Options, output: (String) -> Void = { print($0) }) -> Int32 {
        for line in alsaLines() { output(line) }
        output("")
        for line in JackPortListing.lines(serverName: options.serverName) { output(line) }
        return 0
    }

    /// The ALSA half: `out` ports send MIDI (for --alsa-control-from, --alsa-clock-from), `in` ports receive it (for --alsa-clock-to).
    static func alsaLines() -> [String] {
        do {
            let lister = try Sequencer(name: "tactus ports")
            let lines = PortListing.lines(for: lister.ports(), excludingClient: lister.clientID)
            return ["ALSA sequencer (CLIENT:PORT for --alsa-control-from, --alsa-clock-from: out; --alsa-clock-to: in):"]
                + (lines.isEmpty ? ["  no ports"] : lines)
        } catch {
            return ["ALSA sequencer: not available: \(error.reason)"]
        }
    }
}
