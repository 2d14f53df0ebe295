import Testing
import TactusCore
@testable import TactusCLI
@testable import TactusJACK

@Suite struct JackOptionsTests {
    @Test func clockOffsetOfMoreThanOneBeatIsRefusedNamingTheBeatLength() {
        var options = JackRunOptions()
        options.engine.tempo = BPM(133)                 // one beat = 451.13 ms
        options.clockOffsetMilliseconds = 452
        #expect(throws: JackError.clockOffsetTooLarge(milliseconds: 452, beatMilliseconds: 60_000 / 133)) {
            try options.clockOffsetFrames(sampleRate: 48000)
        }
        #expect("\(JackError.clockOffsetTooLarge(milliseconds: 452, beatMilliseconds: 60_000 / 133))"
                == "--clock-offset 452.0 ms is more than one beat (451.1 ms at this tempo)")
    }

    @Test func clockOffsetUpToOneBeatEitherWayBecomesFramesAtTheServersRate() throws {
        var options = JackRunOptions()
        options.engine.tempo = BPM(133)
        options.clockOffsetMilliseconds = -451
        #expect(try options.clockOffsetFrames(sampleRate: 48000) == -21648)
        options.clockOffsetMilliseconds = 10
        #expect(try options.clockOffsetFrames(sampleRate: 44100) == 441)
        #expect(try options.clockOffsetFrames(sampleRate: 48000) == 480)
    }

    @Test func jackStatusBitsAreSpelledOut() {
        #expect(JackError.describe(status: 0x11) == "overall operation failed; unable to connect to the JACK server (is it running?) (status 0x11)")
        #expect("\(JackError.openFailed(status: 0x11, server: "studio"))"
                == "cannot open a client on JACK server \"studio\": overall operation failed; unable to connect to the JACK server (is it running?) (status 0x11)")
    }

    @Test func runCommandMapsTheCommandLineOntoTheJackClient() throws {
        let options = try OptionParser.parse(["run", "-n", "click", "-s", "studio", "--bpm", "97.3", "--start-stopped", "--clock-offset", "-7.5",
                                              "--connect-clock", "a2j:midi", "system:playback_1", "system:playback_2"])
        let jack = try RunCommand.jackOptions(options)
        #expect(jack.clientName == "click")
        #expect(jack.serverName == "studio")
        #expect(jack.clickConnections == ["system:playback_1", "system:playback_2"])
        #expect(jack.feedbackConnections == nil)
        #expect(jack.clockConnections == ["a2j:midi"])
        #expect(jack.startStopped)
        #expect(jack.engine.tempo == BPM(97.3))
        #expect(try jack.clockOffsetFrames(sampleRate: 48000) == -360)
    }

    /// Latency alignment is on unless `--no-align` (docs/DESIGN.md §3.8); `--align` says the default;
    /// the last of the two given wins, as for every flag pair.
    @Test func runAlignsUnlessToldNotTo() throws {
        #expect(try RunCommand.jackOptions(OptionParser.parse(["run", "system:playback_1"])).align)
        #expect(try RunCommand.jackOptions(OptionParser.parse(["run", "--align"])).align)
        #expect(try !RunCommand.jackOptions(OptionParser.parse(["run", "--no-align", "system:playback_1"])).align)
        #expect(try !RunCommand.jackOptions(OptionParser.parse(["run", "--align", "--no-align"])).align)
    }

    @Test func runCommandRefusesAClockOffsetBeyondOneBeatBeforeTouchingJack() throws {
        let options = try OptionParser.parse(["--bpm", "133", "--clock-offset", "500"])
        #expect(throws: OptionError("tactus: --clock-offset 500.0 ms is more than one beat (451.1 ms at this tempo)")) {
            try RunCommand.jackOptions(options)
        }
    }
}
