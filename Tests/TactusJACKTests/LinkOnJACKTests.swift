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
                         extra: [String] = [], tempo: [String] = ["--bpm", "120"]) throws -> Process {
            // The feedback cues to a port of their own (by default they join the
            // click's, and a cue sounding before a click hides its onset).
            try network.launch(TestFiles.tactus, ["run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", name, "--link"] + tempo + [
                                                  "rec:audio_\(port)", "--connect-clock", "rec:midi_\(port)",
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

        /// One `tactus run --link` of a session: `name` (its JACK client) started
        /// `at` seconds, its click on `rec:audio_PORT` and clock on `rec:midi_PORT`,
        /// its log `TAG.LOG.log`; killed (SIGKILL) at `killedAt`, else stopped at the end.
        struct Peer {
            var name: String
            var port: Int
            var at: Double
            var log: String
            var killedAt: Double? = nil
            var extra: [String] = []
            var tempo: [String] = ["--bpm", "120"]
        }

        /// A recorder, then `peers` started and killed at their times, a
        /// `tactus-jack-probe send` script into `script.to` from `script.at`
        /// seconds, the peers still running stopped at `seconds`: the recording
        /// (`TAG.LABEL.recording`) and the peers' logs in their order; nil when no
        /// private network namespace can be made.
        static func run(_ label: String, peers: [Peer], script: (at: Double, to: String, lines: [String])? = nil,
                        seconds: Double) throws -> (recording: Recording, logs: [String])? {
            guard let network = try PrivateNetwork.make() else { return nil }
            defer { network.stop() }
            let server = try JackTestServer(network: network)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).\(label).recording")
            let recorder = try recorder(network, server, out: out)
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            let logs = peers.map { TestFiles.file("\(tag).\($0.log).log") }
            var launched: [Int: Process] = [:]
            var sender: Process?
            defer { for p in Array(launched.values) + (sender.map { [$0] } ?? []) where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
            // The session's steps in time order: each peer's start (and kill), the script.
            enum Step { case start(Int), kill(Int), send }
            var steps = peers.indices.flatMap { i in [(peers[i].at, Step.start(i))] + (peers[i].killedAt.map { [($0, Step.kill(i))] } ?? []) }
            if let script { steps.append((script.at, .send)) }
            let start = Date()
            for (at, step) in steps.sorted(by: { $0.0 < $1.0 }) {
                sleep(until: at, from: start)
                switch step {
                case .start(let i):
                    let p = peers[i]
                    launched[i] = try peer(network, server, p.name, port: p.port, log: logs[i], extra: p.extra, tempo: p.tempo)
                case .kill(let i):
                    guard let p = launched[i] else { continue }
                    kill(p.processIdentifier, SIGKILL)
                    _ = TestProcess.wait(p, seconds: 5)
                case .send:
                    guard let script else { continue }
                    sender = try send(network, server, to: script.to, lines: script.lines, tag: tag)
                }
            }
            sleep(until: seconds, from: start)
            for i in peers.indices.reversed() where peers[i].killedAt == nil { if let p = launched[i] { _ = Launch.stop(p) } }
            if let sender { _ = Launch.stop(sender, seconds: 2) }
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            return (try Recording(contentsOf: out), logs.map(Launch.text))
        }

        /// Peer `NAMEa` at once and `NAMEb` 1.3 s later (click and clock on ports
        /// 1 and 2), a script into `NAME` + `script.to`'s `control`, both stopped
        /// at `seconds` (`run`).
        static func twoPeers(_ name: String, a: [String], b: [String], tempoA: [String] = ["--bpm", "120"], seconds: Double,
                             script: (at: Double, to: String, lines: [String])? = nil) throws -> (recording: Recording, logA: String, logB: String)? {
            let peers = [Peer(name: "\(name)a", port: 1, at: 0, log: "\(name)a", extra: a, tempo: tempoA),
                         Peer(name: "\(name)b", port: 2, at: 1.3, log: "\(name)b", extra: b)]
            guard let r = try run("link\(name)", peers: peers, script: script.map { ($0.at, "\(name)\($0.to):control", $0.lines) },
                                  seconds: seconds) else { return nil }
            return (r.recording, r.logs[0], r.logs[1])
        }

        /// `run` again while the server xruns in it (`Undisturbed`). Link runs on
        /// the host's clock and the recording on the server's frames: each xrun
        /// puts the frames behind the host's time by its lateness (10–20 ms each
        /// on a loaded host), and a beat placed right in host time lands that many
        /// frames off a line drawn in frames. nil: no run (no private network).
        static func undisturbed<T>(_ label: String, _ run: () throws -> T?, xruns: (T) -> Int) rethrows -> T? {
            try Undisturbed.run("Link \(label)", run) { r in
                r.flatMap { xruns($0) > 0 ? "run disturbed by \(xruns($0)) xruns" : nil }
            }
        }

        /// The session of the suite's description: A, B from 1.3 s, a pressure
        /// hold on A (up key 72: the tap's +1 at once, then strong steps,
        /// released after 0.8 s) from 9.5 s, B killed at 13.5 s and started
        /// again at 15 s, the end at 20 s.
        static func record() throws -> Result? {
            let peers = [Peer(name: "la", port: 1, at: 0, log: "la"),
                         Peer(name: "lb", port: 2, at: 1.3, log: "lb", killedAt: 13.5),
                         Peer(name: "lb", port: 2, at: 15, log: "lb2")]
            guard let r = try run("link", peers: peers, script: (9.5, "la:control", ["1.000000 90 48 64", "1.050000 D0 78", "1.800000 80 48 00"]),
                                  seconds: 20) else { return nil }
            return Result(recording: r.recording, logA: r.logs[0], logB: r.logs[1], logB2: r.logs[2])
        }

        static let cache = ResultCache<Result?>()
        /// Recorded again while the server xrunned (`undisturbed`: CI once 19 xruns in the 20 s, the
        /// longest tick interval of A's then 1 004 frames for 1 000), but for the
        /// xruns of B's kill (`xrunsButTheKill`).
        static func session() throws -> Result? {
            try cache.get { try undisturbed("session", { try record() }, xruns: { xrunsButTheKill($0) }) }
        }

        /// The session's xruns but those of the second after B's last MIDI event
        /// before its second run. The synchronous server (`-S`) waits for a client
        /// it is running until the cycle's deadline, so a peer killed with SIGKILL
        /// mid-cycle is an xrun of its own, about 0.1 s after B's last tick, in
        /// every take (counted, the session was recorded three times in every run).
        /// Nothing is judged in that second but A's ticks, which leave out the half
        /// second after any xrun; B is started again 1.5 s after the kill, so an
        /// xrun as it comes back is still a disturbance.
        static func xrunsButTheKill(_ r: Result) -> Int {
            let rec = r.recording
            let startsB = frames(rec, port: 2, [0xFA])
            guard startsB.count == 2, let lastB = rec.midi(port: 2).last(where: { $0.frame < startsB[1] })?.frame,
                  rec.xrunFrames.count == rec.xruns else { return rec.xruns }
            return rec.xrunFrames.filter { !($0 > lastB && $0 <= lastB + Int64(rate)) }.count
        }

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

        /// Where a faster tempo starts: the first tick after `after` from which three intervals in a row are under
        /// `below`: a tempo change holds, while one short interval beside a long one is
        /// the line corrected after a disturbed cycle (both peers read the same JACK
        /// clock, so both show it at the same frame: CI once took one 3259 frames
        /// before the trainer's bar line for the step).
        static func firstFaster(_ ticks: [Int64], after: Int64, below: Int64) -> Int64? {
            let intervals = zip(ticks, ticks.dropFirst()).map { (start: $0.0, length: $0.1 - $0.0) }
            guard intervals.count >= 3 else { return nil }
            for i in 0...(intervals.count - 3) where intervals[i].start > after {
                if intervals[i..<(i + 3)].allSatisfy({ $0.length < below }) { return intervals[i].start }
            }
            return nil
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
            // The second starts half a beat before a beat: B's clicks fall on whole
            // 24 000-frame beats after its Start, give or take a frame of jitter, so
            // a second from a beat would hold a third click whenever its last one
            // came a frame early.
            let window = (startB + 5 * Int64(Self.rate) - 12_000)..<(startB + 6 * Int64(Self.rate) - 12_000)
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
            // but where the recorder itself missed a cycle, and where the server
            // xrunned in the half second before (Link's host time is placed in
            // frames again after an xrun, as the other Link checks here leave out).
            let ticksA = rec.ticks(port: 1).filter { $0 >= startA }
            let pairs = zip(ticksA, ticksA.dropFirst()).filter { a, b in !rec.holes.contains { $0.overlaps(a...b) } }
            let judged = pairs.filter { a, b in !rec.xrunned(from: a - 24_000, to: b + 256) }
            let longest = judged.map { $1 - $0 }.max() ?? 0
            print("Link rejoin: A's longest tick interval \(longest) frames in \(judged.count) of \(pairs.count) (the rest after an xrun)")
            #expect(judged.count >= 20, "\(judged.count) of \(pairs.count) tick intervals without an xrun")
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
            guard let (rec, logA, logB) = try Self.undisturbed("shared stop", {
                try Self.twoPeers("s", a: ["--link-start-stop"], b: ["--link-start-stop"], seconds: 14,
                                  script: (5.5, "a", ["1.000000 FC", "4.000000 FA"]))
            }, xruns: { $0.recording.xruns }) else { return }
            let startsA = Self.frames(rec, port: 1, [0xFA]), startsB = Self.frames(rec, port: 2, [0xFA])
            let stopsA = Self.frames(rec, port: 1, [0xFC]), stopsB = Self.frames(rec, port: 2, [0xFC])
            guard startsA.count >= 2, startsB.count >= 2, let stopA = stopsA.first, let stopB = stopsB.first else {
                Issue.record("starts \(startsA) \(startsB) stops \(stopsA) \(stopsB): A \(logA) B \(logB)")
                return
            }
            // 120 BPM all along. The stop's bar line, counted in A's own ticks from
            // its last accent before the stop (a bar is 96 ticks): the tick on the
            // bar line is the one not sent, a tick after A's last.
            let line = Self.barLines(rec, port: 1).filter { $0 < stopA }.last ?? startsA[0]
            let ticks = rec.ticks(port: 1).filter { $0 >= line - 2 && $0 < stopA }
            let barLine = (ticks.last ?? line) + Self.tick
            // The session's next bar lines are whole bars (2 s at 120 BPM) after it in
            // Link's host time; in frames, where the server's clock put that time
            // (the dummy driver's frames fall behind its host time when it wakes late).
            let restartBarLine = rec.hostMicroseconds(atFrame: barLine).flatMap { h -> Int64? in
                guard let hs = rec.hostMicroseconds(atFrame: startsA[1]) else { return nil }
                return rec.frame(atHostMicroseconds: h + ((hs - h) / 2e6).rounded() * 2e6)
            }
            let behind = rec.framesFellBehind(from: line, to: startsA[1]).map { String(format: "%.0f µs", $0) } ?? "?"
            print("Link shared stop: \(ticks.count) ticks from A's last accent; A's Stop \(stopA - barLine), B's \(stopB - barLine) frames from the bar line; "
                + "restart: A's Start \(startsA[1] - (restartBarLine ?? 0)), B's \(startsB[1] - (restartBarLine ?? 0)) frames from the bar line, "
                + "B − A \(startsB[1] - startsA[1]); the server's frames fell \(behind) behind its clock from the accent to the restart")
            if !rec.holes.contains(where: { $0.overlaps(line...stopA) }) {
                #expect(ticks.count > 0 && ticks.count % 96 == 0, "\(ticks.count) ticks from the last accent to the Stop")
            }
            // Stop goes out at the first frame of the block that holds the bar line
            // (period 256): the bar's last beat is the last click. Judged where the
            // server did not xrun in the bar (a late tick goes out at a block's
            // first frame); the peers against each other always.
            func judged(_ frame: Int64) -> Bool {
                let quiet = !rec.xrunned(from: line - 256, to: frame + 256)
                if !quiet { print("Link shared stop: \(frame) not judged against the bar line: the server xrunned since \(line)") }
                return quiet
            }
            for stop in [stopA, stopB] where judged(stop) {
                #expect(stop - barLine <= 0 && stop - barLine >= -256 - 48, "stop at \(stop - barLine)")
            }
            #expect(abs(stopB - stopA) <= 48)
            #expect(restartBarLine != nil, "no cycle times recorded")
            if let restartBarLine, judged(max(startsA[1], startsB[1])) {
                #expect(abs(startsA[1] - restartBarLine) <= 48 && abs(startsB[1] - restartBarLine) <= 48)
            }
            #expect(abs(startsB[1] - startsA[1]) <= 48)
            #expect(stopA > startsB[0])
        }

        /// The speed trainer on A (`--trainer 120-140/2:10`): its steps are the
        /// engine's own tempo changes, and with Link they go to the session like
        /// a key's: at A's bar 3 the tempo becomes 130 on A *and* on B (a tick of
        /// 923.1 frames), within 100 ms of each other, B's clicks on A's beats.
        @Test func aTrainerStepOnOnePeerIsCommittedToTheSession() throws {
            guard let (rec, logA, logB) = try Self.undisturbed("trainer step", {
                try Self.twoPeers("t", a: ["--trainer", "120-140/2:10"], b: [], tempoA: [], seconds: 7)
            }, xruns: { $0.recording.xruns }) else { return }
            guard let startA = Self.frames(rec, port: 1, [0xFA]).first, let startB = Self.frames(rec, port: 2, [0xFA]).first else {
                Issue.record("no Start from both peers: A \(logA) B \(logB)")
                return
            }
            let ticksA = rec.ticks(port: 1), ticksB = rec.ticks(port: 2)
            // 130 BPM is a tick of 923.1 frames; the interval the step falls in is shorter than 1000.
            guard let changeA = Self.firstFaster(ticksA, after: startB, below: 990),
                  let changeB = Self.firstFaster(ticksB, after: startB, below: 990) else {
                Issue.record("no faster tick on A or B: A \(logA) B \(logB)")
                return
            }
            let stepLine = startA + 2 * Self.bar
            print("Link trainer step: A's bar 3 at \(stepLine), A's clock faster from \(changeA), B's from \(changeB): "
                + "\(changeB - changeA) frames (\(Double(changeB - changeA) / 48) ms)")
            // A's bar 3 is two bars of the session's host time after its Start: in
            // frames only where the server did not xrun in between (`xrunned`).
            if rec.xrunned(from: startA - 256, to: max(stepLine, changeA) + 256) {
                print("Link trainer step: A's step not judged against its bar 3: the server xrunned between")
            } else {
                #expect(abs(changeA - stepLine) <= 2 * Self.tick, "A's step \(changeA - stepLine) frames from its bar 3")
            }
            #expect(abs(changeB - changeA) <= 4_800)
            // After the step both tick at 130 BPM (923 or 924 frames, ±2 of jitter),
            // but in the half second after an xrun (frames and host time apart).
            let spans = zip(ticksB, ticksB.dropFirst()).filter { $0.0 > changeB + 2 * Self.tick && $0.0 < changeB + 40 * Self.tick }
            let after = spans.filter { !rec.xrunned(from: $0.0 - 24_000, to: $0.1) }.map { $1 - $0 }
            print("Link trainer step: B's tick intervals after it \(after) (\(spans.count - after.count) near an xrun not judged)")
            #expect(!spans.isEmpty && after.allSatisfy { abs($0 - 923) <= 3 }, "\(after)")
            // B's clicks on A's beats through the step, but for one sounding while
            // the new tempo was on its way to B: Link pivots a tempo at the time
            // of its commit, so B, hearing of it later, plays that stretch at the
            // old tempo (41 ms at +10 BPM is 59 frames) and lands on A's line then.
            let travel = (changeA - Self.tick)...(changeB + Self.tick)
            let clicksB = rec.clicks(port: 2).filter { c in
                c > changeA - Self.bar && c < changeA + Self.bar && !travel.contains(c) && !rec.xrunned(from: c - 24_000, to: c + 256)
            }
            let offsets = Self.offsets(clicksB, to: rec.clicks(port: 1))
            print("Link phase through the trainer step (but in \(travel)): \(Self.describe(offsets))")
            #expect(clicksB.count >= (rec.xruns == 0 ? 5 : 0) && offsets.allSatisfy { abs($0) <= 48 }, "\(offsets)")
            #expect(logB.contains("130 BPM (Link)"), "\(logB)")
        }

        /// The session of the test below: its recording (the transport read every
        /// cycle) and A's and B's logs.
        static func linkMasterSession() throws -> (recording: Recording, logA: String, logB: String)? {
            guard let network = try PrivateNetwork.make() else { return nil }
            defer { network.stop() }
            let server = try JackTestServer(network: network)
            defer { server.stop() }
            let tag = server.name
            let out = TestFiles.file("\(tag).linkmaster.recording")
            let ready = URL(fileURLWithPath: out.path + ".ready")
            let recorder = try network.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "rec", "--out", out.path,
                                                                "--ready", ready.path, "--transport", "--audio-ports", "3", "--midi-ports", "2"],
                                              output: URL(fileURLWithPath: out.path + ".log"))
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
            let start = Date()
            let logA = TestFiles.file("\(tag).ma.log"), logB = TestFiles.file("\(tag).mb.log")
            let a = try Self.peer(network, server, "ma", port: 1, log: logA, extra: ["--transport", "master"])
            defer { if a.isRunning { kill(a.processIdentifier, SIGKILL) } }
            Self.sleep(until: 1.3, from: start)
            let b = try Self.peer(network, server, "mb", port: 2, log: logB)
            defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
            Self.sleep(until: 4, from: start)
            // A pressure hold on B (up key 72): its tempo is the session's, so A's.
            let sender = try Self.send(network, server, to: "mb:control", lines: ["1.000000 90 48 64", "1.050000 D0 78", "1.800000 80 48 00"], tag: tag)
            defer { if sender.isRunning { kill(sender.processIdentifier, SIGKILL) } }
            Self.sleep(until: 10, from: start)
            _ = Launch.stop(b)
            _ = Launch.stop(a)
            _ = Launch.stop(sender, seconds: 2)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            return (try Recording(contentsOf: out), Launch.text(logA), Launch.text(logB))
        }

        /// `--link --transport master`: the Link session drives A's grid and A
        /// publishes it as JACK BBT. The recorder reads `jack_transport_query`
        /// every cycle: each of A's clicks within ±0.6 frame (rounding, and the line moving a cycle) of where its
        /// cycle's BBT puts the beat, and the tempo published is the session's,
        /// B's pressure hold included (B plays plain `--link`).
        @Test func linkWithTransportMasterPublishesTheSessionAsJackBBT() throws {
            guard let (rec, textA, textB) = try Self.undisturbed("as JACK BBT", { try Self.linkMasterSession() },
                                                                xruns: { $0.recording.xruns }) else { return }
            #expect(textA.contains("JACK timebase master: ma"), "\(textA)")
            let beats = JackTransport.masterBeats(rec)
            // The cycle in which a peer's tempo arrives was published before it
            // arrived (the timebase callback writes the next cycle's BBT): its
            // clicks are measured against the tempo before.
            let changeCycles = Set(zip(rec.transport, rec.transport.dropFirst())
                .filter { $0.0.hasBBT && $0.1.hasBBT && $0.0.beatsPerMinute != $0.1.beatsPerMinute }.map(\.1.frame))
            // And a click within half a second after a cycle the server missed (an
            // xrun, seen as a hole in the recording) is not measured: the BBT of the
            // missed cycle was never read.
            let settled = beats.filter { beat in
                if rec.holes.contains(where: { beat.frame >= $0.lowerBound && beat.frame <= $0.upperBound + 24_000 }) { return false }
                // Nor one within half a second after an xrun notice (CI: two clicks
                // 1.9 and 1.6 frames off, 0.37 s apart, after one xrun).
                if rec.xrunned(from: beat.frame - 24_000, to: beat.frame + 256) { return false }
                // Nor where the server's frames moved against its clock in that half
                // second by more than 20 µs (a frame), xrun notice or not: the line
                // the BBT is predicted on is in host time (the recorder's `T` lines).
                if abs(rec.framesFellBehind(from: beat.frame - 24_000, to: beat.frame) ?? .infinity) > 20 { return false }
                guard let row = rec.transport.last(where: { $0.frame <= beat.frame }) else { return false }
                return !changeCycles.contains(row.frame) && !changeCycles.contains(rec.transport.first(where: { $0.frame > beat.frame })?.frame ?? -1)
            }
            let worst = settled.map { abs($0.error) }.max() ?? .infinity
            let published = rec.transport.filter { $0.rolling && $0.hasBBT }.map(\.beatsPerMinute)
            print("Link as JACK BBT: \(beats.count) clicks of A (\(beats.count - settled.count) in a tempo change's cycle, after a hole or xrun, or where the frames moved against the clock), "
                + "worst |onset − BBT beat| \(worst) frames, published \(published.first ?? 0) → \(published.last ?? 0) BPM, xruns \(rec.xruns)")
            #expect(settled.count >= (rec.xruns == 0 ? 12 : 1), "clicks \(beats.count): \(textA)")
            // An xrun the recorder did not miss a cycle for (jackd's dummy driver
            // late, the cycle kept) still puts the late cycle's host time off the
            // filter's line: at most one click an xrun may be off, by under 3 frames.
            // The BBT is a prediction: the timebase callback writes the next cycle's
            // from this cycle's line, and the next cycle's Link position may move that
            // line by the host-time filter's correction of one cycle (hundredths of a
            // frame on a quiet server: 0.528 measured once), so a click is within
            // ±0.5 frame of its rounding plus that: 0.6.
            let off = settled.filter { abs($0.error) > 0.6 }
            #expect(off.count <= rec.xruns && off.allSatisfy { abs($0.error) < 3 }, "xruns \(rec.xruns): \(off.prefix(5).map { "\($0.frame): \($0.error)" })")
            #expect(beats.allSatisfy { $0.accent == ($0.beat == 1) }, "\(beats.prefix(8).map { "\($0.bar).\($0.beat) \($0.accent)" })")
            // 120 at first, then B's hold raised the session's tempo, and A published it.
            #expect(published.first == 120, "\(published.prefix(3))")
            let reached = published.last ?? 0
            #expect(reached >= 121, "\(Set(published).sorted())")
            #expect(textB.contains("tempo \(BPM(reached)) BPM"), "B \(textB) A published \(reached)")
        }

        /// The real-time proof with Link: the metronome harness under the
        /// interposer (period 64), joined to a session whose other peer commits a
        /// new tempo every 100 ms: not one allocation or lock on the process
        /// thread. It starts once the peer is there, so it commits nothing
        /// itself (a commit wakes Link's thread with `pthread_cond_signal`).
        /// With `--transport master` too: the session published as JACK BBT,
        /// the timebase callback every cycle, under the same count.
        @Test(arguments: [[String](), ["--transport", "master"]])
        func processCallbackWithLinkNeitherAllocatesNorLocks(transport: [String]) throws {
            guard let network = try PrivateNetwork.make() else { return }
            defer { network.stop() }
            let server = try JackTestServer(period: 64, network: network)
            defer { server.stop() }
            let tag = server.name + (transport.isEmpty ? "" : ".master")
            let walker = try network.launch(TestFiles.probe, ["link-walker", "--seconds", "14", "--every", "100", "--tempi", "120,123,118,121"],
                                            output: TestFiles.file("\(tag).walker.log"))
            defer { if walker.isRunning { kill(walker.processIdentifier, SIGKILL) } }
            let report = TestFiles.file("\(tag).rtlink.rtprobe"), events = TestFiles.file("\(tag).rtlink.events")
            let harness = try network.launch(TestFiles.probe, [
                "metronome", "-s", server.name, "-n", "rtlink", "--link", "--start-stopped", "--transport-at", "2:start",
                "--events", events.path, "system:playback_1",
            ] + transport, output: TestFiles.file("\(tag).rtlink.log"), environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_REPORT": report.path])
            defer { if harness.isRunning { kill(harness.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 12)
            kill(harness.processIdentifier, SIGTERM)
            #expect(TestProcess.wait(harness, seconds: 10) == 0)
            let r = try RealtimeProof.ProbeReport(report)
            let log = Launch.text(events)
            let line = log.split(separator: "\n").first { $0.hasPrefix("link ") } ?? ""
            let timebase = r.counts["timebase-calls"] ?? 0
            print("real-time proof with Link \(transport.joined(separator: " ")): \(r.cycles) cycles, \(timebase) timebase callbacks, violations \(r.violations), \(line)")
            #expect(r.cycles >= 5_000)
            // Master: JACK calls the timebase callback while the transport rolls, which it
            // does from Tactus's start on the session's bar line after 2 s (750 cycles a second).
            #expect(transport.isEmpty ? timebase == 0 : timebase >= r.cycles - 5 * 750, "\(r.counts)")
            #expect(r.violations == 0, "calls on the process thread: \(r.counts)")
            #expect(line.hasPrefix("link peers 1 "), "\(log)")
            let changes = line.split(separator: " ").last.flatMap { Int($0) } ?? 0
            #expect(changes >= 50, "\(log)")
            #expect(log.contains("clicks-played") && !log.contains("clicks-played 0 "), "\(log)")
        }
    }
}
