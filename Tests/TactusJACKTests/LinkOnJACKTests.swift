import Foundation
import Testing
import TactusCore
@testable import TactusJACK

extension JACKServerTests {
    /// Ableton Link between Tactus peers (docs/DESIGN.md §11): two `tactus run
    /// --link` on one private jackd, recorded on the server's frame clock, all
    /// inside a private network namespace (`PrivateNetwork`), since Link
    /// multicasts on every interface it finds.
    ///
    /// The session: A starts; 1.3 s later B joins; from 10.5 s a pressure hold
    /// on A's `control` port raises the tempo; at 13.5 s B is killed, at 15 s
    /// started again; the run ends at 20 s. 120 BPM, 4/4: a bar is 96 000
    /// frames at 48 kHz, a clock tick 1000.
    @Suite struct LinkOnJACK {
        static let rate = 48_000
        static let bar: Int64 = 96_000
        static let tick: Int64 = 1_000

        struct Result {
            var recording: Recording
            var logA: String
            var logB: String
            var logB2: String
        }

        static func sleep(until seconds: Double, from start: Date) {
            let left = start.addingTimeInterval(seconds).timeIntervalSinceNow
            if left > 0 { Thread.sleep(forTimeInterval: left) }
        }

        /// `tactus run --link` as `name`, its click on `rec:audio_PORT` and its clock on `rec:midi_PORT`.
        static func peer(_ network: PrivateNetwork, _ server: JackTestServer, _ name: String, port: Int, log: URL,
                         extra: [String] = []) throws -> Process {
            // The feedback cues to a port of their own (by default they join the
            // click's, and a cue sounding before a click hides its onset).
            try network.launch(TestFiles.tactus, ["run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", name, "--link",
                                                  "--bpm", "120", "rec:audio_\(port)", "--connect-clock", "rec:midi_\(port)",
                                                  "--connect-feedback", "rec:audio_3"] + extra,
                               output: log)
        }

        static func recorder(_ network: PrivateNetwork, _ server: JackTestServer, out: URL) throws -> Process {
            let ready = URL(fileURLWithPath: out.path + ".ready")
            let p = try network.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", out.path,
                                                         "--ready", ready.path, "--audio-ports", "3", "--midi-ports", "2"],
                                       output: URL(fileURLWithPath: out.path + ".log"))
            guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
            return p
        }

        /// A script for `tactus-jack-probe send` into `to`, inside the namespace.
        static func send(_ network: PrivateNetwork, _ server: JackTestServer, to: String, lines: [String], tag: String) throws -> Process {
            let script = TestFiles.file("\(tag).script")
            try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
            return try network.launch(TestFiles.probe, ["send", "-s", server.name, "--name", "snd", "--to", to, "--script", script.path],
                                      output: TestFiles.file("\(tag).snd.log"))
        }

        static func record() throws -> Result? {
            guard let network = try PrivateNetwork.make() else { return nil }
            defer { network.stop() }
            let server = try JackTestServer(network: network)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).link.recording")
            let recorder = try recorder(network, server, out: out)
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            let logA = TestFiles.file("\(tag).la.log"), logB = TestFiles.file("\(tag).lb.log"), logB2 = TestFiles.file("\(tag).lb2.log")
            let start = Date()
            let a = try peer(network, server, "la", port: 1, log: logA)
            defer { if a.isRunning { kill(a.processIdentifier, SIGKILL) } }
            sleep(until: 1.3, from: start)
            let b = try peer(network, server, "lb", port: 2, log: logB)
            defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
            sleep(until: 9.5, from: start)
            // The pressure hold on A (up key 72): the tap's +1 at once, then strong steps, released after 0.8 s.
            let sender = try send(network, server, to: "la:control", lines: ["1.000000 90 48 64", "1.050000 D0 78", "1.800000 80 48 00"], tag: tag)
            defer { if sender.isRunning { kill(sender.processIdentifier, SIGKILL) } }
            sleep(until: 13.5, from: start)
            kill(b.processIdentifier, SIGKILL)
            _ = TestProcess.wait(b, seconds: 5)
            sleep(until: 15, from: start)
            let b2 = try peer(network, server, "lb", port: 2, log: logB2)
            defer { if b2.isRunning { kill(b2.processIdentifier, SIGKILL) } }
            sleep(until: 20, from: start)
            _ = Launch.stop(b2)
            _ = Launch.stop(a)
            _ = Launch.stop(sender, seconds: 2)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            return Result(recording: try Recording(contentsOf: out), logA: Launch.text(logA), logB: Launch.text(logB), logB2: Launch.text(logB2))
        }

        static let cache = ResultCache<Result?>()
        static func session() throws -> Result? { try cache.get { try record() } }

        /// The frames of every `bytes` message on MIDI `port`.
        static func frames(_ r: Recording, port: Int, _ bytes: [UInt8]) -> [Int64] {
            r.midi(port: port).filter { $0.bytes == bytes }.map(\.frame)
        }

        /// Distance from each click of `clicks` to the nearest of `others` (frames, signed).
        static func offsets(_ clicks: [Int64], to others: [Int64]) -> [Int64] {
            clicks.compactMap { c in others.min { abs($0 - c) < abs($1 - c) }.map { c - $0 } }
        }

        static func describe(_ offsets: [Int64]) -> String {
            let mean = offsets.isEmpty ? 0 : Double(offsets.map { abs($0) }.reduce(0, +)) / Double(offsets.count)
            let worst = offsets.map { abs($0) }.max() ?? -1
            return String(format: "%d clicks, mean %.2f frames, max %lld frames (%.3f ms)", offsets.count, mean, worst, Double(worst) / 48)
        }

        /// The bar lines a peer played: its accented clicks (the recorder keeps
        /// each onset's first sample: 0.9 for the accent, 0.7 for a beat).
        static func barLines(_ r: Recording, port: Int) -> [Int64] {
            r.onsets.filter { $0.port == port && $0.value > 0.8 }.map(\.frame)
        }

        /// The first tick of `ticks` from `after` whose interval to the next is
        /// shorter than `below` frames: where a faster tempo starts.
        static func firstFaster(_ ticks: [Int64], after: Int64, below: Int64) -> Int64? {
            zip(ticks, ticks.dropFirst()).first { $0.0 > after && $0.1 - $0.0 < below }?.0
        }

        @Test func twoPeersPlayBeatOneTogetherAfterFiveSeconds() throws {
            guard let r = try Self.session() else { return }
            let rec = r.recording
            guard let startA = Self.frames(rec, port: 1, [0xFA]).first, let startB = Self.frames(rec, port: 2, [0xFA]).first else {
                Issue.record("no Start from both peers: A \(r.logA) B \(r.logB)")
                return
            }
            // B joined a running session: its Start on A's bar line, not mid-bar.
            let fromBar = Self.offsets([startB], to: Self.barLines(rec, port: 1))
            print("Link join: B's Start \(fromBar[0]) frames from A's bar line (\(startB - startA) frames after A's Start)")
            #expect(abs(fromBar[0]) <= 48)
            #expect(startB > startA + Self.bar / 2)
            // After both ran 5 s: every click of B within ±1 ms (48 frames) of A's.
            // Half open: B's clicks fall on whole 24 000-frame beats after its Start, so a
            // closed second would hold a third click whenever both ends are beats.
            let window = (startB + 5 * Int64(Self.rate))..<(startB + 6 * Int64(Self.rate))
            let clicksB = rec.clicks(port: 2).filter { window.contains($0) }
            let offsets = Self.offsets(clicksB, to: rec.clicks(port: 1))
            print("Link beat alignment 5-6 s after B's Start: \(Self.describe(offsets))")
            #expect(clicksB.count == 2)
            #expect(offsets.allSatisfy { abs($0) <= 48 }, "\(offsets)")
            #expect(r.logB.contains("link peers 1"), "\(r.logB)")
        }

        @Test func aPressureHoldOnOnePeerMovesTheOtherWithin100Milliseconds() throws {
            guard let r = try Self.session() else { return }
            let rec = r.recording
            guard let startB = Self.frames(rec, port: 2, [0xFA]).first else { Issue.record("no Start from B: \(r.logB)"); return }
            let ticksA = rec.ticks(port: 1), ticksB = rec.ticks(port: 2)
            // The tap's +1 BPM makes a tick 991.7 frames; the tick interval the
            // change falls in is shorter than 1000 by the part after it.
            guard let changeA = Self.firstFaster(ticksA, after: startB, below: 998),
                  let changeB = Self.firstFaster(ticksB, after: startB, below: 998) else {
                Issue.record("no faster tick on A or B: A \(r.logA) B \(r.logB)")
                return
            }
            print("Link tempo change: A's clock from frame \(changeA), B's from \(changeB): \(changeB - changeA) frames (\(Double(changeB - changeA) / 48) ms)")
            #expect(abs(changeB - changeA) <= 4_800)
            // B's clicks keep A's phase through the change, until B is killed.
            let killed = ticksB.last ?? 0
            let clicksB = rec.clicks(port: 2).filter { $0 > changeA - Self.bar && $0 < killed }
            let offsets = Self.offsets(clicksB, to: rec.clicks(port: 1))
            print("Link phase through the tempo change: \(Self.describe(offsets))")
            #expect(clicksB.count >= 4)
            #expect(offsets.allSatisfy { abs($0) <= 48 }, "\(offsets)")
            // The tempo reached (A's change log says the settled tempo, B's says it came from Link).
            #expect(r.logB.contains("BPM (Link)"), "\(r.logB)")
            #expect(!r.logA.contains("(Link)"), "\(r.logA)")
        }

        @Test func aPeerKilledAndStartedAgainJoinsOnTheNextBarLine() throws {
            guard let r = try Self.session() else { return }
            let rec = r.recording
            let startsB = Self.frames(rec, port: 2, [0xFA])
            guard let startA = Self.frames(rec, port: 1, [0xFA]).first, startsB.count == 2 else {
                Issue.record("A's Start and B's two Starts expected: \(startsB) B2 \(r.logB2)")
                return
            }
            // A played on: one Start, no Stop until the end, no tick missing (the
            // tempo only rose, so no interval is longer than 120 BPM's, plus jitter),
            // but where the recorder itself missed a cycle.
            let ticksA = rec.ticks(port: 1).filter { $0 >= startA }
            let longest = zip(ticksA, ticksA.dropFirst())
                .filter { a, b in !rec.holes.contains { $0.overlaps(a...b) } }.map { $1 - $0 }.max() ?? 0
            #expect(Self.frames(rec, port: 1, [0xFA]).count == 1)
            #expect(Self.frames(rec, port: 1, [0xFC]).count == 1)
            #expect(longest <= Self.tick + 2, "longest tick interval \(longest)")
            // B again: its Start on one of A's bar lines.
            let fromBar = Self.offsets([startsB[1]], to: Self.barLines(rec, port: 1))
            print("Link rejoin: B's second Start \(fromBar[0]) frames from A's bar line")
            #expect(abs(fromBar[0]) <= 48)
            let clicks = Self.offsets(rec.clicks(port: 2).filter { $0 >= startsB[1] }, to: rec.clicks(port: 1))
            print("Link after the rejoin: \(Self.describe(clicks))")
            #expect(clicks.count >= 4 && clicks.allSatisfy { abs($0) <= 48 }, "\(clicks)")
        }

        /// `--link-start-stop`: MIDI Stop into A's `control` stops A and B on the
        /// next bar line of the session, Start starts both on one bar line.
        @Test func sharedStopEndsBothPeersOnTheBarLineAndStartStartsBoth() throws {
            guard let network = try PrivateNetwork.make() else { return }
            defer { network.stop() }
            let server = try JackTestServer(network: network)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).linkss.recording")
            let recorder = try Self.recorder(network, server, out: out)
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            let start = Date()
            let logA = TestFiles.file("\(tag).sa.log"), logB = TestFiles.file("\(tag).sb.log")
            let a = try Self.peer(network, server, "sa", port: 1, log: logA, extra: ["--link-start-stop"])
            defer { if a.isRunning { kill(a.processIdentifier, SIGKILL) } }
            Self.sleep(until: 1.3, from: start)
            let b = try Self.peer(network, server, "sb", port: 2, log: logB, extra: ["--link-start-stop"])
            defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
            Self.sleep(until: 5.5, from: start)
            let sender = try Self.send(network, server, to: "sa:control", lines: ["1.000000 FC", "4.000000 FA"], tag: tag)
            defer { if sender.isRunning { kill(sender.processIdentifier, SIGKILL) } }
            Self.sleep(until: 14, from: start)
            _ = Launch.stop(b)
            _ = Launch.stop(a)
            _ = Launch.stop(sender, seconds: 2)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            let rec = try Recording(contentsOf: out)
            let startsA = Self.frames(rec, port: 1, [0xFA]), startsB = Self.frames(rec, port: 2, [0xFA])
            let stopsA = Self.frames(rec, port: 1, [0xFC]), stopsB = Self.frames(rec, port: 2, [0xFC])
            guard startsA.count >= 2, startsB.count >= 2, let stopA = stopsA.first, let stopB = stopsB.first else {
                Issue.record("starts \(startsA) \(startsB) stops \(stopsA) \(stopsB): A \(Launch.text(logA)) B \(Launch.text(logB))")
                return
            }
            // 120 BPM all along: the session's bar lines are A's first Start + n bars
            // (counted from A's last accent before the stop, where Link's clock sync has settled).
            let accents = Self.barLines(rec, port: 1).filter { $0 < stopA }
            let line = accents.last ?? startsA[0]
            func fromBar(_ frame: Int64) -> Int64 {
                let n = ((Double(frame - line) / Double(Self.bar)).rounded())
                return frame - (line + Int64(n) * Self.bar)
            }
            print("Link shared stop: A's Stop \(fromBar(stopA)), B's \(fromBar(stopB)) frames from the bar line; "
                + "restart: A's Start \(fromBar(startsA[1])), B's \(fromBar(startsB[1])) frames from the bar line, B − A \(startsB[1] - startsA[1])")
            // Stop goes out at the first frame of the block that holds the bar line
            // (period 256): the bar's last beat is the last click.
            for stop in [stopA, stopB] { #expect(fromBar(stop) <= 0 && fromBar(stop) >= -256 - 48, "stop at \(fromBar(stop))") }
            #expect(abs(stopB - stopA) <= 48)
            #expect(abs(fromBar(startsA[1])) <= 48 && abs(fromBar(startsB[1])) <= 48)
            #expect(abs(startsB[1] - startsA[1]) <= 48)
            #expect(stopA > startsB[0])
        }

        /// The real-time proof with Link: the metronome harness under the
        /// interposer (period 64), joined to a session whose other peer commits a
        /// new tempo every 100 ms: not one allocation or lock on the process
        /// thread. It starts once the peer is there, so it commits nothing
        /// itself (a commit wakes Link's thread with `pthread_cond_signal`).
        @Test func processCallbackWithLinkNeitherAllocatesNorLocks() throws {
            guard let network = try PrivateNetwork.make() else { return }
            defer { network.stop() }
            let server = try JackTestServer(period: 64, network: network)
            defer { server.stop() }
            let tag = server.name
            let walker = try network.launch(TestFiles.probe, ["link-walker", "--seconds", "14", "--every", "100", "--tempi", "120,123,118,121"],
                                            output: TestFiles.file("\(tag).walker.log"))
            defer { if walker.isRunning { kill(walker.processIdentifier, SIGKILL) } }
            let report = TestFiles.file("\(tag).rtlink.rtprobe"), events = TestFiles.file("\(tag).rtlink.events")
            let harness = try network.launch(TestFiles.probe, [
                "metronome", "-s", server.name, "-n", "rtlink", "--link", "--start-stopped", "--transport-at", "2:start",
                "--events", events.path, "system:playback_1",
            ], output: TestFiles.file("\(tag).rtlink.log"), environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path])
            defer { if harness.isRunning { kill(harness.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 12)
            kill(harness.processIdentifier, SIGTERM)
            #expect(TestProcess.wait(harness, seconds: 10) == 0)
            let r = try RealtimeProof.ProbeReport(report)
            let log = Launch.text(events)
            let line = log.split(separator: "\n").first { $0.hasPrefix("link ") } ?? ""
            print("real-time proof with Link: \(r.cycles) cycles, violations \(r.violations), \(line)")
            #expect(r.cycles >= 5_000)
            #expect(r.violations == 0, "calls on the process thread: \(r.counts)")
            #expect(line.hasPrefix("link peers 1 "), "\(log)")
            let changes = line.split(separator: " ").last.flatMap { Int($0) } ?? 0
            #expect(changes >= 50, "\(log)")
            #expect(log.contains("clicks-played") && !log.contains("clicks-played 0 "), "\(log)")
        }
    }
}
