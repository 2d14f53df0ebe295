import Glibc
import Testing
import TactusALSA
@testable import TactusCLI

/// The ALSA options of the command line, as the run mode hands them to the sequencer client.
struct ALSAWiringTests {
    @Test func alsaOptionsCarryPortsLookAheadAndTheClientName() throws {
        let options = try OptionParser.parse(["--alsa-clock-to", "Qtractor:0", "--alsa-clock-to", "14:0",
                                              "--alsa-control-from", "USB Keystation 49", "--alsa-lookahead", "8",
                                              "--alsa-clock-from", "Drum Machine:1"])
        let alsa = try #require(try ALSAWiring.options(from: options))
        #expect(alsa.clientName == "Tactus")
        #expect(alsa.clockDestinations.map(\.text) == ["Qtractor:0", "14:0"])
        #expect(alsa.controlSources.map(\.text) == ["USB Keystation 49"])
        #expect(alsa.clockInSource?.text == "Drum Machine:1")
        #expect(try ALSAWiring.options(from: try OptionParser.parse([]))?.clockInSource == nil)
        #expect(alsa.lookAheadMicroseconds == 8_000)
    }

    @Test func aJACKClientNameNamesTheSequencerClientToo() throws {
        let alsa = try #require(try ALSAWiring.options(from: try OptionParser.parse(["-n", "tactus-b"])))
        #expect(alsa.clientName == "tactus-b")
    }

    @Test func noALSAMeansNoSequencerClient() throws {
        #expect(try ALSAWiring.options(from: try OptionParser.parse(["--no-alsa", "--alsa-clock-to", "14:0"])) == nil)
    }

    @Test func aMalformedPortNamesTheOptionAndTheRule() throws {
        let options = try OptionParser.parse(["--alsa-control-from", "300:1"])
        #expect(throws: OptionError("tactus: --alsa-control-from '300:1': ALSA port '300:1': client and port numbers are 0–255")) {
            _ = try ALSAWiring.options(from: options)
        }
    }
}

/// `tactus ports` lists each half that is there and says which is not.
struct PortsCommandTests {
    @Test(.enabled(if: !SequencerPresence.available, "this machine has a sequencer"))
    func withoutASequencerPortsSaysSoAndStillSucceeds() {
        var lines: [String] = []
        let status = PortsCommand.run(Options()) { lines.append($0) }
        #expect(status == 0)
        #expect(lines.first == "ALSA sequencer: not available: snd_seq_open (default) failed: No such file or directory (-2)")
        #expect(lines.contains { $0.hasPrefix("JACK") })
    }
}

enum SequencerPresence {
    static var available: Bool { access("/dev/snd/seq", F_OK) == 0 }
}
