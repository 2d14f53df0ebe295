import Foundation
import Testing
import TactusCLI
import TactusJACK

extension JACKServerTests {
    /// `tactus run --sync-out KIND` on a private server (docs/DESIGN.md §14):
    /// three Tactus clients at 97.3 BPM in one run, a Pocket Operator's
    /// pulses, DIN sync (clock and run line) and a modular clock with a reset
    /// line, each port recorded sample for sample (`record --levels`). Every
    /// pulse rises on the frame of its grid point's 0xF8, the rounding the
    /// click gets (§14.5); widths and counts as §14.1–§14.3 give them; the run
    /// line high exactly from Start to Stop; and the same samples as `tactus
    /// render` with the same options, aligned at the first click.
    @Suite struct SyncOutputOnJACK {
        struct Kind {
            var name: String
            var arguments: [String]
            /// 0xF8 ticks (24 a quarter note) between two sync pulses.
            var ticksApart: Int
            /// Pulses a beat (a click at 97.3 BPM in 4/4 without subdivision).
            var perBeat: Int
            /// The pulse width in frames at 48 kHz; nil: half of each pulse's interval (DIN sync).
            var width: Int64?
            /// The second line: "run" (DIN sync), "reset" (ppqn:N with --sync-reset bar), nil: none.
            var second: String?
        }

        static let bpm = "97.3"
        static let kinds = [
            // 15 ms at 48 kHz (§14.1), every 8th note.
            Kind(name: "po", arguments: ["--sync-out", "po"], ticksApart: 12, perBeat: 2, width: 720, second: nil),
            // A square wave: high for the first half of each 24th (§14.2).
            Kind(name: "din24", arguments: ["--sync-out", "din24"], ticksApart: 1, perBeat: 24, width: nil, second: "run"),
            // 5 ms triggers, 4 a beat, and a 5 ms reset on every bar line (§14.3).
            Kind(name: "ppqn4", arguments: ["--sync-out", "ppqn:4", "--sync-reset", "bar"], ticksApart: 6, perBeat: 4, width: 240, second: "reset"),
        ]

        /// Audio ports of the recorder, in order: each kind's click, sync and (if any) sync_run.
        static func ports() -> [(click: Int, sync: Int, second: Int?)] {
            var next = 1
            return kinds.map { kind in
                defer { next += kind.second == nil ? 2 : 3 }
                return (next, next + 1, kind.second == nil ? nil : next + 2)
            }
        }

        /// One server run with the three clients, `seconds` from the moment each
        /// was heard on every port, then SIGTERM (Stop, then exit).
        static func session() throws -> SessionResult {
            try SessionCache.shared.session("sync-out") {
                let server = try JackTestServer(period: 256)
                defer { server.stop() }
                let ports = ports()
                let audioCount = ports.last.map { $0.second ?? $0.sync } ?? 0
                let levels = ports.flatMap { [$0.sync] + ($0.second.map { [$0] } ?? []) }
                let tag = server.name
                let out = TestFiles.file("\(tag).recording"), ready = TestFiles.file("\(tag).ready"), heard = TestFiles.file("\(tag).heard")
                let recorder = try TestProcess.launch(TestFiles.probe, [
                    "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--heard", heard.path,
                    "--audio-ports", "\(audioCount)", "--midi-ports", "\(kinds.count)", "--levels", levels.map(String.init).joined(separator: ","),
                ], output: TestFiles.file("\(tag).recorder.log"))
                defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
                guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
                var clients: [(String, Process)] = []
                defer { for (_, p) in clients where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
                for (i, kind) in kinds.enumerated() {
                    let p = ports[i]
                    let arguments = ["run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", kind.name, "--bpm", bpm]
                        + kind.arguments + ["rec:audio_\(p.click)", "--connect-clock", "rec:midi_\(i + 1)", "--connect-sync", "rec:audio_\(p.sync)"]
                        + (p.second.map { ["--connect-sync-run", "rec:audio_\($0)"] } ?? [])
                    clients.append((kind.name, try TestProcess.launch(TestFiles.tactus, arguments, output: TestFiles.file("\(tag).\(kind.name).log"))))
                }
                guard TestProcess.waitForFile(heard, seconds: 20) else { throw TestFailure("not every port was heard within 20 s") }
                // `tactus ports` while they run.
                let listing = JackPortListing.lines(serverName: server.name).joined(separator: "\n")
                // Two bar lines at 97.3 BPM (2.47 s a bar): resets, several beats of
                // every kind. 5 s of the server's frames: the song's length is in beats.
                try server.waitForFrames(5 * 48_000, timeout: 20)
                for (_, p) in clients { kill(p.processIdentifier, SIGTERM) }
                var exits: [String: Int32] = [:], messages: [String: String] = [:]
                for (name, p) in clients {
                    exits[name] = TestProcess.wait(p, seconds: 10) ?? -999
                    messages[name] = Launch.text(TestFiles.file("\(tag).\(name).log"))
                }
                Thread.sleep(forTimeInterval: 0.2)
                kill(recorder.processIdentifier, SIGTERM)
                _ = TestProcess.wait(recorder, seconds: 10)
                return SessionResult(recording: try Recording(contentsOf: out), exitStatus: exits, messages: messages, harnessLog: ["ports": listing],
                                     jackdLog: Launch.text(server.logURL))
            }
        }

        /// Where the song ran in the recording of kind `i`: its 0xFA and 0xFC frames.
        static func song(_ r: Recording, _ i: Int) throws -> (start: Int64, stop: Int64) {
            let midi = r.midi(port: i + 1)
            let start = try #require(midi.first { $0.bytes == [0xFA] }?.frame, "no Start on midi_\(i + 1)")
            let stop = try #require(midi.first { $0.bytes == [0xFC] }?.frame, "no Stop on midi_\(i + 1)")
            return (start, stop)
        }

        /// A line's pulses from its changes: (rise, fall) frames, fall nil while it is still high at the end.
        static func pulses(_ changes: [Recording.Onset]) -> [(rise: Int64, fall: Int64?)] {
            var out: [(rise: Int64, fall: Int64?)] = []
            for c in changes {
                if c.value != 0 { out.append((c.frame, nil)) } else if let last = out.last, last.fall == nil { out[out.count - 1].fall = c.frame }
            }
            return out
        }

        @Test func everyPulseRisesOnItsTickWithItsWidthAndCountAndTheRunLineSpansStartToStop() throws {
            let s = try Self.session()
            let r = s.recording
            // A cycle the recorder missed would hide ticks and edges: the comparison
            // below is exact, so it needs every frame (a synchronous server). The
            // server's xrun notices (clients joining it) are said beside a failure.
            #expect(r.holes.isEmpty, "recorder holes \(r.holes): rerun")
            for (i, kind) in Self.kinds.enumerated() {
                let port = Self.ports()[i]
                let song = try Self.song(r, i)
                let noise = r.xrunned(from: song.start, to: song.stop) ? " (the server xrunned during the song)" : ""
                // `tactus ports` lists the sync ports (and `sync_run` only where the kind has a second line).
                let listing = s.harnessLog["ports"] ?? ""
                #expect(listing.contains("\n  audio out  \(kind.name):sync\n"), "\(listing)")
                #expect(listing.contains("\n  audio out  \(kind.name):sync_run\n") == (kind.second != nil), "\(listing)")
                #expect(s.exitStatus[kind.name] == 0, "\(kind.name)\(noise): \(s.messages[kind.name] ?? "")")
                // At 97.3 BPM a beat is 29 599.2 frames: the song ran at least 8
                // beats (the take waits 240 000 of the server's frames after each
                // Start was heard: a late wake-up puts them behind the host's clock).
                #expect(song.stop - song.start >= 8 * 29_600, "\(kind.name)\(noise): \(song)")
                let changes = r.changes(port: port.sync)
                // Full scale while high, 0 at rest (§14.4): nothing else on the line.
                #expect(changes.allSatisfy { $0.value == 0 || $0.value == 1 }, "\(kind.name)\(noise): levels \(Set(changes.map(\.value)))")
                let pulses = Self.pulses(changes)
                // The ticks of the song, from its Start (the first on the Start's frame).
                let ticks = r.ticks(port: i + 1).filter { $0 >= song.start && $0 < song.stop }
                #expect(ticks.first == song.start, "\(kind.name)\(noise): first tick \(ticks.first ?? -1), Start \(song.start)")
                let expected = stride(from: 0, to: ticks.count, by: kind.ticksApart).map { ticks[$0] }
                #expect(pulses.map(\.rise) == expected, "\(kind.name)\(noise): rises \(pulses.prefix(5).map(\.rise)) ticks \(expected.prefix(5)) (\(pulses.count) against \(expected.count))")
                // The grid itself: the rises within half a frame of the ideal one from Start.
                let interval = 48_000 * 60 / 97.3 / Double(kind.perBeat)
                let worst = pulses.enumerated().map { n, p in abs(Double(p.rise - song.start) - Double(n) * interval) }.max() ?? .infinity
                #expect(worst <= 0.5, "\(kind.name)\(noise): a rise \(worst) frames off the grid")
                // Widths: the kind's, or half the interval to the next pulse (DIN sync's square wave).
                for (n, p) in pulses.enumerated() {
                    // Tactus may leave the server while the last pulse is high: judged up to Stop.
                    guard let fall = p.fall, fall <= song.stop else { continue }
                    if let width = kind.width {
                        #expect(fall - p.rise == width, "\(kind.name)\(noise): pulse at \(p.rise) is \(fall - p.rise) frames")
                    } else if n + 1 < pulses.count {
                        #expect(fall - p.rise == (pulses[n + 1].rise - p.rise) / 2, "\(kind.name)\(noise): pulse at \(p.rise) is \(fall - p.rise) frames")
                    }
                }
                // Pulses a beat: between two clicks, the kind's count, the first on the click's frame.
                let clicks = r.clicks(port: port.click).filter { $0 >= song.start && $0 < song.stop }
                #expect(clicks.count >= 8 && clicks.first == song.start, "\(kind.name)\(noise): clicks \(clicks.prefix(3))")
                let rises = Set(pulses.map(\.rise))
                for (a, b) in zip(clicks, clicks.dropFirst()) {
                    #expect(rises.contains(a), "\(kind.name)\(noise): no pulse on the click at \(a)")
                    #expect(pulses.filter { $0.rise >= a && $0.rise < b }.count == kind.perBeat, "\(kind.name)\(noise): beat at \(a)")
                }
                guard let second = port.second else { continue }
                let line = r.changes(port: second)
                #expect(line.allSatisfy { $0.value == 0 || $0.value == 1 }, "\(kind.name)\(noise) second line: levels \(Set(line.map(\.value)))")
                let seconds = Self.pulses(line)
                if kind.second == "run" {
                    // One span, from the frame of Start to the frame of Stop (§14.2).
                    #expect(seconds.count == 1 && seconds.first?.rise == song.start && seconds.first?.fall == song.stop,
                            "\(kind.name)\(noise) run line \(seconds), song \(song)")
                } else {
                    // A reset on every bar line (4 beats: every 4th click), 5 ms wide.
                    let bars = stride(from: 0, to: clicks.count, by: 4).map { clicks[$0] }
                    #expect(seconds.map(\.rise) == bars, "\(kind.name)\(noise) resets \(seconds.map(\.rise)), bar lines \(bars)")
                    #expect(seconds.filter { $0.rise + 240 <= song.stop }.allSatisfy { p in p.fall.map { $0 - p.rise } == 240 }, "\(kind.name)\(noise) reset widths \(seconds)")
                }
            }
        }

        /// `tactus render` with the same options, its sync channels against the
        /// recorded ports: the same samples from the first click to Stop.
        @Test func renderAndTheLivePortsAgreeSampleForSample() throws {
            let s = try Self.session()
            let r = s.recording
            #expect(r.holes.isEmpty, "recorder holes \(r.holes): rerun")
            for (i, kind) in Self.kinds.enumerated() {
                let port = Self.ports()[i]
                let song = try Self.song(r, i)
                let noise = r.xrunned(from: song.start, to: song.stop) ? " (the server xrunned during the song)" : ""
                let wav = TestFiles.file("sync-render-\(kind.name).wav")
                let render = try TestProcess.launch(TestFiles.tactus, ["render", wav.path, "--seconds", "10", "--bpm", Self.bpm, "--format", "float"]
                                                    + kind.arguments, output: TestFiles.file("sync-render-\(kind.name).log"))
                #expect(TestProcess.wait(render, seconds: 30) == 0, "\(Launch.text(TestFiles.file("sync-render-\(kind.name).log")))")
                let (channels, rate) = try WAVReader.readChannels(path: wav.path)
                #expect(rate == 48_000 && channels.count == (kind.second == nil ? 2 : 3))
                let firstClick = try #require(channels[0].firstIndex { $0 != 0 })
                let liveFirstClick = try #require(r.clicks(port: port.click).first { $0 >= song.start })
                let length = Int(song.stop - liveFirstClick)
                #expect(channels[0].count >= firstClick + length, "the render is shorter than the live song")
                for (channel, live) in [(1, port.sync)] + (port.second.map { [(2, $0)] } ?? []) {
                    // The render's changes of sample, from its first click, over the live song's length.
                    let samples = channels[channel]
                    var rendered: [String] = []
                    var previous: Float = firstClick > 0 ? samples[firstClick - 1] : 0
                    for f in firstClick..<min(samples.count, firstClick + length) where samples[f] != previous {
                        rendered.append("\(f - firstClick) \(samples[f])")
                        previous = samples[f]
                    }
                    let changes = r.changes(port: live)
                    #expect(!changes.contains { $0.frame < liveFirstClick }, "\(kind.name)\(noise) channel \(channel + 1): a change before the first click")
                    let recorded = changes.filter { $0.frame < song.stop }.map { "\($0.frame - liveFirstClick) \($0.value)" }
                    // Enough to compare: the clock's many pulses, the run line's rise, the resets.
                    #expect(rendered.count >= (channel == 1 ? 10 : 1) && rendered == recorded,
                            "\(kind.name)\(noise) channel \(channel + 1): render \(rendered.count) changes, live \(recorded.count); first difference at \(zip(rendered, recorded).first { $0 != $1 }.map { "\($0)" } ?? "the end")")
                }
            }
        }
    }
}
