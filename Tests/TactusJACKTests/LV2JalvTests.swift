import Foundation
import Testing

extension JACKServerTests {
    /// Issue 20 in a real host: jalv runs the plugin as a JACK client on a
    /// private server; the probe records its ports.
    @Suite struct LV2InJalv {
        static let sampleRate = 48000.0

        /// Records jalv's `click` (audio 1), `feedback` (audio 2) and `midi_out` (MIDI 1).
        static func record(_ server: JackTestServer, jalv: JalvProcess, seconds: Double) throws -> Recording {
            let out = TestFiles.file("\(server.name).lv2.recording")
            let ready = TestFiles.file("\(server.name).lv2.ready")
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--audio-ports", "2", "--midi-ports", "1",
                "--connect", "audio_1=\(jalv.name):click", "--connect", "audio_2=\(jalv.name):feedback", "--connect", "midi_1=\(jalv.name):midi_out",
                "--seconds", "\(seconds)",
            ], output: TestFiles.file("\(server.name).lv2.recorder.log"))
            #expect(TestProcess.wait(recorder, seconds: seconds + 30) == 0)
            return try Recording(contentsOf: out)
        }

        /// Free mode at 133 BPM: clicks and clock ticks on the grid (±0.5 frame,
        /// no gap, no drift), 24 ticks a beat, each click on the frame of its tick.
        @Test func freeModeAt133BPMInJalvClicksAndClocksOnTheGrid() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let jalv = try JalvProcess(server: server, name: "tlv2", controls: ["sync": 0, "tempo": 133])
            defer { jalv.stop() }
            let r = try Self.record(server, jalv: jalv, seconds: 12)
            let beat = Self.sampleRate * 60 / 133
            let clicks = r.clicks(port: 1)
            let ticks = r.ticks(port: 1)
            let clickFit = GridFit(clicks, interval: beat, holes: r.holes)
            let tickFit = GridFit(ticks, interval: beat / 24, holes: r.holes)
            // 12 s at 133 BPM: 26 or 27 beats.
            #expect(clicks.count >= 26, "\(clickFit)")
            // The recording starts mid-song: its first click is itself a rounded
            // grid position, so the grid's phase is fitted (GridFit.fittedError).
            #expect(clickFit.fittedError <= 0.5 && clickFit.gaps == 0, "\(clickFit)")
            #expect(tickFit.fittedError <= 0.5 && tickFit.gaps == 0, "\(tickFit)")
            #expect(abs(clickFit.driftPPM) < 0.5, "\(clickFit)")
            let tickSet = Set(ticks)
            #expect(clicks.allSatisfy { tickSet.contains($0) }, "every click on the frame of a tick")
            for (a, b) in zip(clicks, clicks.dropFirst()) where r.holes.isEmpty {
                #expect(ticks.filter { $0 >= a && $0 < b }.count == 24)
            }
            #expect(jalv.stop() == 0)
        }

        /// Host sync: a test timebase master rolls from frame 0 at 120 BPM 4/4,
        /// steps to 150 BPM at bar 3 and to 3/4 at 100 BPM at bar 5; jalv hands
        /// its BBT to the plugin as time:Position. Every click within a frame of
        /// the master's beat, counted from the first click (transport frame 0).
        @Test func hostSyncInJalvFollowsATimebaseMasterThroughATempoStepAndAMeterChange() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let jalv = try JalvProcess(server: server, name: "tlv2", controls: ["sync": 1])
            defer { jalv.stop() }
            let out = TestFiles.file("\(server.name).lv2sync.recording")
            let ready = TestFiles.file("\(server.name).lv2sync.ready")
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--audio-ports", "1", "--midi-ports", "1",
                "--connect", "audio_1=tlv2:click", "--connect", "midi_1=tlv2:midi_out", "--seconds", "16",
            ], output: TestFiles.file("\(server.name).lv2sync.recorder.log"))
            #expect(TestProcess.waitForFile(ready, seconds: 10))
            let master = try TestProcess.launch(TestFiles.probe, ["transport", "master", "-s", server.name, "--segments", "0:120:4,8:150:4,16:100:3", "--seconds", "13"],
                                                output: TestFiles.file("\(server.name).master.log"))
            #expect(TestProcess.wait(master, seconds: 30) == 0)
            #expect(TestProcess.wait(recorder, seconds: 30) == 0)
            let r = try Recording(contentsOf: out)
            let clicks = r.clicks(port: 1)
            // The master's beats in transport frames: 8 at 24 000, 8 at 19 200, then every 28 800.
            var beats: [Double] = (0..<8).map { Double($0) * 24000 }
            beats += (0..<8).map { 192_000 + Double($0) * 19200 }
            // The master rolls 13 s: its beats up to 12 s (576 000) are all heard.
            beats += (0..<8).map { 345_600 + Double($0) * 28800 }
            guard let first = clicks.first else { Issue.record("no clicks"); return }
            let heard = clicks.map { Double($0 - first) }.filter { $0 < 576_000 }
            #expect(heard.count == beats.count, "clicks \(heard)")
            for (h, b) in zip(heard, beats) { #expect(abs(h - b) <= 1, "click at \(h), the master's beat at \(b)") }
            // Accents on the master's bar lines: 4/4, 4/4, then 3/4.
            let accents = r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map { Double($0.frame - first) }
            #expect(Array(accents.prefix(5)) == [0, 96000, 192_000, 268_800, 345_600], "\(accents)")
            #expect(r.midi().first { $0.bytes != [0xF8] }?.bytes == [0xFA])
            #expect(jalv.stop() == 0)
        }

        /// The interposer on jalv's process thread, counting what the plugin's
        /// code calls (TACTUS_RTPROBE_WITHIN=libTactusLV2.so): ≥ 10 000 cycles of
        /// period 64, 1000 controller messages a second into `control` on the up
        /// key (taps, pressure, holds): not one allocation or lock in run().
        @Test func runInJalvNeitherAllocatesNorLocksOver10000Cycles() throws {
            let server = try JackTestServer(period: 64)
            defer { server.stop() }
            let report = TestFiles.file("\(server.name).lv2.rtprobe")
            let jalv = try JalvProcess(server: server, name: "rtlv2", controls: ["sync": 0, "tempo": 999, "subdivision": 3, "upKey": 60],
                                       environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path,
                                                     "TACTUS_RTPROBE_WITHIN": "libTactusLV2.so"])
            let sender = try TestProcess.launch(TestFiles.probe, [
                "send", "-s", server.name, "--to", "rtlv2:control", "--rate", "1000", "--seconds", "13",
            ], output: TestFiles.file("\(server.name).lv2.sender.log"))
            #expect(TestProcess.wait(sender, seconds: 40) == 0)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(jalv.stop() == 0)
            let r = try RealtimeProof.ProbeReport(report)
            #expect(r.cycles >= 10_000, "\(r.counts)")
            #expect(r.violations == 0, "calls from the plugin on the process thread: \(r.counts)")
        }

        /// The filter sees what it is there to see: attributed to libsord (which
        /// jalv 1.6's own process callback calls, allocating), the calls are counted.
        @Test func theInterposersFilterCountsTheCallsOfTheObjectItNames() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let report = TestFiles.file("\(server.name).lv2sord.rtprobe")
            let jalv = try JalvProcess(server: server, name: "sordlv2", controls: ["sync": 0],
                                       environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path,
                                                     "TACTUS_RTPROBE_WITHIN": "libsord"])
            Thread.sleep(forTimeInterval: 2)
            #expect(jalv.stop() == 0)
            let r = try RealtimeProof.ProbeReport(report)
            #expect(r.cycles > 100)
            #expect(r.violations >= r.cycles, "\(r.counts)")
        }
    }
}
