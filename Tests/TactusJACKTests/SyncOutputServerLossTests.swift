import Foundation
import Testing

extension JACKServerTests {
    /// The sync port across a server's loss (docs/DESIGN.md §14.7): on the
    /// new server, here at 44.1 kHz, `sync` is registered again and connected
    /// again where it was, and its pulses go on on the ticks' frames with the
    /// width in the new rate's frames (15 ms: 661.5, rounded to 662).
    @Suite struct SyncOutputServerLoss {
        @Test func theSyncPortIsBackConnectedOnANewServerWithPulsesInItsFrames() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let tag = server.name
            let log = TestFiles.file("\(tag).tactus.log")
            func recorder(_ out: URL) throws -> Process {
                let ready = URL(fileURLWithPath: out.path + ".ready")
                let p = try TestProcess.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path,
                                                                 "--audio-ports", "2", "--midi-ports", "1", "--levels", "2"],
                                               output: URL(fileURLWithPath: out.path + ".log"))
                guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
                return p
            }
            let first = TestFiles.file("\(tag).before.recording"), second = TestFiles.file("\(tag).after.recording")
            let recorder1 = try recorder(first)
            let tactus = try Launch.tactus(server: server.name, name: "tactus", ["--bpm", "133", "--sync-out", "po", "rec:audio_1",
                                                                                 "--connect-clock", "rec:midi_1", "--connect-sync", "rec:audio_2"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 3)
            server.kill()
            _ = TestProcess.wait(recorder1, seconds: 5)
            Thread.sleep(forTimeInterval: 1.5)
            // Held while the new server and its recorder come up, as `ServerLoss` does.
            kill(tactus.processIdentifier, SIGSTOP)
            try server.start(sampleRate: 44100)
            let recorder2 = try recorder(second)
            kill(tactus.processIdentifier, SIGCONT)
            Thread.sleep(forTimeInterval: 4)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder2)
            let before = try Recording(contentsOf: first), after = try Recording(contentsOf: second)
            let messages = Launch.text(log)
            #expect(!before.changes(port: 2).isEmpty, "before: sanity")
            let pulses = SyncOutputOnJACK.pulses(after.changes(port: 2))
            let ticks = after.ticks(port: 1)
            let index = Dictionary(uniqueKeysWithValues: ticks.enumerated().map { ($1, $0) })
            // 4 s at 133 BPM: 17 eighth notes at the least, each on a tick, 12 ticks apart.
            #expect(pulses.count >= 14, "pulses on the new server: \(pulses.count)\n\(messages)")
            let onTicks = pulses.compactMap { index[$0.rise] }
            #expect(onTicks.count == pulses.count, "pulses off the ticks: \(pulses.filter { index[$0.rise] == nil }.prefix(5))")
            #expect(zip(onTicks, onTicks.dropFirst()).allSatisfy { $1 - $0 == 12 }, "not every 12th tick: \(onTicks.prefix(10))")
            // Every pulse that ended before Tactus left: 15 ms at 44.1 kHz.
            let stop = after.midi(port: 1).first { $0.bytes == [0xFC] }?.frame ?? .max
            let widths = pulses.compactMap { p in p.fall.flatMap { $0 <= stop ? $0 - p.rise : nil } }
            #expect(!widths.isEmpty && widths.allSatisfy { $0 == 662 }, "widths \(Set(widths))")
            #expect(after.changes(port: 2).allSatisfy { $0.value == 0 || $0.value == 1 })
            #expect(messages.contains("JACK server back"), "\(messages)")
        }
    }
}
