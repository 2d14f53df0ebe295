import Foundation
import Testing
import TactusCLI
import TactusJACK

extension JACKServerTests {
    /// `tactus run --sync-out KIND` on a private server (docs/DESIGN.md §14):
    /// five Tactus clients in one run, a Pocket Operator's pulses, DIN sync
    /// (clock and run line) and a modular clock with a reset line at 97.3 BPM,
    /// a volca's pulses and DIN sync at 48 at 133 BPM, those two played by a
    /// sender on their `control` ports (the up key tapped: a tempo step; then
    /// held with light and strong pressure, §5.4), each port recorded sample
    /// for sample (`record --levels`). Every pulse rises on the frame of its
    /// grid point's 0xF8, the rounding the click gets (§14.5), or between two
    /// on the grid that puts the ticks on theirs; widths and counts as
    /// §14.1–§14.3 give them at the tempo in force; the run line high exactly
    /// from Start to Stop; and the same samples as `tactus render` with the
    /// same options, aligned at the first click, up to the first tempo
    /// change. The deterministic tier (`SimulatedSyncKindsTests`) holds every
    /// kind at both tempi with a locate.
    @Suite struct SyncOutputOnJACK {
        struct Kind {
            var name: String
            var arguments: [String]
            /// The tempo it runs at, and whether a sender taps and holds its up key.
            var bpm: String
            var played: Bool
            /// Grid pulses (96 a quarter note, 4 a 0xF8) between two sync pulses.
            var step: Int64
            /// Pulses a beat (a click in 4/4 without subdivision).
            var perBeat: Int
            /// The pulse width in frames at 48 kHz; nil: half of each pulse's interval (DIN sync).
            var width: Int64?
            /// The second line: "run" (DIN sync), "reset" (ppqn:N with --sync-reset bar), nil: none.
            var second: String?
        }

        static let kinds = [
            // 15 ms at 48 kHz (§14.1), every 8th note.
            Kind(name: "po", arguments: ["--sync-out", "po"], bpm: "97.3", played: false, step: 48, perBeat: 2, width: 720, second: nil),
            // A square wave: high for the first half of each 24th (§14.2).
            Kind(name: "din24", arguments: ["--sync-out", "din24"], bpm: "97.3", played: false, step: 4, perBeat: 24, width: nil, second: "run"),
            // 5 ms triggers, 4 a beat, and a 5 ms reset on every bar line (§14.3).
            Kind(name: "ppqn4", arguments: ["--sync-out", "ppqn:4", "--sync-reset", "bar"], bpm: "97.3", played: false, step: 24, perBeat: 4, width: 240, second: "reset"),
            // A volca's 2 a beat, 15 ms (§14.1), at 133 and up.
            Kind(name: "volca", arguments: ["--sync-out", "volca"], bpm: "133", played: true, step: 48, perBeat: 2, width: 720, second: nil),
            // Korg's DIN sync: 48 a beat, every other one between two 0xF8 (§14.2).
            Kind(name: "din48", arguments: ["--sync-out", "din48"], bpm: "133", played: true, step: 2, perBeat: 48, width: nil, second: "run"),
        ]

        /// What the sender plays into a played client's `control` (the up key, the
        /// `--pressure` defaults), seconds from its first cycle: a tap at 1.5 s
        /// (+1 BPM on its Note On; before it, enough pulses to compare with the
        /// render), a hold from 2.0 s with light pressure after 0.05 s, strong at
        /// 0.55 s, released at 1.0 s (docs/DESIGN.md §5.4).
        static let playing = ["1.5 90 48 64", "1.55 80 48 00", "2.0 90 48 64", "2.05 D0 3C", "2.55 D0 78", "3.0 80 48 00"]

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
                    let arguments = ["run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", kind.name, "--bpm", kind.bpm]
                        + kind.arguments + ["rec:audio_\(p.click)", "--connect-clock", "rec:midi_\(i + 1)", "--connect-sync", "rec:audio_\(p.sync)"]
                        + (p.second.map { ["--connect-sync-run", "rec:audio_\($0)"] } ?? [])
                    clients.append((kind.name, try TestProcess.launch(TestFiles.tactus, arguments, output: TestFiles.file("\(tag).\(kind.name).log"))))
                }
                guard TestProcess.waitForFile(heard, seconds: 20) else { throw TestFailure("not every port was heard within 20 s") }
                // `tactus ports` while they run.
                let listing = JackPortListing.lines(serverName: server.name).joined(separator: "\n")
                // The played clients' tap and hold, 3 s of the sender's script.
                let script = TestFiles.file("\(tag).script")
                try (Self.playing.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
                var senders: [Process] = []
                defer { for p in senders where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
                for kind in kinds where kind.played {
                    senders.append(try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--name", "snd-\(kind.name)", "--to", "\(kind.name):control",
                                                                           "--script", script.path], output: TestFiles.file("\(tag).snd-\(kind.name).log")))
                }
                // Two bar lines at 97.3 BPM (2.47 s a bar): resets, several beats of
                // every kind, the hold over, 1 s of the tempo it left. 5 s of the
                // server's frames: the song's length is in beats.
                try server.waitForFrames(5 * 48_000, timeout: 20)
                for p in senders { #expect(TestProcess.wait(p, seconds: 10) == 0, "a sender did not play its script") }
                // One after the other: five clients leaving a synchronous server in the same cycle were seen to leave it waiting on one.
                var exits: [String: Int32] = [:], messages: [String: String] = [:]
                for (name, p) in clients {
                    kill(p.processIdentifier, SIGTERM)
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
                // The n-th pulse is grid pulse n × step from Start: on its tick's frame where it
                // is one (every kth 0xF8), else (din48) between two, on the grid from the
                // stretch's anchor tick at the one tempo (hundredths) that puts its ticks on
                // theirs; each as wide as the kind asks, at most half its interval there.
                var expectedCount = Int((4 * Int64(ticks.count) - 1) / kind.step) + 1
                // SIGTERM's Stop goes out in the next cycle, not on a tick: the grid point between
                // the last tick and the next (din48) is there only if it came before Stop.
                if kind.step == 2, ticks.count > 1, let last = ticks.last, song.stop - last <= (last - ticks[ticks.count - 2] + 1) / 2 { expectedCount -= 1 }
                #expect(pulses.count == expectedCount, "\(kind.name)\(noise): \(pulses.count) pulses, \(expectedCount) grid points (\(ticks.count) ticks)")
                let stretches = SimulatedSyncKindsTests.stretches(ticks)
                var tempi: [[Int64]] = []
                for stretch in stretches {
                    var fits = stretch.tempi
                    for (n, pulse) in pulses.enumerated() {
                        let p = Int64(n) * kind.step, tick = Int(p / 4)
                        guard tick >= stretch.firstTick && (tick < stretch.lastTick || stretch.lastTick == ticks.count - 1) else { continue }
                        if p % 4 == 0 {
                            #expect(pulse.rise == ticks[tick], "\(kind.name)\(noise): pulse \(n) rose at \(pulse.rise), its tick at \(ticks[tick])")
                        }
                        // Tactus may leave the server while the last pulse is high: its width judged up to Stop.
                        let fall = pulse.fall.flatMap { $0 <= song.stop ? $0 : nil }
                        fits = fits.filter { h in
                            let rise = stretch.frame(ofPulse: p, h), interval = stretch.frame(ofPulse: p + kind.step, h) - rise
                            return rise == pulse.rise && (fall == nil || fall! - rise == min(kind.width ?? interval / 2, interval / 2))
                        }
                    }
                    #expect(!fits.isEmpty, "\(kind.name)\(noise): no tempo puts the pulses from \(stretch.anchor) on one grid with their widths (the ticks fit \(stretch.tempi))")
                    tempi.append(fits)
                }
                if kind.played {
                    // The tap's step (+1 BPM), then the hold's steps on up.
                    let bpm = Int64((Double(kind.bpm) ?? 0) * 100)
                    #expect(tempi.count >= 3 && tempi[0].contains(bpm) && tempi[1].contains(bpm + 100) && (tempi.last?.first ?? 0) > bpm + 100,
                            "\(kind.name)\(noise): tempi \(tempi.map { $0.first ?? 0 })")
                    print("sync-out \(kind.name): tempi (hundredths) \(tempi.map { $0.first ?? 0 })")
                } else {
                    // The grid itself: the rises within half a frame of the ideal one from Start.
                    let interval = 48_000 * 60 / (Double(kind.bpm) ?? 0) / Double(kind.perBeat)
                    let worst = pulses.enumerated().map { n, p in abs(Double(p.rise - song.start) - Double(n) * interval) }.max() ?? .infinity
                    #expect(tempi.count == 1 && worst <= 0.5, "\(kind.name)\(noise): a rise \(worst) frames off the grid, \(tempi.count) tempi")
                }
                // Pulses a beat: between two clicks, the kind's count, the first on the click's frame.
                // A played client's cues (§5.6) sound on the click's port too: its beats are every 24th tick.
                let clicks = kind.played ? stride(from: 0, to: ticks.count, by: 24).map { ticks[$0] }
                    : r.clicks(port: port.click).filter { $0 >= song.start && $0 < song.stop }
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
                let render = try TestProcess.launch(TestFiles.tactus, ["render", wav.path, "--seconds", "10", "--bpm", kind.bpm, "--format", "float"]
                                                    + kind.arguments, output: TestFiles.file("sync-render-\(kind.name).log"))
                #expect(TestProcess.wait(render, seconds: 30) == 0, "\(Launch.text(TestFiles.file("sync-render-\(kind.name).log")))")
                let (channels, rate) = try WAVReader.readChannels(path: wav.path)
                #expect(rate == 48_000 && channels.count == (kind.second == nil ? 2 : 3))
                let firstClick = try #require(channels[0].firstIndex { $0 != 0 })
                let liveFirstClick = try #require(r.clicks(port: port.click).first { $0 >= song.start })
                // A played client's render holds its first tempo: compared up to the tick its tap took effect on.
                let ticks = r.ticks(port: i + 1).filter { $0 >= song.start && $0 < song.stop }
                let end = kind.played ? try #require(SimulatedSyncKindsTests.stretches(ticks).first.map { ticks[$0.lastTick] }) : song.stop
                let length = Int(end - liveFirstClick)
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
                    let recorded = changes.filter { $0.frame < end }.map { "\($0.frame - liveFirstClick) \($0.value)" }
                    // Enough to compare: the clock's many pulses, the run line's rise, the resets.
                    #expect(rendered.count >= (channel == 1 ? 10 : 1) && rendered == recorded,
                            "\(kind.name)\(noise) channel \(channel + 1): render \(rendered.count) changes, live \(recorded.count); first difference at \(zip(rendered, recorded).first { $0 != $1 }.map { "\($0)" } ?? "the end")")
                }
            }
        }
    }
}
