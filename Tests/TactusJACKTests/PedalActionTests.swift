import Foundation
import Testing

extension JACKServerTests {
    /// A footswitch bound to an action (in `controller.json`, or in a preset),
    /// pressed at exact frames on the JACK `control` port.
    @Suite struct PedalActionOnJACK {
        /// What one run said and what the recorder got on its clock port.
        struct PedalRun {
            var log: String
            var clock: [Recording.Event]
        }

        /// Runs `tactus run` with `arguments` on a private server, `files` (path under
        /// the config folder → text) written first, and `pedal` sent to its `control`
        /// port (the sender's script lines, seconds and bytes); quits a second later.
        static func run(_ name: String, arguments: [String], files: [String: String], pedal: [String]) throws -> PedalRun {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).\(name).recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let home = TestFiles.file("\(server.name).\(name)-home")
            for (path, text) in files {
                let file = home.appendingPathComponent("config/tactus/" + path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            let log = TestFiles.file("\(server.name).\(name).log")
            let tactus = try TestProcess.launch(TestFiles.tactus, [
                "run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", name, "--connect-clock", "rec:midi_1", "rec:audio_1",
            ] + arguments, output: log, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                     "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(log, containing: "jack connected"), "\(Launch.text(log))")

            let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).\(name).script", pedal)
            let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "\(name):control", script: script)
            #expect(TestProcess.wait(sender, seconds: 15) == 0)
            Thread.sleep(forTimeInterval: 1)
            #expect(Launch.stop(tactus) == 0)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            return PedalRun(log: Launch.text(log), clock: try Recording(contentsOf: recording).midi(port: 1))
        }

        /// `run` again while the server xruns in it (`Undisturbed`): a skipped
        /// cycle moves the sender's exact frames (CI once: 8 xruns in 3 s, the
        /// taps read 118 BPM).
        static func undisturbed(_ run: () throws -> PedalRun) throws -> PedalRun {
            try Undisturbed.run("pedal", run) { last in
                last.log.contains(", 0 xruns;") ? nil : "run disturbed by xruns: \(last.log.split(separator: "\n").last ?? "")"
            }
        }

        /// Tap tempo by footswitch: the taps are timed by their frames, not by when
        /// the control thread woke up.
        @Test func fourSustainPedalPressesHalfASecondApartAre120BPMExactly() throws {
            let controller = """
            { "version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70,
              "calibration": { "deadZone": 2, "maximum": 127, "curve": "linear" },
              "actions": [{ "action": "tap", "cc": 64 }] }
            """
            // CC 64 pressed (127) every 0.5 s = 24 000 frames, released (0) 0.1 s after each.
            let run = try Self.undisturbed {
                try Self.run("pedal", arguments: ["--bpm", "100"], files: ["controller.json": controller], pedal: [
                    "0.5 B0 40 7F", "0.6 B0 40 00", "1.0 B0 40 7F", "1.1 B0 40 00",
                    "1.5 B0 40 7F", "1.6 B0 40 00", "2.0 B0 40 7F", "2.1 B0 40 00",
                ])
            }
            #expect(run.log.contains("message tap tempo: 120 BPM from 4 taps (pedal)"), "\(run.log)")
            // On the clock: 1200 frames a tick at 100 BPM, then 1000 at 120, to the frame.
            let ticks = run.clock.filter { $0.bytes == [0xF8] }.map(\.frame)
            let intervals = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
            print("pedal tap tempo: tick intervals \(Array(Set(intervals)).sorted()) frames")
            #expect(intervals.first == 1200)
            #expect(intervals.last == 1000)
            #expect(Set(intervals).isSubset(of: [1200, 1000]), "no intermediate tempo: the taps are timed by their frames")
        }

        /// A preset's `actions` bind its pedal while it plays: CC 65 → startStop
        /// starts a Tactus that was started stopped (no controller.json at all).
        @Test func aPresetsPedalStartsTactus() throws {
            let preset = #"{ "format": 1, "name": "Pedal test", "tempo": 120, "actions": [{ "action": "startStop", "cc": 65 }] }"#
            // CC 65 pressed (127) 0.5 s into the sender's run, released 0.1 s later.
            let run = try Self.undisturbed {
                try Self.run("ppedal", arguments: ["--preset", "Pedal test", "--start-stopped"],
                             files: ["presets/pedal.json": preset], pedal: ["0.5 B0 41 7F", "0.6 B0 41 00"])
            }
            #expect(run.log.contains("start (pedal)"), "\(run.log)")
            // Stopped until the pedal: one Start, then the clock at 120 BPM (1000 frames a tick).
            let starts = run.clock.filter { $0.bytes == [0xFA] }
            #expect(starts.count == 1, "\(run.clock.prefix(5))")
            let ticks = run.clock.filter { $0.bytes == [0xF8] }.map(\.frame)
            #expect(ticks.count >= 30, "the clock ran after the pedal: \(ticks.count) ticks")
            #expect(ticks.allSatisfy { $0 >= starts.first?.frame ?? .max }, "no tick before the pedal's Start")
            #expect(Set(zip(ticks.dropFirst(), ticks).map { $0 - $1 }) == [1000])
        }
    }
}
