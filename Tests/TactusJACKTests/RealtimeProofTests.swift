import Foundation
import Testing

extension JACKServerTests {
    /// The real-time proof (issue 3): the LD_PRELOAD interposer (Tests/RTProbe)
    /// counts allocator and lock calls made inside the process callback.
    @Suite struct RealtimeProof {
        struct ProbeReport {
            var counts: [String: Int] = [:]
            var cycles: Int { counts["cycles"] ?? 0 }
            var violations: Int { counts["violations"] ?? -1 }

            init(_ url: URL) throws {
                for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                    let f = line.split(separator: " ")
                    if f.count == 2, let n = Int(f[1]) { counts[String(f[0])] = n }
                }
            }
        }

        /// The interposer must see what it is there to see: a callback that
        /// mallocs, frees and locks a mutex every cycle is counted every cycle.
        @Test func interposerCountsAllocationsAndLocksInAnAllocatingCallback() throws {
            let server = try JackTestServer(period: 64)
            defer { server.stop() }
            let report = TestFiles.file("\(server.name).allocate.rtprobe")
            let p = try TestProcess.launch(TestFiles.probe, ["allocate", "-s", server.name, "--seconds", "1"],
                                           output: TestFiles.file("\(server.name).allocate.log"),
                                           environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path])
            #expect(TestProcess.wait(p, seconds: 10) == 0)
            let r = try ProbeReport(report)
            #expect(r.cycles > 100)
            #expect((r.counts["malloc"] ?? 0) >= r.cycles)
            #expect((r.counts["free"] ?? 0) >= r.cycles)
            #expect((r.counts["pthread_mutex_lock"] ?? 0) >= r.cycles)
            #expect(r.violations >= 4 * r.cycles)
        }

        /// ≥ 10 000 cycles at 999 BPM with 16ths configured, the tempo changing
        /// every 100 ms (across the 300 BPM subdivision cutoff), 1000 MIDI
        /// events a second into `control`: not one allocation or lock.
        @Test func processCallbackNeitherAllocatesNorLocksOver10000Cycles() throws {
            let server = try JackTestServer(period: 64)
            defer { server.stop() }
            let report = TestFiles.file("\(server.name).rtprobe")
            let harnessLog = TestFiles.file("\(server.name).events")
            let senderReport = TestFiles.file("\(server.name).sent")
            let tactus = try TestProcess.launch(TestFiles.probe, [
                "metronome", "-s", server.name, "-n", "rtproof", "--bpm", "999", "--subdivision", "sixteenths",
                "--tempo-sweep", "100:999,250,998,299,640,997,120,999", "--clock-stream", "--events", harnessLog.path,
                "system:playback_1", "system:playback_2",
            ], output: TestFiles.file("\(server.name).rtproof.log"),
               environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            let sender = try TestProcess.launch(TestFiles.probe, [
                "send", "-s", server.name, "--to", "rtproof:control", "--rate", "1000", "--seconds", "13", "--report", senderReport.path,
            ], output: TestFiles.file("\(server.name).sender.log"))
            #expect(TestProcess.wait(sender, seconds: 30) == 0)
            Thread.sleep(forTimeInterval: 1.0)
            kill(tactus.processIdentifier, SIGTERM)
            #expect(TestProcess.wait(tactus, seconds: 10) == 0)

            let r = try ProbeReport(report)
            #expect(r.cycles >= 10_000)
            #expect(r.violations == 0, "calls on the process thread: \(r.counts)")
            let log = try String(contentsOf: harnessLog, encoding: .utf8)
            let sent = try String(contentsOf: senderReport, encoding: .utf8)
            #expect(sent == "sent 13000 lost 0\n")
            #expect(log.contains("control-input received 13000 dropped 0"), "\(log)")
            let changes = log.split(separator: "\n").first { $0.hasPrefix("tempo-changes") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
            #expect(changes >= 130, "\(log)")
        }
    }
}
