import CJack
import Foundation
import Testing
@testable import TactusJACK

extension JACKServerTests {
    /// The OSC server (`--osc PORT`, README "OSC") with liblo's `oscsend` and
    /// `oscdump` as the clients, checked on the recorded `clock` port of a
    /// private jackd and by `/tactus/query`.
    @Suite struct OSCRemoteOnJACK {
        /// A free UDP port on 127.0.0.1 (the kernel's choice, released at once).
        static func freePort() throws -> UInt16 { try OSCTestPeer().port }

        struct Run {
            let process: Process
            let log: URL
            let port: UInt16
        }

        static func launch(_ server: JackTestServer, _ name: String, _ arguments: [String]) throws -> Run {
            let port = try freePort()
            let log = TestFiles.file("\(server.name).\(name).log")
            let home = TestFiles.file("\(server.name).\(name)-home")
            let process = try TestProcess.launch(TestFiles.tactus, [
                "run", "--no-alsa", "--no-interactive", "-s", server.name, "-n", name, "--osc", "\(port)",
            ] + arguments, output: log, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                     "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            guard Launch.waitFor(log, containing: "jack connected"), Launch.waitFor(log, containing: "OSC on 127.0.0.1:\(port)") else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw TestFailure("tactus did not start: \(Launch.text(log))")
            }
            return Run(process: process, log: log, port: port)
        }

        /// The server's frame time now (the recorder's frames are on the same timeline).
        final class FrameClock {
            let client: JackClient
            init(_ server: JackTestServer) throws { client = try JackClient(name: "frames", server: server.name) }
            var now: Int64 { Int64(jack_frame_time(client.handle)) }
        }

        /// Waits until `query` says what `accept` wants, up to `seconds`.
        static func waitForState(_ peer: OSCTestPeer, _ port: UInt16, seconds: Double = 4, _ accept: (TactusState) -> Bool) -> TactusState? {
            let deadline = Date().addingTimeInterval(seconds)
            var last: TactusState?
            while Date() < deadline {
                last = peer.query(port)
                if let last, accept(last) { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return last
        }

        @Test func everyPathMovesWhatItShouldOnTheClockAndInTheState() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).osc.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let run = try Self.launch(server, "osc-paths", ["--start-stopped", "--switch", "now", "--connect-clock", "rec:midi_1", "rec:audio_1"])
            defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
            let frames = try FrameClock(server)
            let peer = try OSCTestPeer()
            let p = run.port

            let initial = try #require(peer.query(p))
            #expect(initial.settings == "120.0 4/4 Xxxx none running false muted false gain 0.0 preset ''")

            // Transport and tempo, by oscsend.
            try LibloTools.send(p, "/tactus/start")
            #expect(Self.waitForState(peer, p) { $0.running }?.running == true)
            Thread.sleep(forTimeInterval: 1)
            let beforeTempo = frames.now
            try LibloTools.send(p, "/tactus/tempo", "f", "96")
            let afterTempo = frames.now
            Thread.sleep(forTimeInterval: 1)
            try LibloTools.send(p, "/tactus/nudge", "f", "4")
            #expect(Self.waitForState(peer, p) { $0.tempo == 100 }?.tempo == 100)

            // The bar: meter, accents, subdivision (at the next beat: --switch now), gain, mute.
            try LibloTools.send(p, "/tactus/meter", "ii", "3", "4")
            try LibloTools.send(p, "/tactus/accents", "s", "X.x")
            try LibloTools.send(p, "/tactus/subdivision", "s", "eighths")
            try LibloTools.send(p, "/tactus/gain", "f", "-6")
            try LibloTools.send(p, "/tactus/mute", "i", "1")
            let bar = Self.waitForState(peer, p) { $0.accents == "X.x" && $0.subdivision == "eighths" && $0.muted }
            #expect(bar?.settings == "100.0 3/4 X.x eighths running true muted true gain -6.0 preset ''")
            try LibloTools.send(p, "/tactus/mute", "i", "0")
            #expect(Self.waitForState(peer, p) { !$0.muted }?.muted == false)

            // Locate to bar 5, stop, continue.
            Thread.sleep(forTimeInterval: 0.5)
            try LibloTools.send(p, "/tactus/locate", "i", "5")
            Thread.sleep(forTimeInterval: 0.5)
            try LibloTools.send(p, "/tactus/stop")
            #expect(Self.waitForState(peer, p) { !$0.running }?.running == false)
            try LibloTools.send(p, "/tactus/continue")
            #expect(Self.waitForState(peer, p) { $0.running }?.running == true)

            // Presets by name, by program number, next and previous (shipped: Largo 0, Adagio 1, Andante 2);
            // the name shows at once, the tempo from the next beat (--switch now).
            try LibloTools.send(p, "/tactus/preset", "s", "Andante")
            #expect(Self.waitForState(peer, p) { $0.preset == "Andante" && $0.tempo == 92 }.map { "\($0.preset) \($0.tempo)" } == "Andante 92.0")
            try LibloTools.send(p, "/tactus/preset", "i", "0")
            #expect(Self.waitForState(peer, p) { $0.preset == "Largo" && $0.tempo == 50 }.map { "\($0.preset) \($0.tempo)" } == "Largo 50.0")
            try LibloTools.send(p, "/tactus/next")
            #expect(Self.waitForState(peer, p) { $0.preset == "Adagio" && $0.tempo == 70 }.map { "\($0.preset) \($0.tempo)" } == "Adagio 70.0")
            try LibloTools.send(p, "/tactus/previous")
            #expect(Self.waitForState(peer, p) { $0.preset == "Largo" && $0.tempo == 50 }?.preset == "Largo")

            // ping → pong; a wrong range → /tactus/error to the sender, nothing changed.
            peer.drain()
            peer.send(OSCTestMessage("/tactus/ping"), to: p)
            #expect(peer.receive(path: "/tactus/pong") == OSCTestMessage("/tactus/pong"))
            let settled = try #require(peer.query(p))
            peer.send(OSCTestMessage("/tactus/tempo", [.f(1200)]), to: p)
            #expect(peer.receive(path: "/tactus/error") == OSCTestMessage("/tactus/error", [.s("/tactus/tempo"), .s("1200 is out of range: the tempo in BPM, 1 to 999")]))
            peer.send(OSCTestMessage("/tactus/preset", [.s("No Such Song")]), to: p)
            #expect(peer.receive(path: "/tactus/error") == OSCTestMessage("/tactus/error", [.s("/tactus/preset"), .s("no preset is named \"No Such Song\"")]))
            #expect(peer.query(p)?.settings == settled.settings)

            // query with a URL: the state goes to oscdump.
            let dumpPort = try Self.freePort()
            let dumpFile = TestFiles.file("\(server.name).osc.dump")
            let dump = try LibloTools.dump(dumpPort, output: dumpFile)
            defer { _ = Launch.stop(dump) }
            Thread.sleep(forTimeInterval: 0.3)
            try LibloTools.send(p, "/tactus/query", "s", "osc.udp://127.0.0.1:\(dumpPort)/")
            #expect(Launch.waitFor(dumpFile, containing: "/tactus/state fiissiifsii 50.000000 4 4 \"Xxxx\" \"none\" 1 0 -6.000000 \"Largo\""), "\(Launch.text(dumpFile))")

            Thread.sleep(forTimeInterval: 0.3)
            #expect(Launch.stop(run.process) == 0)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            let log = Launch.text(run.log)
            #expect(log.contains("message tempo 96 BPM (OSC 127.0.0.1)"), "\(log)")
            Self.expectNeverLate(log, server: server, client: "osc-paths")

            // On the clock: 1000 frames a tick at 120 BPM, then 1250 at 96 from a tick
            // within one cycle plus one tick of the message's arrival.
            // An interval an xrun notice or a recorder hole touches is no tempo: a
            // tick the metronome held through a missed cycle goes out at the next
            // block's first frame (once 1250 frames after the one before at 120 BPM).
            // `jack_frame_time` extrapolates the frames by the host's clock, so
            // while the server's wake-up is late it reads ahead of the frame its
            // next cycle starts at: the change is looked for from half a second
            // before the send, as the first of a run of clean 96 BPM intervals,
            // and judged to the frame only where no xrun or hole lies from a cycle
            // before the send to the tick after it. Exact in the simulated tier.
            let rec = try Recording(contentsOf: recording)
            let midi = rec.midi(port: 1)
            let ticks = midi.filter { $0.bytes == [0xF8] }.map(\.frame)
            let disturbed = { (a: Int64, b: Int64) in
                rec.xrunned(from: a, to: b) || rec.holes.contains { $0.upperBound >= a && $0.lowerBound <= b }
            }
            let period = Int64(server.period)
            let clean = { (i: Int) in i >= 0 && i + 1 < ticks.count && !disturbed(ticks[i] - period, ticks[i + 1] + period) }
            let at96 = { (i: Int) in clean(i) && ticks[i + 1] - ticks[i] == 1250 }
            var changeAt = try #require(ticks.indices.dropFirst().dropLast(2).first { ticks[$0] >= beforeTempo - 24_000 && at96($0) && at96($0 + 1) })
            while at96(changeAt - 1) { changeAt -= 1 }
            let latest = afterTempo + period + 1000
            let judged = clean(changeAt - 1) && !disturbed(beforeTempo - period, ticks[changeAt + 1] + period)
            print("OSC tempo: sent between frames \(beforeTempo) and \(afterTempo); first 96 BPM interval from tick \(ticks[changeAt]) (bound \(latest)); "
                  + "\(rec.xruns) xruns, \(judged ? "judged" : "not judged: disturbed by the change")")
            if judged {
                #expect(ticks[changeAt] - ticks[changeAt - 1] == 1000)
                #expect(ticks[changeAt] <= latest, "tick \(ticks[changeAt]) after \(latest)")
            }
            #expect(ticks.indices.dropLast().contains { ticks[$0 + 1] - ticks[$0] == 1200 }, "nudge to 100 BPM: 1200 frames a tick")
            // Locate: Stop, Song Position 48 (four bars of 3/4 in sixteenths), Continue, on one frame.
            let located = midi.indices.first { midi[$0].bytes == [0xF2, 48, 0] }
            #expect(located.map { midi[$0 + 1].bytes } == [0xFB], "\(midi.filter { $0.bytes != [0xF8] }.map(\.bytes))")
            let transport = midi.compactMap { [0xFA, 0xFB, 0xFC].contains($0.bytes[0]) ? $0.bytes[0] : nil }
            #expect(transport == [0xFA, 0xFC, 0xFB, 0xFC, 0xFB, 0xFC], "start, locate (stop, continue), stop, continue, the last stop")
        }

        /// `/tactus/countin i:1` while stopped: the next Start counts in one bar, and MIDI
        /// Start (0xFA) goes out on the downbeat after it, 4 beats of 24 000 frames after the first click.
        @Test func countInByOSCIsHeardAtTheNextStart() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).countin.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let run = try Self.launch(server, "osc-countin", ["--start-stopped", "--connect-clock", "rec:midi_1", "rec:audio_1"])
            defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
            try LibloTools.send(run.port, "/tactus/countin", "i", "1")
            #expect(Launch.waitFor(run.log, containing: "message count-in 1 bar from the next start (OSC 127.0.0.1)"), "\(Launch.text(run.log))")
            try LibloTools.send(run.port, "/tactus/start")
            Thread.sleep(forTimeInterval: 3)
            #expect(Launch.stop(run.process) == 0)
            Thread.sleep(forTimeInterval: 0.2)
            _ = Launch.stop(recorder)
            let rec = try Recording(contentsOf: recording)
            let start = try #require(rec.midi(port: 1).first { $0.bytes == [0xFA] })
            let firstClick = try #require(rec.clicks(port: 1).first)
            print("OSC count-in: first click at \(firstClick), MIDI Start at \(start.frame)")
            #expect(start.frame - firstClick == 96_000)
        }

        @Test func tenThousandMalformedPacketsChangeNothingAndTheServerListensOnLoopbackOnly() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let run = try Self.launch(server, "osc-fuzz", [])
            defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
            let p = run.port

            let sockets = try String(decoding: Self.output("/usr/bin/ss", ["-lun"]), as: UTF8.self)
            let ours = sockets.split(separator: "\n").filter { $0.contains(":\(p) ") }
            #expect(ours.count == 1 && ours[0].contains("127.0.0.1:\(p) "), "\(sockets)")

            let peer = try OSCTestPeer()
            let before = try #require(peer.query(p))
            var random = SystemRandomNumberGenerator()
            let kinds = 8
            var errors = 0
            for i in 0..<10_000 {
                let bytes: [UInt8]
                switch i % kinds {
                case 0: bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                case 1:
                    let whole = OSCTestMessage("/tactus/tempo", [.f(50)]).bytes
                    bytes = Array(whole.prefix(Int.random(in: 0..<whole.count, using: &random)))
                case 2: bytes = [OSCTestMessage("/tactus/tempo", [.s("fast")]), OSCTestMessage("/tactus/meter", [.f(3)]),
                                 OSCTestMessage("/tactus/preset", [.f(1.5)]), OSCTestMessage("/tactus/accents", [.i(3)])][i / kinds % 4].bytes
                case 3: bytes = [OSCTestMessage("/tactus/tempo", [.f(5000)]), OSCTestMessage("/tactus/gain", [.f(99)]),
                                 OSCTestMessage("/tactus/locate", [.i(-3)]), OSCTestMessage("/tactus/preset", [.i(300)]),
                                 OSCTestMessage("/tactus/mute", [.i(7)]), OSCTestMessage("/tactus/meter", [.i(0), .i(4)])][i / kinds % 6].bytes
                case 4: bytes = [OSCTestMessage("/tactus/accents", [.s(String(repeating: "X", count: 60_000))]),
                                 OSCTestMessage("/tactus/preset", [.s(String(repeating: "p", count: 8_000))]),
                                 OSCTestMessage("/tactus/" + String(repeating: "t", count: 20_000))][i / kinds % 3].bytes
                case 5: bytes = [OSCTestMessage("/tactus/nope"), OSCTestMessage("/x"), OSCTestMessage("/tactus"), OSCTestMessage("/tactus/tempo/up", [.f(1)])][i / kinds % 4].bytes
                case 6:
                    // Type tags that promise data the packet does not hold.
                    bytes = OSCTestMessage.padded("/tactus/tempo") + OSCTestMessage.padded(",fff")
                default: bytes = OSCTestMessage.padded("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 8] + OSCTestMessage.padded("/tactus/stop")
                }
                peer.send(bytes, to: p)
                // Pace the sender a little: the kernel's buffer, not Tactus, would drop a faster burst.
                if i % 50 == 49 {
                    while peer.receive(seconds: 0.002) != nil { errors += 1 }
                }
            }
            while peer.receive(seconds: 0.3) != nil { errors += 1 }
            let after = try #require(peer.query(p))
            print("OSC malformed: 10000 packets sent, \(errors) answered with /tactus/error, the rest dropped")
            #expect(after.settings == before.settings)
            // Each error-answerable kind got answers (random bytes and bundles are dropped).
            #expect(errors >= 5 * 10_000 / kinds, "errors \(errors)")
            peer.send(OSCTestMessage("/tactus/ping"), to: p)
            #expect(peer.receive(path: "/tactus/pong") != nil)
            #expect(run.process.isRunning)
            #expect(Launch.stop(run.process) == 0)
            let log = Launch.text(run.log)
            // The real-time thread never late: no xrun in which jackd found Tactus's
            // own cycle still running (its log names the client and its state); a
            // dummy driver woken late, or Tactus not yet given the processor, is the
            // machine's (CI once: 4 xruns in the flood's 4 s on a host whose idle
            // servers xrunned too).
            let report = server.xrunReport()
            print("OSC malformed: server xruns \(report.count) (driver late \(report.driverLate)), Tactus's cycle running late in \(report.ranLate("osc-fuzz"))")
            #expect(report.ranLate("osc-fuzz") == 0, "\(log)")
            #expect(log.contains(", 0 xruns;") || report.count > 0, "\(log)")
        }

        @Test func registerDeliversAtMostThirtyNotificationsASecondUnderAThousandMessagesASecond() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let run = try Self.launch(server, "osc-flood", [])
            defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
            let dumpPort = try Self.freePort()
            let dumpFile = TestFiles.file("\(server.name).flood.dump")
            let dump = try LibloTools.dump(dumpPort, output: dumpFile)
            defer { _ = Launch.stop(dump) }
            Thread.sleep(forTimeInterval: 0.3)
            try LibloTools.send(run.port, "/tactus/register", "s", "osc.udp://127.0.0.1:\(dumpPort)/")

            // 3 s of 1000 tempo nudges a second, each a change of state.
            let peer = try OSCTestPeer()
            let start = Date()
            for i in 0..<3000 {
                peer.send(OSCTestMessage("/tactus/nudge", [.f(i % 2 == 0 ? 0.5 : -0.5)]), to: run.port)
                let due = start.addingTimeInterval(Double(i + 1) / 1000)
                if due > Date() { Thread.sleep(until: due) }
            }
            let flood = Date().timeIntervalSince(start)
            Thread.sleep(forTimeInterval: 0.3)
            try LibloTools.send(run.port, "/tactus/unregister", "s", "osc.udp://127.0.0.1:\(dumpPort)/")
            Thread.sleep(forTimeInterval: 0.3)
            _ = Launch.stop(dump)
            #expect(Launch.stop(run.process) == 0)

            // oscdump stamps each message as it arrives (NTP seconds.fraction in hex).
            let times = Launch.text(dumpFile).split(separator: "\n").filter { $0.contains("/tactus/state") }.compactMap { line -> Double? in
                let stamp = line.split(separator: " ")[0].split(separator: ".")
                guard stamp.count == 2, let s = UInt32(stamp[0], radix: 16), let f = UInt32(stamp[1], radix: 16) else { return nil }
                return Double(s) + Double(f) / 4_294_967_296
            }
            let busiest = times.indices.dropFirst(30).map { times[$0] - times[$0 - 30] }.min() ?? .infinity
            print("OSC register: \(times.count) notifications in \(flood) s of 1000 messages/s; the shortest span of 31 in a row \(busiest) s")
            #expect(times.count >= Int(20 * flood), "notifications keep coming under the flood")
            #expect(times.count <= Int(30 * (flood + 0.6)) + 1)
            // 31 notifications in a row span at least 30 intervals of 1/30 s (a little arrival jitter allowed).
            #expect(busiest >= 0.98, "shortest span of 31: \(busiest) s")
            Self.expectNeverLate(Launch.text(run.log), server: server, client: "osc-flood")
        }

        /// Tactus' real-time thread never late while the remote worked: its closing
        /// line says "0 xruns", or, on a loaded machine, the server reported each
        /// xrun as the machine's (its driver woken late, a client woken but not yet
        /// run) and none with Tactus' own cycle running past the period.
        static func expectNeverLate(_ log: String, server: JackTestServer, client: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let counted = log.firstMatch(of: /stopped after \d+ cycles, (\d+) xruns;/).flatMap { Int($0.output.1) }
            #expect(counted != nil, "no closing line: \(log)", sourceLocation: sourceLocation)
            guard let counted, counted > 0 else { return }
            let report = server.xrunReport()
            print("\(client): \(counted) xruns, jackd: driver late \(report.driverLate), unfinished \(report.unfinished.map { "\($0.client)\($0.running ? " running" : "")" })")
            #expect(report.count > 0 && report.ranLate(client) == 0,
                    "\(counted) xruns: \(report.ranLate(client)) with \(client)'s cycle running late, \(report.count) reported by jackd", sourceLocation: sourceLocation)
        }

        static func output(_ tool: String, _ arguments: [String]) throws -> Data {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = arguments
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return data
        }
    }
}
