import Foundation
import Testing

extension JACKServerTests {
    /// A controller's transport buttons on the JACK `control` port reach the
    /// control thread as they do over the ALSA sequencer (one rule for both,
    /// `ControlInputEvent.accepts`): MIDI Start, Stop and Continue start and stop
    /// `tactus run`, heard on its clock and said in its log.
    @Suite struct ControllerTransportOnJACK {
        @Test func startStopAndContinueOnTheJACKControlPortStartAndStopTactus() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).transport.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let log = TestFiles.file("\(server.name).transport.log")
            let home = TestFiles.file("\(server.name).transport-home")
            let tactus = try TestProcess.launch(TestFiles.tactus, [
                "run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", "ctl-transport", "--start-stopped",
                "--connect-clock", "rec:midi_1", "rec:audio_1",
            ], output: log, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                          "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(log, containing: "jack connected"), "\(Launch.text(log))")

            // Start, Stop, Continue, Stop: one a second, from the sender's first cycle + 0.5 s.
            let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).transport.script", [
                "0.5 FA", "1.5 FC", "2.5 FB", "3.5 FC",
            ])
            let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "ctl-transport:control", script: script)
            #expect(TestProcess.wait(sender, seconds: 15) == 0)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(Launch.stop(tactus) == 0)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)

            let words = Launch.text(log).split(separator: "\n").compactMap { line -> String? in
                guard line.count > 25, line.dropFirst(24).hasPrefix(" ") else { return nil }
                let word = String(line.dropFirst(25))
                return word == "running" || word == "stopped" ? word : nil
            }
            #expect(words == ["running", "stopped", "running", "stopped"], "\(Launch.text(log))")

            // On the clock: Start, Stop, Continue, Stop in that order, ticks only while running.
            let midi = try Recording(contentsOf: recording).midi(port: 1)
            let transport = midi.filter { [0xFA, 0xFB, 0xFC].contains($0.bytes.first ?? 0) }
            #expect(transport.map { $0.bytes[0] } == [0xFA, 0xFC, 0xFB, 0xFC], "\(transport.map(\.bytes))")
            guard transport.count == 4 else { return }
            let ticks = midi.filter { $0.bytes == [0xF8] }.map(\.frame)
            let frames = transport.map(\.frame)
            #expect(!ticks.contains { $0 < frames[0] }, "no clock before Start (--start-stopped)")
            #expect(!ticks.contains { $0 > frames[1] && $0 < frames[2] }, "no clock while stopped")
            #expect(!ticks.contains { $0 > frames[3] }, "no clock after the last Stop")
            // A second of running each time: 48 ticks at 120 BPM, give or take the cycle each command waits.
            let first = ticks.filter { $0 > frames[0] && $0 < frames[1] }.count
            let second = ticks.filter { $0 > frames[2] && $0 < frames[3] }.count
            #expect((44...50).contains(first) && (44...50).contains(second), "ticks \(first) and \(second)")
        }
    }
}
