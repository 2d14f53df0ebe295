import Foundation
import Testing

extension JACKServerTests {
    /// `tactus clock-meter PORT` (README "Measuring a MIDI clock", docs/DESIGN.md
    /// §9.1 "The meter") on a live server, one session: jack_midi_clock following
    /// the probe's transport master at 120 BPM, Tactus's own `clock` at 97.3 BPM
    /// (1233.3 frames a tick: its ticks fall on whole frames, so the intervals are
    /// 1233 or 1234 and the spread is the frames' own), and a scripted sender
    /// with garbage between its ticks, each read by a meter while the probe
    /// records the first two ports. The meters' figures are the recording's: the
    /// tempo of the recorded intervals to 0.01 BPM, the spread, worst deviation
    /// and drift within those of the recording's windows of 96 intervals (the
    /// printed 0.01 ms and 1 ppm aside), no tick missing.
    @Suite struct ClockMeterOnJACK {
        /// A figure line: `   4 s  120.00 BPM  σ 0.00 ms, worst 0.00 ms, +0 ppm, 0 missing (96 intervals, drift vs 120.00 BPM, 0 missing in all)`.
        struct Figures {
            var bpm, sigma, worst: Double
            var ppm, missing, intervals: Int
            var nominal: Double
            var missingInAll: Int

            init?(_ line: String) {
                let w = line.split(separator: " ")
                guard w.count == 24, w[1] == "s", w[3] == "BPM", let bpm = Double(w[2]), let sigma = Double(w[5]), let worst = Double(w[8]),
                      let ppm = Int(w[10].replacingOccurrences(of: "+", with: "")), let missing = Int(w[12]), let intervals = Int(w[14].dropFirst()),
                      let nominal = Double(w[18]), let inAll = Int(w[20]) else { return nil }
                (self.bpm, self.sigma, self.worst, self.ppm, self.missing, self.intervals, self.nominal, missingInAll) =
                    (bpm, sigma, worst, ppm, missing, intervals, nominal, inAll)
            }
        }

        /// The figures of every window of 96 intervals in `ticks`, as `ClockJitter` defines them.
        static func windows(_ ticks: [Int64], nominalFramesPerTick: Double) -> [(sigma: Double, worst: Double, ppm: Double)] {
            let intervals = zip(ticks, ticks.dropFirst()).map { Double($1 - $0) }
            guard intervals.count >= 96 else { return [] }
            return (0...(intervals.count - 96)).map { start in
                let w = intervals[start..<(start + 96)]
                let mean = w.reduce(0, +) / 96
                let sigma = (w.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 95).squareRoot()
                let worst = w.map { abs($0 - mean) }.max()!
                return (sigma / 48, worst / 48, (nominalFramesPerTick / mean - 1) * 1_000_000)
            }
        }

        /// Every port on the server (`jack_lsp`).
        static func ports(server: String) -> Set<String> {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/jack_lsp")
            p.arguments = ["-s", server]
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return [] }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        }

        @Test func theMeterReadsJackMidiClockTactusAndGarbageAsTheRecordingDoes() throws {
            let began = Date()
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let tag = server.name
            let master = try TestProcess.launch(TestFiles.probe, ["transport", "master", "-s", server.name, "--segments", "0:120:4", "--seconds", "8"],
                                                output: TestFiles.file("\(tag).master.log"))
            defer { if master.isRunning { kill(master.processIdentifier, SIGKILL) } }
            let midiClock = try TestProcess.launch("/usr/bin/jack_midi_clock", [], output: TestFiles.file("\(tag).jack_midi_clock.log"),
                                                   environment: ["JACK_DEFAULT_SERVER": server.name])
            defer { if midiClock.isRunning { kill(midiClock.processIdentifier, SIGKILL) } }
            let tactusLog = TestFiles.file("\(tag).tactus.log")
            let tactus = try Launch.tactus(server: server.name, name: "tactus", ["--bpm", "97.3"], log: tactusLog)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            // The sender plays once the meter connects: 3 s of ticks at 120 BPM from
            // 0.3 s, a stray data byte, an undefined status and a Song Position
            // missing a data byte (cut short by the end of its JACK event) between them.
            // (Each time half a frame past its frame: the sender truncates seconds × rate.)
            var script = (0..<144).map { (time: (14_400 + Double($0) * 1_000 + 0.5) / 48_000, bytes: "F8") }
            script += [(1.011, "45"), (1.511, "F4"), (2.011, "F2 01")]
            script.sort { $0.time < $1.time }   // the sender plays its schedule in order
            let scriptFile = TestFiles.file("\(tag).garbage.script")
            try (script.map { String(format: "%.9f ", $0.time) + $0.bytes }.joined(separator: "\n") + "\n").write(to: scriptFile, atomically: true, encoding: .utf8)
            let sender = try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--name", "garbage", "--script", scriptFile.path],
                                                output: TestFiles.file("\(tag).sender.log"))
            defer { if sender.isRunning { kill(sender.processIdentifier, SIGKILL) } }
            let ports = ["jack_midi_clock:mclk_out", "tactus:clock", "garbage:out"]
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !ports.allSatisfy(Self.ports(server: server.name).contains) { Thread.sleep(forTimeInterval: 0.1) }
            let recording = TestFiles.file("\(tag).recording")
            let ready = URL(fileURLWithPath: recording.path + ".ready")
            let recorder = try TestProcess.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", recording.path, "--ready", ready.path,
                                                                    "--audio-ports", "0", "--midi-ports", "2",
                                                                    "--connect", "midi_1=\(ports[0])", "--connect", "midi_2=\(ports[1])"],
                                                  output: TestFiles.file("\(tag).recorder.log"))
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            #expect(TestProcess.waitForFile(ready, seconds: 10))
            let meterLogs = ports.indices.map { TestFiles.file("\(tag).meter\($0).log") }
            let meters = try ports.indices.map { i in
                try TestProcess.launch(TestFiles.tactus, ["clock-meter", ports[i], "-s", server.name, "--seconds", "4"], output: meterLogs[i])
            }
            let statuses = meters.map { TestProcess.wait($0, seconds: 10) }
            _ = Launch.stop(recorder)
            _ = Launch.stop(tactus)
            let outputs = meterLogs.map(Launch.text)
            for (port, output) in zip(ports, outputs) { print("tactus clock-meter \(port) -s \(server.name) --seconds 4:\n\(output)") }
            #expect(statuses == [0, 0, 0], "\(outputs)")
            let r = try Recording(contentsOf: recording)
            let clean = r.xrunFrames.isEmpty && r.holes.isEmpty
            for (index, nominalFrames) in [(0, 1_000.0), (1, 48_000.0 * 60 / (97.3 * 24))] {
                let lines = outputs[index].split(separator: "\n").map(String.init)
                let last = try #require(lines.last.flatMap(Figures.init), "\(ports[index]): \(outputs[index])")
                let ticks = r.ticks(port: index + 1)
                let intervals = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
                let recordedBPM = 48_000.0 * 60 / (Double(ticks.last! - ticks.first!) / Double(intervals.count) * 24)
                let windows = Self.windows(ticks, nominalFramesPerTick: nominalFrames)
                let sigmas = windows.map(\.sigma), worsts = windows.map(\.worst), ppms = windows.map(\.ppm)
                print("\(ports[index]) recorded: \(ticks.count) ticks, intervals \(Set(intervals).sorted()) frames, \(recordedBPM) BPM; "
                      + "windows σ \(sigmas.min()!)...\(sigmas.max()!) ms, worst \(worsts.min()!)...\(worsts.max()!) ms, \(ppms.min()!)...\(ppms.max()!) ppm; clean \(clean)")
                #expect(last.intervals == 96 && abs(last.nominal - nominalFrames.nominalBPM) < 0.005, "\(ports[index]): \(lines.last!)")
                #expect(abs(last.bpm - recordedBPM) <= 0.01, "\(ports[index]): \(last.bpm) vs recorded \(recordedBPM)")
                #expect(last.sigma >= sigmas.min()! - 0.005 && last.sigma <= sigmas.max()! + 0.005, "\(ports[index]): σ \(last.sigma)")
                #expect(last.worst >= worsts.min()! - 0.005 && last.worst <= worsts.max()! + 0.005, "\(ports[index]): worst \(last.worst)")
                #expect(Double(last.ppm) >= ppms.min()!.rounded() - 1 && Double(last.ppm) <= ppms.max()!.rounded() + 1, "\(ports[index]): \(last.ppm) ppm")
                if clean { #expect(last.missing == 0 && last.missingInAll == 0, "\(ports[index]): \(lines.last!)") }
            }
            // The garbage: a line each, naming the byte; the ticks around them all measured.
            let garbage = outputs[2]
            #expect(garbage.contains("clock in: data byte 0x45 with no status at byte "), "\(garbage)")
            #expect(garbage.contains("clock in: undefined status byte 0xF4 at byte "), "\(garbage)")
            #expect(garbage.contains("clock in: Song Position Pointer (0xF2) cut short after 1 of 2 data bytes by the end of the event at byte "), "\(garbage)")
            let garbageLast = try #require(garbage.split(separator: "\n").last.flatMap { Figures(String($0)) }, "\(garbage)")
            #expect(garbageLast.bpm == 120 && garbageLast.sigma == 0 && garbageLast.worst == 0 && garbageLast.intervals == 96, "\(garbage)")
            if clean { #expect(garbageLast.missingInAll == 0) }
            // A port that is not there, and one that is no MIDI output: a line each, status 1.
            for (port, says) in [("nobody:out", "tactus: clock-meter: no JACK port named 'nobody:out' (tactus ports lists the midi out ports)"),
                                 ("system:playback_1", "tactus: clock-meter: 'system:playback_1' is an audio input port: the meter reads a JACK MIDI output (tactus ports lists them)")] {
                let log = TestFiles.file("\(tag).meter-bad.log")
                let meter = try TestProcess.launch(TestFiles.tactus, ["clock-meter", port, "-s", server.name], output: log)
                #expect(TestProcess.wait(meter, seconds: 5) == 1 && Launch.text(log) == says + "\n", "\(Launch.text(log))")
            }
            print("clock meter on JACK: \(Date().timeIntervalSince(began)) s")
        }
    }
}

private extension Double {
    /// 48 kHz frames a tick → the tempo rounded to 0.01 BPM, as the meter fixes it.
    var nominalBPM: Double { (48_000.0 * 60 / (self * 24) * 100).rounded() / 100 }
}
