import Foundation
import Testing

extension JACKServerTests {
    /// A footswitch bound to an action (in `controller.json`, or in a preset),
    /// pressed on the JACK `control` port of a live server: the port, the
    /// binding and the action. Tap tempo by footswitch, timed by the presses'
    /// frames, is the simulated tier's (`SimulatedPedalTapTests`).
    @Suite struct PedalActionOnJACK {
        /// What one run said and what the recorder got on its clock port.
        struct PedalRun {
            var log: String
            var recording: Recording
            var clock: [Recording.Event] { recording.midi(port: 1) }
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
            return PedalRun(log: Launch.text(log), recording: try Recording(contentsOf: recording))
        }

        /// A preset's `actions` bind its pedal while it plays: CC 65 → startStop
        /// starts a Tactus that was started stopped (no controller.json at all).
        @Test func aPresetsPedalStartsTactus() throws {
            let preset = #"{ "format": 1, "name": "Pedal test", "tempo": 120, "actions": [{ "action": "startStop", "cc": 65 }] }"#
            // CC 65 pressed (127) 0.5 s into the sender's run, released 0.1 s later.
            let run = try Self.run("ppedal", arguments: ["--preset", "Pedal test", "--start-stopped"],
                                   files: ["presets/pedal.json": preset], pedal: ["0.5 B0 41 7F", "0.6 B0 41 00"])
            #expect(run.log.contains("start (pedal)"), "\(run.log)")
            // Stopped until the pedal: one Start, then the clock at 120 BPM (1000 frames a tick).
            let starts = run.clock.filter { $0.bytes == [0xFA] }
            #expect(starts.count == 1, "\(run.clock.prefix(5))")
            let ticks = run.clock.filter { $0.bytes == [0xF8] }.map(\.frame)
            #expect(ticks.count >= 30, "the clock ran after the pedal: \(ticks.count) ticks")
            #expect(ticks.allSatisfy { $0 >= starts.first?.frame ?? .max }, "no tick before the pedal's Start")
            // The preset's tempo between ticks the server played on time: a cycle
            // skipped in an xrun (or one the recorder missed) moves the ticks
            // after it to a cycle start, as every output of Tactus does.
            let r = run.recording
            let steady = zip(ticks, ticks.dropFirst()).filter { a, b in
                !r.xrunned(from: a - 256, to: b + 256) && !r.holes.contains { $0.overlaps((a - 256)...(b + 256)) }
            }
            print("pedal start: \(ticks.count) ticks, \(steady.count) intervals away from an xrun: \(Set(steady.map { $1 - $0 }).sorted()); xruns \(r.xruns)")
            #expect(steady.count >= 5 && steady.allSatisfy { $1 - $0 == 1000 }, "\(steady.map { $1 - $0 })")
        }
    }
}
