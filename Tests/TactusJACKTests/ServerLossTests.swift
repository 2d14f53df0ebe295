import Foundation
import Testing

extension JACKServerTests {
    /// Issue 3: when the server goes away Tactus keeps its tempo and settings,
    /// says so once, retries every second, and on a new server re-registers its
    /// ports, reconnects, and clicks on.
    @Suite struct ServerLoss {
        static let bpm = 133.0

        struct Outcome {
            var before: Recording
            var after: Recording
            var messages: String
            var exitStatus: Int32?
        }

        /// Tactus connected to a passive recorder; the server is killed (SIGKILL)
        /// and started again (at `newRate`), with a fresh recorder of the same name.
        ///
        /// Tactus is held (SIGSTOP) while the new server and the recorder come up,
        /// so it reconnects to a recorder that is there and active: which client
        /// gets to the server first is not what these tests are about (a client
        /// that is not active yet is `Connections`' test).
        static func killAndRestart(newRate: Int = 48000) throws -> Outcome {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let tag = server.name
            let first = TestFiles.file("\(tag).before.recording"), second = TestFiles.file("\(tag).after.recording")
            let log = TestFiles.file("\(tag).tactus.log")
            let recorder1 = try Launch.recorder(server: server.name, out: first)
            let tactus = try Launch.tactus(server: server.name, name: "tactus", ["--bpm", "\(bpm)", "rec:audio_1", "--connect-clock", "rec:midi_1"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 3)
            server.kill()
            _ = TestProcess.wait(recorder1, seconds: 5)
            Thread.sleep(forTimeInterval: 1.5)
            kill(tactus.processIdentifier, SIGSTOP)
            try server.start(sampleRate: newRate)
            let recorder2 = try Launch.recorder(server: server.name, out: second)
            kill(tactus.processIdentifier, SIGCONT)
            Thread.sleep(forTimeInterval: 4)
            let status = Launch.stop(tactus)
            _ = Launch.stop(recorder2)
            return Outcome(before: try Recording(contentsOf: first), after: try Recording(contentsOf: second),
                           messages: Launch.text(log), exitStatus: status)
        }

        @Test func serverKilledAndStartedAgainClicksOnTheGridWithin3SecondsAtTheSameTempo() throws {
            let o = try Self.killAndRestart()
            let interval = 48000 * 60 / Self.bpm
            #expect(GridFit(o.before.clicks(), interval: interval).maxError <= 0.5, "before: sanity")
            let clicks = o.after.clicks(), ticks = o.after.ticks()
            // The new server counts frames from its start.
            #expect(Double(clicks.first ?? .max) / 48000 <= 3, "first click \(Double(clicks.first ?? 0) / 48000) s after the server started\n\(o.messages)")
            #expect(clicks.count >= 4, "\(o.messages)")
            // The grid goes on from where it stopped (the engine keeps its anchor),
            // so the first event after the restart is a rounded grid position:
            // checked against the grid at its best phase.
            let clickFit = GridFit(clicks, interval: interval), tickFit = GridFit(ticks, interval: interval / 24)
            #expect(clickFit.fittedError <= 0.5 && clickFit.gaps == 0, "\(clickFit)")
            #expect(tickFit.fittedError <= 0.5 && tickFit.gaps == 0, "\(tickFit)")
            try ClickAndClockGrid.expectClicksOnTicks(o.after, port: 1, clockDelay: 0, minimumClicks: 4)
            #expect(o.messages.components(separatedBy: "JACK server gone").count == 2, "said once: \(o.messages)")
            #expect(o.messages.contains("JACK server back"), "\(o.messages)")
            #expect(o.exitStatus == 0)
        }

        /// A server back at another rate: sounds re-synthesised, grid in the new
        /// rate's frames, same tempo. The song continues from its bar: Song
        /// Position, Continue, the first tick and the downbeat on one frame, the
        /// first the new connections carry (none of it played to ports not yet
        /// connected), and every click and tick on the grid anchored there.
        @Test func serverBackAtAnotherSampleRateKeepsTheTempoOnTheNewRatesGrid() throws {
            let o = try Self.killAndRestart(newRate: 44100)
            #expect(o.after.sampleRate == 44100)
            let interval = 44100 * 60 / Self.bpm
            let clicks = o.after.clicks(), ticks = o.after.ticks(), midi = o.after.midi()
            let resumed = midi.firstIndex { $0.bytes == [0xFB] }
            #expect(resumed != nil && resumed! >= 1 && midi[resumed! - 1].bytes.first == 0xF2 && midi[resumed! - 1].frame == midi[resumed!].frame,
                    "Song Position then Continue: \(midi.prefix(4).map { "\($0.frame) \($0.bytes)" })\n\(o.messages)")
            let downbeat = o.after.onsets.first { $0.port == 1 }
            #expect(resumed.map { midi[$0].frame } == clicks.first && clicks.first == ticks.first && downbeat?.value == 0.9,
                    "Continue \(resumed.map { midi[$0].frame } ?? -1), first click \(downbeat.map { "\($0.frame) (\($0.value))" } ?? "none"), first tick \(ticks.first ?? -1)")
            let clickFit = GridFit(clicks, interval: interval), tickFit = GridFit(ticks, interval: interval / 24)
            #expect(clickFit.count >= 4, "\(o.messages)")
            #expect(clickFit.maxError <= 0.5 && clickFit.gaps == 0, "\(clickFit)")
            #expect(tickFit.maxError <= 0.5 && tickFit.gaps == 0, "\(tickFit)")
            #expect(o.messages.contains("sample rate 48000 → 44100 Hz"), "\(o.messages)")
            #expect(o.exitStatus == 0)
        }

        /// Started before any server runs: one message, then it waits; when the
        /// server comes, Tactus is on it and clicking within 3 s. (Held by SIGSTOP
        /// while the server and the recorder start, as in `killAndRestart`.)
        @Test func startedBeforeTheServerWaitsAndClicksWithin3SecondsOfItsStart() throws {
            let name = "tactus-test-\(getpid())-late"
            let log = TestFiles.file("\(name).tactus.log"), out = TestFiles.file("\(name).recording")
            let tactus = try Launch.tactus(server: name, name: "tactus", ["--bpm", "\(Self.bpm)", "rec:audio_1", "--connect-clock", "rec:midi_1"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 2.5)
            kill(tactus.processIdentifier, SIGSTOP)
            let server = try JackTestServer(period: 256, name: name)
            defer { server.stop() }
            let recorder = try Launch.recorder(server: name, out: out)
            kill(tactus.processIdentifier, SIGCONT)
            Thread.sleep(forTimeInterval: 3.5)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder)
            let messages = Launch.text(log)
            #expect(messages.components(separatedBy: "retrying every second").count == 2, "said once: \(messages)")
            let r = try Recording(contentsOf: out)
            #expect(Double(r.clicks().first ?? .max) / 48000 <= 3, "\(messages)")
            let start = r.midi().first
            #expect(start?.bytes == [0xFA] && start?.frame == r.clicks().first && start?.frame == r.ticks().first,
                    "Start, the first tick and the first click on one frame: \(r.midi().prefix(2).map { "\($0.frame) \($0.bytes)" }), click \(r.clicks().first ?? -1)")
            let fit = GridFit(r.clicks(), interval: 48000 * 60 / Self.bpm)
            #expect(fit.count >= 3 && fit.maxError <= 0.5 && fit.gaps == 0, "\(fit)")
        }
    }
}
