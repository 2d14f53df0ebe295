import Foundation
import Testing

extension JACKServerTests {
    /// When the server goes away Tactus keeps its tempo and settings,
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
        /// rate's frames, same tempo, and the song goes on from where it was, to
        /// the pulse (`Engine.changeSampleRate`, docs/DESIGN.md §8.4): no Start,
        /// Song Position or Continue, the next beat of the bar is the next one
        /// heard, every click and tick on one grid at the new rate.
        @Test func serverBackAtAnotherSampleRateKeepsTheTempoAndThePlaceInTheBar() throws {
            let o = try Self.killAndRestart(newRate: 44100)
            #expect(o.after.sampleRate == 44100)
            let interval = 44100 * 60 / Self.bpm
            let clicks = o.after.clicks(), ticks = o.after.ticks(), midi = o.after.midi()
            // The only transport message is the Stop of the shutdown (SIGTERM), last of all.
            var transport = midi.filter { [0xFA, 0xFB, 0xFC, 0xF2].contains($0.bytes.first ?? 0) }
            if transport.last?.bytes == [0xFC] && transport.last?.frame == midi.last?.frame { transport.removeLast() }
            #expect(transport.isEmpty, "the song goes on: \(transport.prefix(4).map { "\($0.frame) \($0.bytes)" })\n\(o.messages)")
            // Accents (0.9) every 4th click, and the first click after the restart is the
            // beat after the last one heard before it.
            let accentsBefore = o.before.onsets.filter { $0.port == 1 }.map { $0.value == 0.9 }
            let accentsAfter = o.after.onsets.filter { $0.port == 1 }.map { $0.value == 0.9 }
            let lastAccentBefore = try #require(accentsBefore.lastIndex(of: true))
            let beatHeardLast = accentsBefore.count - 1 - lastAccentBefore
            let firstAccentAfter = try #require(accentsAfter.firstIndex(of: true))
            #expect((beatHeardLast + 1 + firstAccentAfter) % 4 == 0,
                    "last beat before: \(beatHeardLast + 1) of 4; first accent after the restart at click \(firstAccentAfter)")
            let accentIndices = accentsAfter.indices.filter { accentsAfter[$0] }
            #expect(zip(accentIndices, accentIndices.dropFirst()).allSatisfy { $1 - $0 == 4 }, "\(accentsAfter)")
            let clickFit = GridFit(clicks, interval: interval), tickFit = GridFit(ticks, interval: interval / 24)
            #expect(clickFit.count >= 4, "\(o.messages)")
            #expect(clickFit.fittedError <= 0.5 && clickFit.gaps == 0, "\(clickFit)")
            #expect(tickFit.fittedError <= 0.5 && tickFit.gaps == 0, "\(tickFit)")
            try ClickAndClockGrid.expectClicksOnTicks(o.after, port: 1, clockDelay: 0, minimumClicks: 4)
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
