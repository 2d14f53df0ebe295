import Foundation
import Testing

extension JACKServerTests {
    /// `--clock-in` following a real MIDI clock source: jack_midi_clock
    /// (Debian's 0.4.3), which turns JACK transport into MIDI beat clock, following
    /// the test timebase master (`transport master`: 120 BPM for bars 1–4, 133
    /// from bar 5), its `mclk_out` into Tactus's `clock_in` and into the recorder
    /// (`rec:midi_2`), Tactus's click and clock out into `rec:audio_1` and
    /// `rec:midi_1`, the master's BBT logged every cycle (`--transport`). One take:
    /// Start from frame 0; Stop 2 s in; a locate (stopped) to bar 3 beat 2
    /// (transport frame 216 000) and a start, which jack_midi_clock answers with
    /// Song Position 52 and, two seconds later (its `--resync-delay`), a Continue
    /// on the tick of sixteenth 52 (bar 4 beat 2); the step to 133 at bar 5 while it plays.
    ///
    /// Where the take is placed: jack_midi_clock 0.4.3 adds its tick interval
    /// (the tempo of the cycle's first frame) to its last tick, so a tempo step
    /// on a cycle's first frame makes the step's own tick one interval of the new
    /// tempo after the last, before the cycle: never sent, and every later tick
    /// 97.7 frames (1000 − 902.3) before the master's beat. With a locate to bar 3
    /// (192 000) bar 5 (384 000) is such a frame (375 × 2 × 256 after it); from
    /// 216 000 it falls 64 frames into a cycle, and the tick is sent on the
    /// beat. And it sends the Continue with the first tick of the first cycle that
    /// starts at or after the Song Position's sixteenth, a tick late unless that
    /// sixteenth starts a cycle: 16 sixteenths at 120 BPM are 96 000 frames, 375
    /// periods after the locate, so it does. docs/DESIGN.md §9.1 says so.
    ///
    /// The claims, on beats with no xrun or recorder hole in the beat before
    /// them (jack_midi_clock places its ticks in frames and the follower reads
    /// frames, so a late wake-up moves nothing; a lost cycle loses its ticks):
    /// Tactus's click within ±1 frame of the master's beat from the second beat
    /// after Start, from the Continue's beat, and from the second beat after the
    /// step (accents on the master's bar lines: the Song Position counts Tactus's
    /// bars); Tactus's clock out a tick within ±1 frame of each of those clicks;
    /// none of either from the Stop to the Continue (jack_midi_clock's ticks
    /// while the song waits for its Continue included); Tactus's clock out sends
    /// Stop on jack_midi_clock's Stop's frame and Song Position 52 and Continue on
    /// its Continue's.
    @Suite struct ClockInFollowsJackMidiClock {
        static let rate = 48_000.0
        /// The master's beat `k` (from bar 1 beat 1, transport frame 0): 24 000 frames apart, 21 654.1 from beat 16.
        static func beatFrame(_ k: Int) -> Double { k <= 16 ? Double(k) * 24_000 : 384_000 + Double(k - 16) * rate * 60 / 133 }

        @Test func clickAndClockOutOnTheMastersBeatsThroughStartStopContinueAndATempoStep() throws {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/jack_midi_clock"),
                         "jack_midi_clock is a test dependency: apt-get install jack-midi-clock")
            let began = Date()
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).recording"), ready = TestFiles.file("\(tag).ready")
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--transport",
                "--audio-ports", "1", "--midi-ports", "2", "--seconds", "10.5",
            ], output: TestFiles.file("\(tag).recorder.log"))
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
            let log = TestFiles.file("\(tag).tactus.log")
            let tactus = try Launch.tactus(server: server.name, name: "tactus",
                                           ["--bpm", "100", "--clock-in", "--connect-clock", "rec:midi_1", "rec:audio_1"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(log, containing: "jack connected"), "\(Launch.text(log))")
            let jmc = try TestProcess.launch("/usr/bin/jack_midi_clock", ["tactus:clock_in", "rec:midi_2"],
                                             output: TestFiles.file("\(tag).jmc.log"), environment: ["JACK_DEFAULT_SERVER": server.name])
            defer { if jmc.isRunning { kill(jmc.processIdentifier, SIGKILL) } }
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, ((try? ReadmeQuickStart.connections(server: server.name)) ?? [:])["tactus:clock_in"] != ["jack_midi_clock:mclk_out"] {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let master = try TestProcess.launch(TestFiles.probe, ["transport", "master", "-s", server.name, "--segments", "0:120:4,16:133:4",
                                                                  "--seconds", "8.5"], output: TestFiles.file("\(tag).master.log"))
            defer { if master.isRunning { kill(master.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 2)
            for request in [["stop"], ["locate", "216000"], ["start"]] {
                let p = try TestProcess.launch(TestFiles.probe, ["transport"] + request + ["-s", server.name],
                                               output: TestFiles.file("\(tag).\(request[0]).log"))
                #expect(TestProcess.wait(p, seconds: 10) == 0, "transport \(request)")
            }
            #expect(TestProcess.wait(master, seconds: 20) == 0)
            #expect(TestProcess.wait(recorder, seconds: 20) == 0)
            kill(jmc.processIdentifier, SIGINT)
            _ = TestProcess.wait(jmc, seconds: 5)
            #expect(Launch.stop(tactus) == 0)
            let messages = Launch.text(log)
            let r = try Recording(contentsOf: out)

            // The master's beat k on the recorder's frames: through the rolling cycle its transport frame is in.
            let rolling = r.transport.filter(\.rolling)
            func jackFrame(ofBeat k: Int) -> Double? {
                let t = Self.beatFrame(k)
                guard let row = rolling.last(where: { Double($0.transportFrame) <= t }), t < Double(row.transportFrame) + Double(r.period) else { return nil }
                return Double(row.frame) + t - Double(row.transportFrame)
            }
            let clicks = r.onsets.filter { $0.port == 1 }
            let clockOut = r.ticks(port: 1), theirs = r.ticks(port: 2)
            let jmcMessages = r.midi(port: 2).filter { $0.bytes != [0xF8] }, ourMessages = r.midi(port: 1).filter { $0.bytes != [0xF8] }
            let stop = jmcMessages.first { $0.bytes == [0xFC] }?.frame
            let cont = jmcMessages.first { $0.bytes == [0xFB] }?.frame
            // Three stretches of beats judged: after Start, from the Continue, after the step.
            let stretches: [(name: String, beats: ClosedRange<Int>)] = [("after Start", 2...3), ("from Continue", 13...16), ("after the step", 18...20)]
            var lines: [String] = [], wrong: [String] = [], judgedCount: [String: Int] = [:], worst: [String: Double] = [:]
            for (name, beats) in stretches {
                for k in beats {
                    guard let beat = jackFrame(ofBeat: k) else { wrong.append("\(name): beat \(k) not rolling in the recording"); continue }
                    let b = Int64(beat.rounded())
                    let lost = r.xrunned(from: b - 24_000, to: b + 1) || r.holes.contains { $0.overlaps((b - 24_000)...(b + 1)) }
                    let ours = clicks.filter { abs(Double($0.frame) - beat) <= 1 }
                    let near = clicks.min { abs(Double($0.frame) - beat) < abs(Double($1.frame) - beat) }
                    let theirTick = theirs.min { abs(Double($0) - beat) < abs(Double($1) - beat) }
                    let out = near.flatMap { c in clockOut.first { abs($0 - c.frame) <= 1 } }
                    let offset = near.map { Double($0.frame) - beat } ?? .nan
                    lines.append(String(format: "%@ beat %d: click %+.1f, jack_midi_clock %+.1f, clock out %@%@", name, k, offset,
                                        theirTick.map { Double($0) - beat } ?? .nan, out.map { "\($0 - near!.frame)" } ?? "none", lost ? " (not judged: a lost cycle)" : ""))
                    guard !lost else { continue }
                    judgedCount[name, default: 0] += 1
                    worst[name] = max(worst[name] ?? 0, abs(offset))
                    let accent = k % 4 == 0
                    if ours.count != 1 || (ours[0].value > 0.8) != accent || out == nil {
                        wrong.append("\(name) beat \(k) at \(beat): clicks \(ours.map { "\($0.frame) \($0.value)" }), nearest \(near.map { "\($0.frame)" } ?? "none"), clock out \(out.map(String.init) ?? "none")")
                    }
                }
            }
            print("clock in from jack_midi_clock (jackd): " + lines.joined(separator: "\n  "))
            print("clock in from jack_midi_clock (jackd): worst click offset \(worst.map { "\($0.key) \($0.value)" }.sorted()), judged \(judgedCount.sorted { $0.key < $1.key }), xruns \(r.xruns), holes \(r.holes.count), take \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
            #expect(wrong.isEmpty, "\(wrong)\n\(messages)")
            #expect(stretches.allSatisfy { (judgedCount[$0.name] ?? 0) > 0 }, "a stretch with no beat judged: \(judgedCount), xruns \(r.xruns)")
            // Stop and Continue: jack_midi_clock's as the take expects, Tactus's clock out on the same frames, and nothing in between.
            // jack_midi_clock's placement the take relies on: Song Position 52 the last before its Continue, and the Continue on beat 13's frame.
            let position = jmcMessages.last { $0.bytes.first == 0xF2 && $0.frame < (cont ?? .max) }
            #expect(position?.bytes == [0xF2, 0x34, 0] && cont.map(Double.init) == jackFrame(ofBeat: 13),
                    "jack_midi_clock sent \(jmcMessages.map { "\($0.frame) \($0.bytes)" }), beat 13 at \(jackFrame(ofBeat: 13).map { "\($0)" } ?? "none")")
            guard let stop, let cont else { Issue.record("no Stop or Continue from jack_midi_clock: \(jmcMessages.map(\.bytes))"); return }
            #expect(ourMessages.contains { $0.frame == stop && $0.bytes == [0xFC] }, "Tactus's clock out: \(ourMessages.map { "\($0.frame) \($0.bytes)" })")
            let resumed = ourMessages.filter { $0.frame == cont }.map(\.bytes)
            #expect(resumed == [[0xF2, 0x34, 0], [0xFB]], "at the Continue \(cont): \(ourMessages.map { "\($0.frame) \($0.bytes)" })")
            let between = clicks.filter { $0.frame > stop && $0.frame < cont }.count + clockOut.filter { $0 > stop && $0 < cont }.count
            #expect(between == 0 && theirs.contains { $0 > stop && $0 < cont }, "\(between) clicks or ticks out between Stop \(stop) and Continue \(cont)")
        }
    }
}
