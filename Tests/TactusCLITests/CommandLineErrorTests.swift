import Testing
@testable import TactusCLI
import TactusCore

/// A bad or out-of-range value prints one clear line naming the option and the
/// allowed range, exit status 2 (README, "Options").
@Suite("Command-line errors")
struct CommandLineErrorTests {
    static let cases: [([String], String)] = [
        (["--bpm", "0"], "tactus: --bpm '0' is not valid: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"),
        (["--bpm", "1000"], "tactus: --bpm '1000' is not valid: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"),
        (["--bpm", "97.333"], "tactus: --bpm '97.333' is not valid: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"),
        (["--bpm=fast"], "tactus: --bpm 'fast' is not valid: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"),
        (["--bpm"], "tactus: --bpm needs a value: a tempo from 1 to 999 BPM, at most two decimals (e.g. 97.3)"),
        (["--meter", "7/9"], "tactus: --meter '7/9' is not valid: N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
        (["--meter", "33/4"], "tactus: --meter '33/4' is not valid: N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
        (["-m", "four"], "tactus: -m 'four' is not valid: N/D with N from 1 to 32 and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"),
        (["--accents", "X-x"], "tactus: --accents 'X-x' is not valid: one symbol a beat: X accent, x normal, o soft, . silent (e.g. X.x.x..), up to 32"),
        (["--subdivision", "quintuplets"], "tactus: --subdivision 'quintuplets' is not valid: one of none, eighths, triplets, sixteenths, swing"),
        (["--gain", "20"], "tactus: --gain '20' is not valid: a gain in dB from -60 to 12"),
        (["--clock-offset", "-2500"], "tactus: --clock-offset '-2500' is not valid: milliseconds from -2000 to 2000, negative sends the clock early"),
        (["--pressure-mode", "hard"], "tactus: --pressure-mode 'hard' is not valid: levels or continuous"),
        (["--control-channel", "17"], "tactus: --control-channel '17' is not valid: a MIDI channel from 1 to 16, or omni"),
        (["--up-key", "128"], "tactus: --up-key '128' is not valid: a MIDI note number from 0 to 127"),
        (["--switch", "later"], "tactus: --switch 'later' is not valid: bar (at the next bar line) or now (at the next beat)"),
        (["--alsa-lookahead", "0"], "tactus: --alsa-lookahead '0' is not valid: milliseconds from 1 to 100"),
        (["render", "x.wav", "--seconds", "0"], "tactus: --seconds '0' is not valid: a duration in seconds, more than 0 and at most 86400"),
        (["render", "x.wav", "--seconds", "1", "-r", "4000"], "tactus: -r '4000' is not valid: a sample rate from 8000 to 192000 Hz"),
        (["render", "x.wav", "--seconds", "1", "--format", "8"], "tactus: --format '8' is not valid: one of 16, 24, float"),
        (["--frobnicate"], "tactus: unknown option '--frobnicate' (tactus --help lists them)"),
        (["--mute=yes"], "tactus: --mute takes no value"),
        (["-n", ""], "tactus: -n '' is not valid: a JACK client name of 1 to 63 bytes"),
        (["--link-quantum", "0"], "tactus: --link-quantum '0' is not valid: a number of beats from 1 to 64"),
    ]

    @Test("Each bad value: one line naming the option and what is allowed", arguments: cases)
    func badValue(words: [String], message: String) {
        #expect(throws: OptionError(message)) { try OptionParser.parse(words) }
    }

    @Test("The command exits with status 2 and prints exactly that line", arguments: cases.prefix(4) + cases.suffix(3))
    func exitStatusTwo(words: [String], message: String) throws {
        let r = try TactusProcess.run(words)
        #expect(r.status == 2)
        #expect(r.standardError == message + "\n")
        #expect(r.standardOutput.isEmpty)
    }

    /// The incoming MIDI clock owns tempo, start and stop (docs/DESIGN.md §9.1):
    /// JACK transport follow or join beside it are refused at start, and a
    /// preset's follow or join while it plays; Link takes it (§9: the clock
    /// committed to the session).
    @Test func clockInWithFollowOrJoinIsRefusedNamingBoth() throws {
        try OptionParser.parse(["--clock-in", "--link"]).checkTimeSources()
        try OptionParser.parse(["--clock-in", "--link-start-stop", "--transport", "master"]).checkTimeSources()
        #expect(throws: OptionError("tactus: --clock-in and --transport follow cannot be used together: the incoming clock owns start and stop")) {
            try OptionParser.parse(["--clock-in", "--transport", "follow"]).checkTimeSources()
        }
        #expect(throws: OptionError("tactus: --clock-in and --transport join cannot be used together: the incoming clock owns start and stop")) {
            try OptionParser.parse(["--clock-in", "--transport", "join"]).checkTimeSources()
        }
        let clockIn = try OptionParser.parse(["--clock-in", "--transport", "master"])
        try clockIn.checkTimeSources()
        #expect(clockIn.transportRefusal(.follow) == "\"transport\": \"follow\" cannot be used with --clock-in: the transport mode stays as it is (the incoming clock owns start and stop)")
        #expect(clockIn.transportRefusal(.master) == nil)
    }

    /// `--alsa-clock-from` selects the clock in from the ALSA sequencer: the same
    /// time source as `--clock-in` (tempo, start and stop the clock's), so the
    /// same refusals, named with it (with `--link` it is published to the
    /// session, as `--clock-in` is); and never beside `--clock-in` (two clocks
    /// into one follower), `--no-alsa` (no sequencer client) or
    /// `--connect-clock-in` (no JACK `clock_in` to connect). One line, status 2.
    @Test func alsaClockFromIsRefusedWhereItConflictsNamingBoth() throws {
        let r = try TactusProcess.run(["run", "--alsa-clock-from", "Drum Machine", "--transport", "join"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --alsa-clock-from and --transport join cannot be used together: the incoming clock owns start and stop\n")
        #expect(throws: Never.self) { try OptionParser.parse(["--alsa-clock-from", "20:0", "--link"]).checkTimeSources() }
        let refusals: [([String], String)] = [
            (["--alsa-clock-from", "20:0", "--transport", "follow"],
             "tactus: --alsa-clock-from and --transport follow cannot be used together: the incoming clock owns start and stop"),
            (["--alsa-clock-from", "20:0", "--clock-in"],
             "tactus: --clock-in and --alsa-clock-from cannot be used together: choose one clock input (JACK's clock_in or the ALSA sequencer's)"),
            (["--alsa-clock-from", "20:0", "--no-alsa"],
             "tactus: --alsa-clock-from and --no-alsa cannot be used together: the clock comes in through the ALSA sequencer"),
            (["--alsa-clock-from", "20:0", "--connect-clock-in", "jmc:midi_out"],
             "tactus: --connect-clock-in connects the JACK clock_in input, which --alsa-clock-from has none of: the clock comes in through the ALSA sequencer"),
        ]
        for (arguments, message) in refusals {
            #expect(throws: OptionError(message)) { try OptionParser.parse(arguments).checkTimeSources() }
        }
        let alsa = try OptionParser.parse(["--alsa-clock-from", "20:0", "--transport", "master"])
        try alsa.checkTimeSources()
        #expect(alsa.transportRefusal(.join) == "\"transport\": \"join\" cannot be used with --alsa-clock-from: the transport mode stays as it is (the incoming clock owns start and stop)")
        // The clock owns the tempo; JACK gets no clock_in port, the cycle reads the ALSA ring.
        let jack = try RunCommand.jackOptions(alsa, tempo: BPM(120))
        #expect(jack.clockIn && jack.clockInFromALSA)
        #expect(RunCommand.tempoOwner(alsa, mode: .master) == RunCommand.clockInTempoOwner)
        let plain = try RunCommand.jackOptions(try OptionParser.parse(["--clock-in"]), tempo: BPM(120))
        #expect(plain.clockIn && !plain.clockInFromALSA)
    }

    /// A port `--alsa-clock-from` cannot name: one line naming the option, the
    /// text and the rule, status 2, before any server is asked.
    @Test func aMalformedALSAClockPortIsRefusedNamingTheOption() throws {
        let r = try TactusProcess.run(["run", "--alsa-clock-from", "300:1"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --alsa-clock-from '300:1': ALSA port '300:1': client and port numbers are 0–255\n")
        #expect(throws: OptionError("tactus: --alsa-clock-from is not an option of render: it belongs to run and clock-meter (tactus run --help)")) {
            try OptionParser.parse(["render", "x.wav", "--seconds", "1", "--alsa-clock-from", "20:0"])
        }
    }

    /// `--connect-clock-in` (repeatable) reaches the JACK client's kept
    /// connections; without `--clock-in` there is no `clock_in` to connect,
    /// said in one line naming both options, status 2.
    @Test func connectClockInGoesToTheJACKOptionsAndNeedsClockIn() throws {
        let options = try OptionParser.parse(["--clock-in", "--connect-clock-in", "a2j:Interface [20] (capture): Port 1",
                                              "--connect-clock-in", "jmc:midi_out"])
        try options.checkTimeSources()
        let jack = try RunCommand.jackOptions(options, tempo: BPM(120))
        #expect(jack.clockIn && jack.clockInConnections == ["a2j:Interface [20] (capture): Port 1", "jmc:midi_out"])
        #expect(try RunCommand.jackOptions(try OptionParser.parse(["--clock-in"]), tempo: BPM(120)).clockInConnections.isEmpty)
        let r = try TactusProcess.run(["run", "--connect-clock-in", "jmc:midi_out"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --connect-clock-in connects clock_in, the input --clock-in adds: give --clock-in too\n")
        #expect(throws: OptionError("tactus: --connect-clock-in is not an option of render: it belongs to run (tactus run --help)")) {
            try OptionParser.parse(["render", "x.wav", "--seconds", "1", "--connect-clock-in", "a:b"])
        }
    }

    /// `join` would give start and stop two owners; `follow` publishes the
    /// DAW's BBT to the session (docs/DESIGN.md §9).
    @Test func linkWithJoinIsRefusedNamingBoth() throws {
        let r = try TactusProcess.run(["run", "--link", "--transport", "join"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --link and --transport join cannot be used together: both would own start and stop (--transport master publishes the Link session as JACK BBT)\n")
        try OptionParser.parse(["--link", "--transport", "follow"]).checkTimeSources()
        #expect(throws: OptionError("tactus: --link and --transport join cannot be used together: both would own start and stop (--transport master publishes the Link session as JACK BBT)")) {
            try OptionParser.parse(["--link-start-stop", "--transport", "join"]).checkTimeSources()
        }
        try OptionParser.parse(["--link", "--transport", "off"]).checkTimeSources()
        try OptionParser.parse(["--link", "--transport", "master"]).checkTimeSources()
        try OptionParser.parse(["--link", "--transport", "master-force"]).checkTimeSources()
        try OptionParser.parse(["--transport", "join"]).checkTimeSources()
    }

    @Test func accentsMustHaveOneSymbolABeatOfTheMeter() throws {
        let r = try TactusProcess.run(["render", "/tmp/never.wav", "--seconds", "1", "--meter", "7/8", "--accents", "X.x"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: --accents 'X.x' has 3 beats but the meter 7/8 has 7: give one symbol a beat\n")
    }

    @Test func renderWithoutSecondsOrFileSaysWhatItNeeds() throws {
        #expect(try TactusProcess.run(["render", "x.wav"]).standardError == "tactus: render needs --seconds N: the length of the click track\n")
        #expect(try TactusProcess.run(["render", "--seconds", "2"]).standardError == "tactus: render needs exactly one output file: tactus render OUT.wav --seconds N\n")
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try TactusProcess.run(["--help"])
        #expect(help.status == 0 && help.standardOutput.hasPrefix("Usage: tactus"))
        let version = try TactusProcess.run(["--version"])
        #expect(version.status == 0 && version.standardOutput == TactusVersion.lines.joined(separator: "\n") + "\n")
        // What a bug report needs: Tactus's version, then the libraries' as they report themselves (`1.9.21`, `1.2.8`).
        let lines = version.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "tactus \(TactusVersion.string)")
        #expect(lines.count == 3 && lines[1].hasPrefix("libjack ") && lines[2].hasPrefix("libasound "))
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: " ").last?.split(separator: ".").count ?? 0 >= 3 })
    }

    @Test func longOptionsTakeTheirValueWithOrWithoutEquals() throws {
        let a = try OptionParser.parse(["--bpm=97.3", "--meter", "7/8", "-a", "X.x.x..", "--subdivision=triplets", "system:playback_1"])
        #expect(a.tempo?.hundredths == 9730)
        #expect(a.meter?.description == "7/8")
        #expect(a.accents?.description == "X.x.x..")
        #expect(a.subdivision == .triplets)
        #expect(a.arguments == ["system:playback_1"])
        #expect(a.command == .run)
    }
}
