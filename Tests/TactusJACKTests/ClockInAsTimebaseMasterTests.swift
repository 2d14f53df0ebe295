import Foundation
import Testing

extension JACKServerTests {
    /// `--clock-in --transport master` on a private jackd (docs/DESIGN.md §9):
    /// a scripted clock (`send --script`, placed in frames) with ±1 ms of
    /// jitter, 4 beats at 120 BPM then 4 at 140, into `clock_in`; the recorder
    /// logs every cycle's BBT (`--transport`). The simulated tier
    /// (`SimulatedClockInMasterTests`) models jack2 calling the timebase
    /// callback after the process callback, for the next cycle; this take holds
    /// jack2 to it: every click in a rolling cycle with no lost cycle in the
    /// beat before it is within ±0.5 frame of the beat its cycle's BBT puts it
    /// on, the accent on beat 1.
    @Suite struct ClockInAsTimebaseMaster {
        @Test func theBBTTactusPublishesWhileFollowingAJitteredClockHasItsBeatsOnTheClicks() throws {
            let began = Date()
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let tag = server.name
            // The clock: Start, then ticks, each moved by a jitter uniform in ±1 ms from a fixed sequence.
            var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
            var lines = ["0.2 FA"], time = 0.22
            for k in 0..<(8 * 24) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let jitter = (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * 0.001
                lines.append(String(format: "%.6f F8", time + jitter))
                time += 60 / (k < 4 * 24 ? 120.0 : 140.0) / 24
            }
            let script = TestFiles.file("\(tag).clock.script")
            try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
            let out = TestFiles.file("\(tag).recording"), ready = TestFiles.file("\(tag).ready")
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--transport",
                "--audio-ports", "1", "--midi-ports", "1", "--seconds", "6",
            ], output: TestFiles.file("\(tag).recorder.log"))
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
            let sender = try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--name", "clocksender", "--script", script.path],
                                                output: TestFiles.file("\(tag).sender.log"))
            defer { if sender.isRunning { kill(sender.processIdentifier, SIGKILL) } }
            let log = TestFiles.file("\(tag).tactus.log")
            let tactus = try Launch.tactus(server: server.name, name: "tactus",
                                           ["--bpm", "100", "--clock-in", "--transport", "master", "--connect-clock-in", "clocksender:out",
                                            "--connect-clock", "rec:midi_1", "rec:audio_1"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(TestProcess.wait(recorder, seconds: 20) == 0)
            #expect(Launch.stop(tactus) == 0)
            let messages = Launch.text(log)
            let r = try Recording(contentsOf: out)
            let beats = JackTransport.masterBeats(r)
            let judged = beats.filter { b in !r.xrunned(from: b.frame - 24_000, to: b.frame) && !r.holes.contains { $0.overlaps((b.frame - 24_000)...b.frame) } }
            let worst = judged.map { abs($0.error) }.max() ?? .infinity
            print("clock in as timebase master (jackd): \(r.onsets.filter { $0.port == 1 }.count) clicks, \(beats.count) in rolling cycles, \(judged.count) judged, "
                  + "worst \(String(format: "%.3f", worst)) frame; errors \(judged.map { String(format: "%.2f", $0.error) }); xruns \(r.xruns), holes \(r.holes.count), "
                  + "take \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
            #expect(messages.contains("JACK timebase master"), "\(messages)")
            #expect(judged.count >= 5 && worst <= 0.5, "\(judged.filter { abs($0.error) > 0.5 }.map { "\($0.frame): \($0.error)" })\n\(messages)")
            #expect(judged.allSatisfy { $0.accent == ($0.beat == 1) }, "\(judged.map { "\($0.bar).\($0.beat) \($0.accent)" })")
        }
    }
}
