import Foundation
import Testing

extension JACKServerTests {
    /// A footswitch bound to tap tempo in `controller.json`, pressed at exact
    /// frames on the JACK `control` port: the taps are timed by their frames, not
    /// by when the control thread woke up.
    @Suite struct PedalActionOnJACK {
        @Test func fourSustainPedalPressesHalfASecondApartAre120BPMExactly() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).pedal.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let home = TestFiles.file("\(server.name).pedal-home")
            let config = home.appendingPathComponent("config/tactus")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try """
            { "version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70,
              "calibration": { "deadZone": 2, "maximum": 127, "curve": "linear" },
              "actions": [{ "action": "tap", "cc": 64 }] }
            """.write(to: config.appendingPathComponent("controller.json"), atomically: true, encoding: .utf8)
            let log = TestFiles.file("\(server.name).pedal.log")
            let tactus = try TestProcess.launch(TestFiles.tactus, [
                "run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", "pedal", "--bpm", "100",
                "--connect-clock", "rec:midi_1", "rec:audio_1",
            ], output: log, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                          "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(log, containing: "jack connected"), "\(Launch.text(log))")

            // CC 64 pressed (127) every 0.5 s = 24 000 frames, released (0) 0.1 s after each.
            let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).pedal.script", [
                "0.5 B0 40 7F", "0.6 B0 40 00", "1.0 B0 40 7F", "1.1 B0 40 00",
                "1.5 B0 40 7F", "1.6 B0 40 00", "2.0 B0 40 7F", "2.1 B0 40 00",
            ])
            let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "pedal:control", script: script)
            #expect(TestProcess.wait(sender, seconds: 15) == 0)
            Thread.sleep(forTimeInterval: 1)
            #expect(Launch.stop(tactus) == 0)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)

            let text = Launch.text(log)
            #expect(text.contains("message tap tempo: 120 BPM from 4 taps (pedal)"), "\(text)")
            #expect(text.contains(", 0 xruns;"), "\(text)")
            // On the clock: 1200 frames a tick at 100 BPM, then 1000 at 120, to the frame.
            let ticks = try Recording(contentsOf: recording).ticks(port: 1)
            let intervals = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
            print("pedal tap tempo: tick intervals \(Array(Set(intervals)).sorted()) frames")
            #expect(intervals.first == 1200)
            #expect(intervals.last == 1000)
            #expect(Set(intervals).isSubset(of: [1200, 1000]), "no intermediate tempo: the taps are timed by their frames")
        }
    }
}
