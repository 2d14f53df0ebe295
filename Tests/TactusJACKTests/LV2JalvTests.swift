import Foundation
import Synchronization
import Testing

extension JACKServerTests {
    /// The LV2 plugin in a real host: jalv runs the plugin as a JACK client on a
    /// private server; the probe records its ports.
    @Suite struct LV2InJalv {
        static let sampleRate = 48000.0

        /// Starts the probe's recorder on `audio` (its audio ports 1, 2 …) and
        /// `midi` (its MIDI port 1), for `seconds`, and waits until it is connected.
        static func startRecorder(_ server: JackTestServer, _ tag: String, audio: [String], midi: String,
                                  seconds: Double) throws -> (process: Process, file: URL) {
            let out = TestFiles.file("\(server.name).\(tag).recording")
            let ready = TestFiles.file("\(server.name).\(tag).ready")
            let connections = audio.enumerated().flatMap { ["--connect", "audio_\($0.offset + 1)=\($0.element)"] } + ["--connect", "midi_1=\(midi)"]
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path,
                "--audio-ports", "\(audio.count)", "--midi-ports", "1", "--seconds", "\(seconds)",
            ] + connections, output: TestFiles.file("\(server.name).\(tag).recorder.log"))
            #expect(TestProcess.waitForFile(ready, seconds: 10))
            return (recorder, out)
        }

        /// The recording `startRecorder` makes, once it has ended.
        static func finish(_ recorder: (process: Process, file: URL), seconds: Double) throws -> Recording {
            #expect(TestProcess.wait(recorder.process, seconds: seconds + 30) == 0)
            return try Recording(contentsOf: recorder.file)
        }

        /// Host sync under the tests' timebase master (`segments` as its
        /// --segments, rolling `masterSeconds` from frame 0): the plugin's click
        /// and midi_out recorded for `seconds`.
        static func recordFollowingMaster(name: String, segments: String, masterSeconds: Int, seconds: Double) throws -> Recording {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let jalv = try JalvProcess(server: server, name: name, controls: ["sync": 1])
            defer { jalv.stop() }
            let recorder = try startRecorder(server, "\(name).sync", audio: ["\(name):click"], midi: "\(name):midi_out", seconds: seconds)
            let master = try TestProcess.launch(TestFiles.probe, ["transport", "master", "-s", server.name, "--segments", segments, "--seconds", "\(masterSeconds)"],
                                                output: TestFiles.file("\(server.name).\(name).master.log"))
            #expect(TestProcess.wait(master, seconds: 30) == 0)
            let r = try finish(recorder, seconds: seconds)
            #expect(jalv.stop() == 0)
            return r
        }

        /// Free mode at 133 BPM: clicks and clock ticks on the grid (±0.5 frame,
        /// no gap, no drift), 24 ticks a beat, each click on the frame of its tick.
        @Test func freeModeAt133BPMInJalvClicksAndClocksOnTheGrid() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let jalv = try JalvProcess(server: server, name: "tlv2", controls: ["sync": 0, "tempo": 133])
            defer { jalv.stop() }
            let recorder = try Self.startRecorder(server, "lv2", audio: ["tlv2:click"], midi: "tlv2:midi_out", seconds: 12)
            let r = try Self.finish(recorder, seconds: 12)
            let beat = Self.sampleRate * 60 / 133
            let clicks = r.clicks(port: 1)
            let ticks = r.ticks(port: 1)
            let clickFit = GridFit(clicks, interval: beat, holes: r.holes)
            let tickFit = GridFit(ticks, interval: beat / 24, holes: r.holes)
            // What the machine did meanwhile: cycles the recorder missed (its holes, which
            // GridFit and the count below allow for) and the server's xruns.
            let disturbed = "recorder holes \(r.holes.count), server xruns \(server.xrunReport().count)"
            // 12 s at 133 BPM: 26 or 27 beats.
            #expect(clicks.count >= 26, "clicks: \(clicks.count) in 12 s (\(disturbed)); \(clickFit)")
            // The recording starts mid-song: its first click is itself a rounded
            // grid position, so the grid's phase is fitted (GridFit.fittedError).
            #expect(clickFit.fittedError <= 0.5, "click grid error \(clickFit.fittedError) frames (\(disturbed)); \(clickFit)")
            #expect(clickFit.gaps == 0, "click gaps \(clickFit.gaps) (\(disturbed)); \(clickFit)")
            #expect(tickFit.fittedError <= 0.5, "tick grid error \(tickFit.fittedError) frames (\(disturbed)); \(tickFit)")
            #expect(tickFit.gaps == 0, "tick gaps \(tickFit.gaps) (\(disturbed)); \(tickFit)")
            #expect(abs(clickFit.driftPPM) < 0.5, "click drift \(clickFit.driftPPM) ppm (\(disturbed)); \(clickFit)")
            let tickSet = Set(ticks)
            let offTicks = clicks.filter { !tickSet.contains($0) }
            #expect(offTicks.isEmpty, "clicks on no tick's frame: \(offTicks) (\(disturbed))")
            for (a, b) in zip(clicks, clicks.dropFirst()) where r.holes.isEmpty {
                let n = ticks.filter { $0 >= a && $0 < b }.count
                #expect(n == 24, "ticks from the click at \(a) to the next at \(b): \(n) (\(disturbed))")
            }
            #expect(jalv.stop() == 0, "jalv's exit status")
        }

        /// Host sync: a test timebase master rolls from frame 0 at 120 BPM 4/4,
        /// steps to 150 BPM at bar 3 and to 3/4 at 100 BPM at bar 5; jalv hands
        /// its BBT to the plugin as time:Position. Every click within a frame of
        /// the master's beat, counted from the first click (transport frame 0).
        @Test func hostSyncInJalvFollowsATimebaseMasterThroughATempoStepAndAMeterChange() throws {
            let r = try Self.recordFollowingMaster(name: "tlv2", segments: "0:120:4,8:150:4,16:100:3", masterSeconds: 13, seconds: 16)
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
        }

        /// Pressure control through jalv: the probe's sender plays the up key
        /// (72) with full pressure in one frame, holds it 0.5 s. On `midi_out`, in
        /// the plugin's frames: the impact and max cues at the Note On's frame, the
        /// selection cue of each +10 force step exactly 0.32 and 0.48 s after it;
        /// the clock's tick interval gives the tempo: 121 from the tap at once,
        /// then 131 and 141 BPM.
        @Test func pressureInJalvRunsTheTimelineInThePluginsFrames() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let jalv = try JalvProcess(server: server, name: "plv2", controls: ["sync": 0, "tempo": 120])
            defer { jalv.stop() }
            let script = TestFiles.file("\(server.name).lv2.pressure")
            try "1.0 90 48 64\n1.0 D0 7F\n1.5 80 48 00\n".write(to: script, atomically: true, encoding: .utf8)
            let recorder = try Self.startRecorder(server, "lv2p", audio: ["plv2:feedback"], midi: "plv2:midi_out", seconds: 4)
            let sender = try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--to", "plv2:control", "--script", script.path],
                                                output: TestFiles.file("\(server.name).lv2p.sender.log"))
            #expect(TestProcess.wait(sender, seconds: 20) == 0)
            let r = try Self.finish(recorder, seconds: 4)
            let cues = r.midi().filter { $0.bytes.first == 0x9F }
            #expect(cues.map { $0.bytes[1] } == [36, 38, 37, 37], "\(cues.map(\.bytes))")
            guard cues.count == 4 else { return }
            let press = cues[0].frame
            #expect(cues.map { $0.frame - press } == [0, 0, 15360, 23040])
            let ticks = r.ticks()
            func interval(after frame: Int64) -> Int64? {
                guard let i = ticks.firstIndex(where: { $0 > frame }), i + 2 < ticks.count else { return nil }
                return ticks[i + 2] - ticks[i + 1]
            }
            // A tick of 120 BPM lasts 1000 frames, 121: 991.7, 131: 916.0, 141: 851.1.
            #expect(interval(after: press - 5000) == 1000)
            #expect(abs((interval(after: press) ?? 0) - 992) <= 1)
            #expect(abs((interval(after: press + 15360) ?? 0) - 916) <= 1)
            #expect(abs((interval(after: press + 23040) ?? 0) - 851) <= 1)
            #expect(jalv.stop() == 0)
        }

        /// One interposer run of jalv: what the plugin's code called on jalv's
        /// process thread, and how the run's processes ended.
        struct InterposerRun: Sendable {
            var report: RealtimeProof.ProbeReport
            var senderStatus: Int32?
            var masterStatus: Int32?
            var jalvStatus: Int32?
        }

        /// The two interposer runs made side by side, each on a private server of
        /// its own, as the real-time proof's are (RealtimeProofTests.swift): an
        /// interposer run counts the calls made on jalv's process thread and claims
        /// nothing about time, and a server beside it makes xruns, not calls. The
        /// suite takes one run's time, not two. The servers start one after the
        /// other, and so do the runs' clients (jack2's servers share one registry
        /// of shared memory).
        static let interposerRuns: [String: Result<InterposerRun, TestFailure>] = {
            let runs: [(name: String, controls: [String: Double], segments: String?)] = [
                ("rtlv2", ["sync": 0, "tempo": 999, "subdivision": 3, "upKey": 60], nil),
                ("rtsync", ["sync": 1, "subdivision": 3, "upKey": 60], "0:120:4,8:300:4,40:90:7"),
            ]
            var servers: [String: JackTestServer] = [:]
            var results: [String: Result<InterposerRun, TestFailure>] = [:]
            for run in runs {
                do { servers[run.name] = try JackTestServer(period: 64) } catch {
                    results[run.name] = .failure(TestFailure("\(run.name): \(error)"))
                }
            }
            let finished = Mutex(results)
            let done = DispatchSemaphore(value: 0)
            for run in runs {
                guard let server = servers[run.name] else { continue }
                nonisolated(unsafe) let running = server
                Thread.detachNewThread {
                    let result: Result<InterposerRun, TestFailure>
                    do {
                        result = .success(try underInterposer(run.name, controls: run.controls, masterSegments: run.segments, on: running))
                    } catch {
                        result = .failure(TestFailure("\(run.name): \(error)"))
                    }
                    running.stop()
                    finished.withLock { $0[run.name] = result }
                    done.signal()
                }
                Thread.sleep(forTimeInterval: 1)
            }
            for _ in servers { done.wait() }
            return finished.withLock { $0 }
        }()

        /// jalv running the plugin `name` with `controls` under the interposer on
        /// `server` (TACTUS_RTPROBE_WITHIN=libTactusLV2.so: the plugin's own calls),
        /// 1000 controller messages a second into its `control` for 13 s, beside the
        /// tests' timebase master playing `masterSegments` for 12 s when given.
        static func underInterposer(_ name: String, controls: [String: Double], masterSegments: String?,
                                    on server: JackTestServer) throws -> InterposerRun {
            let report = TestFiles.file("\(server.name).\(name).rtprobe")
            let jalv = try JalvProcess(server: server, name: name, controls: controls,
                                       environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path,
                                                     "TACTUS_RTPROBE_WITHIN": "libTactusLV2.so"])
            defer { if jalv.process.isRunning { jalv.stop() } }
            let master = try masterSegments.map {
                try TestProcess.launch(TestFiles.probe, ["transport", "master", "-s", server.name, "--segments", $0, "--seconds", "12"],
                                       output: TestFiles.file("\(server.name).\(name).master.log"))
            }
            defer { if let master, master.isRunning { kill(master.processIdentifier, SIGKILL) } }
            let sender = try TestProcess.launch(TestFiles.probe, [
                "send", "-s", server.name, "--to", "\(name):control", "--rate", "1000", "--seconds", "13",
            ], output: TestFiles.file("\(server.name).\(name).sender.log"))
            let senderStatus = TestProcess.wait(sender, seconds: 40)
            let masterStatus = master.map { TestProcess.wait($0, seconds: 10) } ?? 0
            Thread.sleep(forTimeInterval: 0.5)
            let jalvStatus = jalv.stop()
            return InterposerRun(report: try RealtimeProof.ProbeReport(report), senderStatus: senderStatus,
                                 masterStatus: masterStatus, jalvStatus: jalvStatus)
        }

        /// The run `name` of `interposerRuns`: its sender, master and jalv exited 0,
        /// at least 10 000 cycles counted, not one call from the plugin on the
        /// process thread.
        static func checkInterposerRun(_ name: String) throws {
            let run = try #require(interposerRuns[name]).get()
            #expect(run.senderStatus == 0 && run.masterStatus == 0 && run.jalvStatus == 0,
                    "\(name): sender \(String(describing: run.senderStatus)), master \(String(describing: run.masterStatus)), jalv \(String(describing: run.jalvStatus))")
            #expect(run.report.cycles >= 10_000, "\(run.report.counts)")
            #expect(run.report.violations == 0, "calls from the plugin on the process thread: \(run.report.counts)")
        }

        /// The interposer on jalv's process thread, counting what the plugin's
        /// code calls (TACTUS_RTPROBE_WITHIN=libTactusLV2.so): ≥ 10 000 cycles of
        /// period 64, 1000 controller messages a second into `control` on the up
        /// key (taps, pressure, holds): not one allocation or lock in run().
        @Test func runInJalvNeitherAllocatesNorLocksOver10000Cycles() throws {
            try Self.checkInterposerRun("rtlv2")
        }

        /// The same on host sync: a timebase master with a tempo step and a meter
        /// change drives the plugin through jalv's time:Position events while the
        /// controller's messages arrive; it stops near the end (Stop, standing still).
        @Test func runInJalvOnHostSyncNeitherAllocatesNorLocksOver10000Cycles() throws {
            try Self.checkInterposerRun("rtsync")
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
