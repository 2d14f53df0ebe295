import Foundation
import Testing

extension JACKServerTests {
    /// Connections given on the command line (or remembered across a server
    /// restart) to other programs' ports.
    @Suite struct Connections {
        /// A program starting beside Tactus registers its ports before it
        /// activates, and JACK refuses to connect a client that is not active
        /// ("Cannot connect ports owned by inactive clients"). Tactus keeps
        /// trying: the recorder, active 3 s after its ports appeared, is
        /// connected within 0.5 s of its activation, with nothing reported as failed.
        @Test func portsOfAClientNotActiveYetAreConnectedOnceItIs() throws {
            let bpm = 133.0
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let out = TestFiles.file("\(server.name).recording"), registered = TestFiles.file("\(server.name).registered")
            let ready = TestFiles.file("\(server.name).ready"), log = TestFiles.file("\(server.name).tactus.log")
            let recorder = try TestProcess.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", out.path,
                                                                    "--registered", registered.path, "--activate-after", "3", "--ready", ready.path],
                                                  output: TestFiles.file("\(server.name).recorder.log"))
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            #expect(TestProcess.waitForFile(registered, seconds: 10))
            let tactus = try Launch.tactus(server: server.name, name: "tactus", ["--bpm", "\(bpm)", "rec:audio_1", "--connect-clock", "rec:midi_1"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(TestProcess.waitForFile(ready, seconds: 15))
            Thread.sleep(forTimeInterval: 3)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder)
            let messages = Launch.text(log)
            let r = try Recording(contentsOf: out)
            #expect(messages.contains("waiting up to 10 s for rec:audio_1, rec:midi_1 (not there, or not active yet)"),
                    "Tactus came while the recorder was not active yet: \(messages)")
            #expect(Launch.text(server.logURL).contains("Cannot connect ports owned by inactive clients: \"rec\" is not active"),
                    "JACK refused while the recorder was not active")
            #expect(!messages.contains("cannot connect") && !messages.contains("gave up"), "\(messages)")
            let interval = 48000 * 60 / bpm
            let ticks = r.ticks()
            #expect(Double((ticks.first ?? .max) - r.firstFrame) <= interval / 24 + 0.5 * 48000,
                    "first tick \(ticks.first ?? -1), recorder active from \(r.firstFrame)")
            let tickFit = GridFit(ticks, interval: interval / 24), clickFit = GridFit(r.clicks(), interval: interval)
            #expect(tickFit.count >= 100 && tickFit.fittedError <= 0.5 && tickFit.gaps == 0, "\(tickFit)")
            #expect(clickFit.count >= 5, "\(clickFit)")
        }
    }
}
