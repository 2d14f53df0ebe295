import Foundation
import Testing

extension JACKServerTests {
    /// The sync ports follow what moves the grid (docs/DESIGN.md §14.5,
    /// §14.7): a tempo change, a Stop, a Continue and a locate, scripted in
    /// the metronome harness (the same `JackMetronome`), for a modular clock
    /// with its reset line and for DIN sync with its run line, recorded
    /// sample for sample. Every pulse still rises on the frame of a 0xF8;
    /// none while stopped; the run line drops on Stop's frame and rises on
    /// Continue's, and stays up through a locate; a locate sends a reset.
    @Suite struct SyncOutputFollows {
        static let kinds: [(name: String, arguments: [String], ticksApart: Int)] = [
            ("modular", ["--sync-out", "ppqn:4", "--sync-reset", "bar"], 6),
            ("din", ["--sync-out", "din24"], 1),
        ]
        /// At 97.3 BPM, 140 from 2 s, Stop at 4 s, Continue at 5 s, a locate to bar 2 at 7 s.
        static let script = ["--bpm", "97.3", "--tempo-at", "2:140", "--transport-at", "4:stop", "--transport-at", "5:continue",
                             "--transport-at", "7:locate=2"]

        static func session() throws -> SessionResult {
            try SessionCache.shared.session("sync-follows") {
                let server = try JackTestServer(period: 256)
                defer { server.stop() }
                let tag = server.name
                let out = TestFiles.file("\(tag).recording"), ready = TestFiles.file("\(tag).ready"), heard = TestFiles.file("\(tag).heard")
                // Audio ports: each kind's click, sync and sync_run (1–3, 4–6); MIDI: each kind's clock.
                let recorder = try TestProcess.launch(TestFiles.probe, [
                    "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--heard", heard.path,
                    "--audio-ports", "6", "--midi-ports", "2", "--levels", "2,3,5,6",
                ], output: TestFiles.file("\(tag).recorder.log"))
                defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
                guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
                var clients: [(String, Process)] = []
                defer { for (_, p) in clients where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
                for (i, kind) in kinds.enumerated() {
                    let arguments = ["metronome", "-s", server.name, "-n", kind.name] + script + kind.arguments
                        + ["rec:audio_\(3 * i + 1)", "--connect-clock", "rec:midi_\(i + 1)",
                           "--connect-sync", "rec:audio_\(3 * i + 2)", "--connect-sync-run", "rec:audio_\(3 * i + 3)"]
                    clients.append((kind.name, try TestProcess.launch(TestFiles.probe, arguments, output: TestFiles.file("\(tag).\(kind.name).log"))))
                }
                let launched = Date()
                guard TestProcess.waitForFile(heard, seconds: 20) else { throw TestFailure("not every port was heard within 20 s") }
                // The script ends at 7 s of the harness's time: two more seconds of the located song.
                Thread.sleep(forTimeInterval: max(0, 9 - Date().timeIntervalSince(launched)))
                for (_, p) in clients { kill(p.processIdentifier, SIGTERM) }
                var exits: [String: Int32] = [:], messages: [String: String] = [:]
                for (name, p) in clients {
                    exits[name] = TestProcess.wait(p, seconds: 10) ?? -999
                    messages[name] = Launch.text(TestFiles.file("\(tag).\(name).log"))
                }
                Thread.sleep(forTimeInterval: 0.2)
                kill(recorder.processIdentifier, SIGTERM)
                _ = TestProcess.wait(recorder, seconds: 10)
                return SessionResult(recording: try Recording(contentsOf: out), exitStatus: exits, messages: messages, harnessLog: [:],
                                     jackdLog: Launch.text(server.logURL))
            }
        }

        /// The song's running spans from the clock's own messages: Start or
        /// Continue to Stop; a locate (Stop, Song Position and Continue on one frame) does not end one.
        static func spans(_ midi: [Recording.Event]) -> [(start: Int64, stop: Int64?)] {
            var spans: [(start: Int64, stop: Int64?)] = []
            for e in midi {
                switch e.bytes {
                case [0xFA], [0xFB]:
                    if let last = spans.last, last.stop == e.frame { spans[spans.count - 1].stop = nil } else { spans.append((e.frame, nil)) }
                case [0xFC]:
                    if let last = spans.last, last.stop == nil { spans[spans.count - 1].stop = e.frame }
                default: break
                }
            }
            return spans
        }

        @Test func pulsesStayOnTheTicksThroughATempoChangeAStopAContinueAndALocate() throws {
            let s = try Self.session()
            let r = s.recording
            #expect(r.holes.isEmpty, "recorder holes \(r.holes): rerun")
            for (i, kind) in Self.kinds.enumerated() {
                #expect(s.exitStatus[kind.name] == 0, "\(kind.name): \(s.messages[kind.name] ?? "")")
                let midi = r.midi(port: i + 1)
                let spans = Self.spans(midi)
                // Start to Stop, then Continue to the last Stop, the locate inside it.
                #expect(spans.count == 2 && spans.allSatisfy { $0.stop != nil }, "\(kind.name): spans \(spans)")
                guard spans.count == 2, let firstStop = spans[0].stop, let lastStop = spans[1].stop else { continue }
                // A locate: Stop, Song Position and Continue on one frame (§4.5).
                let stops = Set(midi.filter { $0.bytes == [0xFC] }.map(\.frame))
                let locates = midi.filter { $0.bytes == [0xFB] && stops.contains($0.frame) }.map(\.frame)
                #expect(locates.count == 1 && locates.allSatisfy { $0 > spans[1].start && $0 < lastStop }, "\(kind.name): locates \(locates)")
                let ticks = r.ticks(port: i + 1)
                let tickIndex = Dictionary(uniqueKeysWithValues: ticks.enumerated().map { ($1, $0) })
                let rises = SyncOutputOnJACK.pulses(r.changes(port: 3 * i + 2)).map(\.rise)
                // Every pulse on a tick's frame, and only while the song runs.
                #expect(rises.allSatisfy { tickIndex[$0] != nil }, "\(kind.name): rises off the ticks \(rises.filter { tickIndex[$0] == nil }.prefix(5))")
                #expect(rises.allSatisfy { f in spans.contains { f >= $0.start && f < $0.stop! } }, "\(kind.name): a pulse while stopped")
                // From Start, and from the locate (a bar line), every `ticksApart`-th tick; from Continue, evenly too.
                for (from, to) in [(spans[0].start, firstStop), (spans[1].start, locates.first ?? lastStop), (locates.first ?? lastStop, lastStop)] {
                    let inSpan = rises.filter { $0 >= from && $0 < to }.compactMap { tickIndex[$0] }
                    let ticksInSpan = ticks.filter { $0 >= from && $0 < to }.count
                    #expect(inSpan.count >= ticksInSpan / kind.ticksApart - 1, "\(kind.name): \(inSpan.count) pulses on \(ticksInSpan) ticks from \(from)")
                    #expect(zip(inSpan, inSpan.dropFirst()).allSatisfy { $1 - $0 == kind.ticksApart }, "\(kind.name): pulses from \(from) not every \(kind.ticksApart) ticks")
                    if from != spans[1].start { #expect(inSpan.first.map { ticks[$0] } == from, "\(kind.name): no pulse on the frame of the Start or locate at \(from)") }
                }
                // The tempo change moved them: pulses at 140 BPM (a quarter note of 20 571 frames) after it.
                let quarter = Double(48_000 * 60) / 140
                let apart = Double(kind.ticksApart) * quarter / 24
                #expect(zip(rises, rises.dropFirst()).contains { abs(Double($1 - $0) - apart) <= 1 }, "\(kind.name): no pulse spacing of 140 BPM")
                let second = SyncOutputOnJACK.pulses(r.changes(port: 3 * i + 3))
                if kind.name == "din" {
                    // The run line: up on Start's frame, down on Stop's, up on Continue's, through the locate, down on the last Stop.
                    #expect(second.map(\.rise) == [spans[0].start, spans[1].start] && second.map(\.fall) == [firstStop, lastStop],
                            "run line \(second), spans \(spans)")
                } else {
                    // Resets: on Start's frame and on the locate's, each on a clock pulse; only bar lines besides.
                    let resets = second.map(\.rise)
                    #expect(resets.first == spans[0].start && locates.allSatisfy(resets.contains), "resets \(resets), spans \(spans), locates \(locates)")
                    #expect(resets.allSatisfy(rises.contains), "a reset off the clock's pulses: \(resets)")
                }
            }
        }
    }
}
