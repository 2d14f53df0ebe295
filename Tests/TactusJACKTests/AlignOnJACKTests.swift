import Foundation
import Testing

extension JACKServerTests {
    /// Latency alignment on a private jackd, as `tactus run` does it by default
    /// (no `--align` given; docs/DESIGN.md §3.8): the recorder's
    /// `audio_1` reports a playback latency of 512 frames (the click's path),
    /// its `midi_1` 128 (the clock's), its `audio_2` 0 (a volca's sync), so
    /// Tactus sends each clock tick 384 frames after its click's frame and
    /// each sync pulse 512 after, and all three arrive together; 4 s in, the
    /// recorder announces `midi_1` at 0 frames (`jack_recompute_total_latencies`)
    /// and the ticks move to 512 frames after the clicks from the cycles that
    /// follow, none lost or doubled.
    @Suite struct AlignOnJACK {
        static let period = 256

        @Test func theClockLeavesTheClickLatencyDifferenceLaterAndFollowsALatencyChange() throws {
            let server = try JackTestServer(period: Self.period)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).align.recording"), log = TestFiles.file("\(tag).align.tactus.log")
            let ready = URL(fileURLWithPath: out.path + ".ready")
            let recorder = try TestProcess.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path,
                                                                    "--audio-ports", "2", "--midi-ports", "1",
                                                                    "--latency", "audio_1=512", "--latency", "midi_1=128", "--latency", "audio_2=0",
                                                                    "--latency-at", "4:midi_1=0"],
                                                  output: URL(fileURLWithPath: out.path + ".log"))
            guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
            let tactus = try Launch.tactus(server: server.name, name: "tactus", ["--bpm", "120", "rec:audio_1", "--connect-clock", "rec:midi_1",
                                                                                     "--sync-out", "volca", "--connect-sync", "rec:audio_2"], log: log)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 8)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder)
            let r = try Recording(contentsOf: out)
            let messages = Launch.text(log)
            #expect(messages.contains("aligned: click 512 frames, clock 128 (+384), sync 0 (+512)"), "\(messages)")
            #expect(messages.contains("aligned: click 512 frames, clock 0 (+512), sync 0 (+512)"), "\(messages)")
            let announced = try #require(Launch.text(out).split(separator: "\n").first { $0.hasPrefix("LC ") }.flatMap { Int64($0.split(separator: " ")[1]) },
                                         "the recorder's latency change")

            // 120 BPM at 48 kHz: a click every 24 000 frames, a tick every 1000, exactly.
            let clicks = r.clicks(port: 1), ticks = r.ticks(port: 1)
            let first = try #require(clicks.first)
            #expect(clicks.count >= 12, "clicks \(clicks.count)")
            func shift(_ tick: Int64) -> Int64 { ((tick - first) % 1000 + 1000) % 1000 }
            let tickSet = Set(ticks), pulses = Set(r.clicks(port: 2))
            // Each click's sync pulse (a volca's: one a beat, and one between) 512 frames after it, throughout.
            let stop = r.midi(port: 1).first { $0.bytes == [0xFC] }?.frame ?? r.endFrame
            for click in clicks where r.holes.allSatisfy({ !$0.contains(click) }) && click < stop - 24_000 {
                #expect(pulses.contains(click + 512), "the sync pulse of the click at \(click)")
            }
            // Each click's tick arrives with it: 384 frames after it before the change, 512 after.
            for click in clicks where r.holes.allSatisfy({ !$0.contains(click) }) {
                if click + 512 < announced - Int64(Self.period) {
                    #expect(tickSet.contains(click + 384), "the tick of the click at \(click), before the change")
                } else if click > announced + 3 * Int64(Self.period) {
                    #expect(tickSet.contains(click + 512), "the tick of the click at \(click), after the change")
                }
            }
            // Every tick at one of the two shifts: the old one until the change, the
            // new one from the first tick of grid frame 3 periods after the
            // announcement (the recorder's poll and one cycle), never back.
            let shifts = ticks.filter { $0 >= first }.map { ($0, shift($0)) }
            #expect(shifts.allSatisfy { $0.1 == 384 || $0.1 == 512 }, "ticks off both shifts: \(shifts.filter { $0.1 != 384 && $0.1 != 512 }.prefix(5))")
            let switchAt = try #require(shifts.firstIndex { $0.1 == 512 })
            #expect(shifts[switchAt...].allSatisfy { $0.1 == 512 })
            let grid = shifts[switchAt].0 - 512
            #expect(grid >= announced - Int64(Self.period) && grid <= announced + 3 * Int64(Self.period) + 1000,
                    "first tick at the new shift on grid frame \(grid), the change announced at \(announced)")
            // None lost or doubled: 1000 frames between ticks, 1128 once where the shift grew by 128.
            guard r.holes.isEmpty && r.xruns == 0 else { print("align: xruns \(r.xruns), holes \(r.holes.count): spacing not judged"); return }
            let gaps = zip(ticks.filter { $0 >= first }, ticks.filter { $0 >= first }.dropFirst()).map { $1 - $0 }
            #expect(gaps.filter { $0 == 1128 }.count == 1 && gaps.allSatisfy { $0 == 1000 || $0 == 1128 }, "tick spacing \(Set(gaps))")
            print("align: \(clicks.count) clicks, \(ticks.count) ticks, the change announced at frame \(announced), the first tick at +512 on grid frame \(grid)")
        }
    }
}
