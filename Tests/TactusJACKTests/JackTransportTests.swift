import Foundation
import Testing

extension JACKServerTests {
    /// `--transport join|master|master-force|follow` against a real
    /// private jackd. The probe's recorder reads `jack_transport_query` every
    /// cycle (`record --transport`) while it records the click and the clock;
    /// the probe's test timebase master publishes integer ticks from a tempo map.
    @Suite(.serialized) struct JackTransport {
        static let rate = 48000.0

        /// Tactus (`tactus run`) with `arguments` on `server`, its click and clock
        /// into a transport-reading recorder; `during` runs while both do, then
        /// Tactus gets SIGTERM. The recording and Tactus's log.
        /// Where the test's clients run: a private jackd (`-s NAME`) or PipeWire's JACK (`pw-jack`).
        struct Host {
            let name: String
            let serverArguments: [String]
            let launch: (String, [String], URL, [String: String]) throws -> Process

            init(_ server: JackTestServer) {
                name = server.name
                serverArguments = ["-s", server.name]
                launch = { try TestProcess.launch($0, $1, output: $2, environment: $3) }
            }

            init(_ server: PipeWireTestServer) {
                name = server.name
                serverArguments = server.clientArguments
                launch = { try server.launch($0, $1, output: $2, environment: $3) }
            }
        }

        static func record(_ server: JackTestServer, _ tag: String, seconds: Double, _ arguments: [String],
                           before: () throws -> Void = {}, during: (URL) throws -> Void) throws -> (recording: Recording, log: String) {
            try record(on: Host(server), tag, seconds: seconds, arguments, before: before, during: during)
        }

        static func record(on server: Host, _ tag: String, seconds: Double, _ arguments: [String],
                           before: () throws -> Void = {}, during: (URL) throws -> Void) throws -> (recording: Recording, log: String) {
            let (recorder, out) = try startRecorder(on: server, tag, seconds: seconds)
            try before()
            let (tactus, log) = try launchTactus(on: server, tag, arguments)
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            try during(log)
            #expect(TestProcess.wait(recorder, seconds: seconds + 30) == 0)
            #expect(Launch.stop(tactus) == 0)
            return (try Recording(contentsOf: out), Launch.text(log))
        }

        /// The tests' recorder (`rec`: `audioPorts` audio ports, one MIDI port, the
        /// transport every cycle) for `seconds`, ready when this returns;
        /// `connections` as its `--connect` (its port=another client's).
        static func startRecorder(on server: Host, _ tag: String, seconds: Double, audioPorts: Int = 1,
                                  connections: [String] = []) throws -> (Process, URL) {
            let out = TestFiles.file("\(server.name).\(tag).recording")
            let ready = TestFiles.file("\(server.name).\(tag).ready")
            let recorder = try server.launch(TestFiles.probe, [
                "record", "--name", "rec", "--out", out.path, "--ready", ready.path, "--transport",
                "--audio-ports", "\(audioPorts)", "--midi-ports", "1", "--seconds", "\(seconds)",
            ] + connections.flatMap { ["--connect", $0] } + server.serverArguments, TestFiles.file("\(server.name).\(tag).recorder.log"), [:])
            #expect(TestProcess.waitForFile(ready, seconds: 10))
            return (recorder, out)
        }

        /// `tactus run` named `tag`, clock and click into the recorder, its own
        /// config and state, connected when this returns.
        static func launchTactus(on server: Host, _ tag: String, _ arguments: [String]) throws -> (Process, URL) {
            let log = TestFiles.file("\(server.name).\(tag).log")
            let home = TestFiles.file("\(server.name).\(tag)-home")
            let tactus = try server.launch(TestFiles.tactus, [
                "run", "--no-alsa", "--no-interactive", "-n", tag, "--connect-clock", "rec:midi_1", "rec:audio_1",
            ] + server.serverArguments + arguments, log, ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                         "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            #expect(Launch.waitFor(log, containing: "jack connected"), "\(Launch.text(log))")
            return (tactus, log)
        }

        static func probe(_ server: JackTestServer, _ arguments: [String], tag: String) throws -> Process {
            try probe(on: Host(server), arguments, tag: tag)
        }

        static func probe(on server: Host, _ arguments: [String], tag: String) throws -> Process {
            try server.launch(TestFiles.probe, arguments + server.serverArguments, TestFiles.file("\(server.name).\(tag).probe.log"), [:])
        }

        static func map(_ name: String, _ text: String) throws -> String {
            let url = TestFiles.file(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        // MARK: - master

        /// One click against the BBT its cycle published.
        struct MasterBeat {
            var frame: Int64
            var error: Double
            var bar: Int, beat: Int
            var accent: Bool
        }

        /// Every click onset against the BBT of the cycle it sounds in: the frame
        /// where that BBT (tick_double, beats_per_minute) puts tick 0 of its beat
        /// or the next, and the beat's bar and number.
        static func masterBeats(_ r: Recording) -> [MasterBeat] {
            r.onsets.filter { $0.port == 1 }.compactMap { onset in
                // A stopped transport's BBT is not refreshed (JACK calls the timebase callback while rolling).
                guard let row = r.transport.last(where: { $0.frame <= onset.frame }), row.rolling, row.hasBBT, row.hasTickDouble else { return nil }
                let framesPerBeat = rate * 60 / row.beatsPerMinute
                let fraction = row.tickDouble / 1920
                let candidates = [0.0, 1.0].map { Double(row.frame) + ($0 - fraction) * framesPerBeat }
                let next = abs(candidates[1] - Double(onset.frame)) < abs(candidates[0] - Double(onset.frame))
                var bar = row.bar, beat = row.beat
                if next {
                    beat += 1
                    if Double(beat) > row.beatsPerBar { beat = 1; bar += 1 }
                }
                return MasterBeat(frame: onset.frame, error: Double(onset.frame) - candidates[next ? 1 : 0], bar: bar, beat: beat,
                                  accent: onset.value > 0.8)
            }
        }

        /// The published tempo and meter in every cycle between two clicks is the
        /// one those two clicks play: (cycles checked, cycles wrong, the first wrong).
        static func tempoAndMeterAudit(_ r: Recording, _ beats: [MasterBeat], beatsPerBar: (Int) -> Int) -> (Int, Int, String) {
            var checked = 0, wrong = 0, first = ""
            for (a, b) in zip(beats, beats.dropFirst()) {
                let bpm = rate * 60 / Double(b.frame - a.frame)
                for row in r.transport where row.frame > a.frame && row.frame < b.frame {
                    checked += 1
                    // A click interval is whole frames: ±1 frame of 20 000 is ±0.007 BPM.
                    if abs(row.beatsPerMinute - bpm) > 0.02 || Int(row.beatsPerBar) != beatsPerBar(a.bar) {
                        wrong += 1
                        if first.isEmpty { first = "cycle \(row.frame): \(row.beatsPerMinute) BPM \(row.beatsPerBar)/\(row.beatType), clicks say \(bpm) in bar \(a.bar)" }
                    }
                }
            }
            return (checked, wrong, first)
        }

        // MARK: - PipeWire

        /// PipeWire's JACK (0.3.65) carries the timebase master's BBT through its
        /// own position (in beats) and hands other clients whole ticks only:
        /// `tick_double` and `JackTickDouble` do not reach them, and a tick can read
        /// one lower than Tactus published. Pinned here: no cycle has
        /// `JackTickDouble`, and every click onset lies within the tick the BBT of
        /// its cycle puts it in or the tick after (±0.5 frame; a tick is 11.3
        /// frames at 133 BPM); bars count from 9 after the locate to bar 9, as on jackd,
        /// and the locate is the only one answered (one Stop), however many cycles PipeWire skips.
        @Test(.enabled(if: PipeWireTestServer.isInstalled, "needs pipewire, pipewire-jack, pipewire-bin (scripts/test installs them)"))
        func masterOnPipeWirePublishesWholeTicksOnlyAndEveryClickIsInItsTick() throws {
            let pw = try PipeWireTestServer()
            defer { pw.stop() }
            let host = Host(pw)
            // One take, judged with what it allows: the recorder may miss cycles under
            // load (its holes are printed and the clicks beside them left out).
            let (r, log) = try Self.record(on: host, "pwmaster", seconds: 10, ["--transport", "master", "--bpm", "133"]) { _ in
                Thread.sleep(forTimeInterval: 4)
                let locate = try Self.probe(on: host, ["transport", "locate", "692933"], tag: "locate")
                #expect(TestProcess.wait(locate, seconds: 10) == 0)
            }
            #expect(log.contains("JACK timebase master: pwmaster"), "\(log)")
            let published = r.transport.filter { $0.rolling && $0.hasBBT }
            // Any number of cycles with BBT (the recorder may miss many under load), none with `JackTickDouble`.
            #expect(!published.isEmpty && !published.contains(where: \.hasTickDouble), "\(published.count) cycles with BBT")
            let stops = r.midi().filter { $0.bytes == [0xFC] }.map(\.frame)
            // The locate's cycle: JACK passes a locate while rolling through `Starting` (§13.1).
            let locateRow = r.transport.first { $0.state == 3 && $0.transportFrame == 692_933 }
            let stop = stops.first ?? locateRow?.frame ?? .max
            let framesPerBeat = Self.rate * 60 / 133
            var checked = 0, outside: [String] = []
            for onset in r.onsets where onset.port == 1 && onset.frame != stop {
                guard let row = published.last(where: { $0.frame <= onset.frame }), onset.frame - row.frame < 256 else { continue }
                // Not within a beat after a cycle the recorder missed: the shim's BBT around a
                // disturbed cycle can be a stale segment (CI once: tick 1195 for a click 8100
                // frames from it, with 8 holes).
                if r.holes.contains(where: { onset.frame >= $0.lowerBound && onset.frame <= $0.upperBound + 24_000 }) { continue }
                // The next beat after tick t (of 1920) is (1920 − t − 1) to (1920 − t) ticks on, one
                // tick earlier when PipeWire read the tick one low; or the cycle's first frame at tick 0.
                let early = Double(row.frame) + Double(1918 - row.tick) / 1920 * framesPerBeat
                let late = Double(row.frame) + Double(1920 - row.tick) / 1920 * framesPerBeat
                let f = Double(onset.frame)
                checked += 1
                if !(row.tick == 0 && onset.frame == row.frame) && !(f >= early - 0.5 && f <= late + 0.5) {
                    outside.append("\(onset.frame): tick \(row.tick) at \(row.frame) puts it in \(early)...\(late)")
                }
            }
            let lowTicks = r.onsets.filter { onset in
                guard onset.port == 1, let row = published.last(where: { $0.frame <= onset.frame }) else { return false }
                return Double(onset.frame) < Double(row.frame) + Double(1919 - row.tick) / 1920 * framesPerBeat - 0.5
            }.count
            print("PipeWire transport master: \(checked) clicks checked against whole ticks, \(outside.count) outside, \(lowTicks) a tick early, recorder holes \(r.holes.count)")
            // No minimum: under load the recorder missed a cycle within a beat before
            // nearly every click (CI-like load: 332 holes in 10 s, 1 click judged).
            // The master's clicks against its own BBT are proven to the frame in
            // SimulatedMasterTests and SimulatedLinkMasterTests; PipeWire's part, whole
            // ticks only, is judged above on every cycle the recorder read.
            #expect(outside.isEmpty, "\(outside)")
            #expect(locateRow != nil, "no Starting cycle at the locate's frame 692 933")
            #expect(r.transport.first { $0.frame > (locateRow?.frame ?? stop) && $0.rolling }.map { "\($0.bar).\($0.beat)" } == "9.1")
            // One Stop, the locate's: a cycle PipeWire skipped leaves the transport
            // on by what the clock moved, no locate (TransportObserver). The locate's
            // Stop, Song Position and Continue go out in one cycle, on the first
            // clock tick after it (§4.5): none recorded only if the recorder missed a
            // cycle within a 16th and a period after the locate's `Starting` cycle.
            let locateUnseen = stops.isEmpty && locateRow.map { row in
                r.holes.contains { $0.overlaps(row.frame...(row.frame + Int64(Self.rate * 15 / 133) + 512)) }
            } == true
            if locateUnseen { print("PipeWire transport master: the locate's Stop fell in a cycle the recorder missed") }
            // Where PipeWire ran the graph out of step right at the locate (the
            // recorder missed cycles between the two, or saw its frame time step
            // back), Tactus may answer the locate twice, the same Song Position
            // both times: seen on this machine under load, 646 frames apart,
            // with the recorder's cycle 197 632 run twice. Said here and left
            // for the simulated tier to pin down; never without the disturbance.
            let words = { (f: Int64) in r.midi().filter { $0.frame == f && $0.bytes != [0xF8] }.map(\.bytes) }
            let answeredTwice = stops.count == 2 && words(stops[0]) == words(stops[1]) && words(stops[0]).count == 3
                && r.holes.contains { $0.overlaps((stops[0] - 1_024)...stops[1]) }
            if answeredTwice { print("PipeWire transport master: the locate answered twice (\(stops)) where PipeWire ran out of step: \(r.holes.filter { $0.overlaps((stops[0] - 1_024)...stops[1]) })") }
            #expect(stops.count == 1 || locateUnseen || answeredTwice, "Stops at \(stops), recorder holes \(r.holes.count)")
        }

        // MARK: - conditional

        /// Another client holds the timebase: `--transport master` says so and
        /// runs as join (the BBT stays the other master's); `master-force` takes it over.
        @Test func masterIsConditionalAndMasterForceTakesOver() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let master = try Self.probe(server, ["transport", "master", "--no-roll", "--seconds", "20", "--segments", "0:100:4"], tag: "holder")
            defer { if master.isRunning { kill(master.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 1)
            let (joined, log) = try Self.record(server, "conditional", seconds: 3, ["--transport", "master", "--bpm", "133"]) { _ in }
            #expect(log.contains("another JACK client is timebase master: running as --transport join (--transport master-force takes over)"), "\(log)")
            #expect(log.components(separatedBy: "another JACK client is timebase master").count == 2, "said once")
            let joinedTempi = Set(joined.transport.filter(\.hasBBT).map(\.beatsPerMinute))
            #expect(joinedTempi == [100], "the other master's BBT: \(joinedTempi)")
            let (forced, forcedLog) = try Self.record(server, "forced", seconds: 3, ["--transport", "master-force", "--bpm", "133"]) { _ in }
            #expect(forcedLog.contains("JACK timebase master: forced"), "\(forcedLog)")
            let late = forced.transport.suffix(100).filter(\.hasBBT)
            #expect(!late.isEmpty && late.allSatisfy { $0.beatsPerMinute == 133 }, "\(Set(late.map(\.beatsPerMinute)))")
        }

        // MARK: - join

        /// `jack_transport` start, locate and stop move Tactus (Start; Stop, Song
        /// Position 64, Continue; Stop); a MIDI Start on its `control` port starts
        /// Tactus and the transport rolls with it, from frame 0.
        @Test func joinStartsStopsAndLocatesBothWays() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            var controlStart: Date?
            let (r, log) = try Self.record(server, "join", seconds: 9, ["--transport", "join", "--bpm", "120", "--start-stopped"]) { _ in
                Thread.sleep(forTimeInterval: 0.5)
                let startProbe = try Self.probe(server, ["transport", "start"], tag: "start")
                #expect(TestProcess.wait(startProbe, seconds: 10) == 0)
                Thread.sleep(forTimeInterval: 1.5)
                // Bar 5 at 120 BPM 4/4: 4 bars of 96 000 frames.
                let locateProbe = try Self.probe(server, ["transport", "locate", "384000"], tag: "locate")
                #expect(TestProcess.wait(locateProbe, seconds: 10) == 0)
                Thread.sleep(forTimeInterval: 1.5)
                let stopProbe = try Self.probe(server, ["transport", "stop"], tag: "stop")
                #expect(TestProcess.wait(stopProbe, seconds: 10) == 0)
                Thread.sleep(forTimeInterval: 1)
                let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).join.script", ["0.2 FA"])
                controlStart = Date()
                let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "join:control", script: script)
                #expect(TestProcess.wait(sender, seconds: 15) == 0)
            }
            #expect(controlStart != nil)
            let midi = r.midi().filter { $0.bytes != [0xF8] }
            let words = midi.map(\.bytes)
            // Start; the locate to bar 5: Stop, Song Position 64 (4 bars of 16ths), Continue; Stop and where; Start.
            #expect(Array(words.prefix(5)) == [[0xFA], [0xFC], [0xF2, 64, 0], [0xFB], [0xFC]], "\(words)")
            #expect(words.count == 7 && words[5].first == 0xF2 && words[6] == [0xFA], "\(words)")
            // The transport rolled, stood still, and rolled again from frame 0 after the MIDI Start.
            let rolls = zip(r.transport, r.transport.dropFirst()).filter { $0.0.state == 0 && $0.1.state != 0 }.map(\.1)
            #expect(rolls.count == 2, "\(rolls.map(\.transportFrame))")
            // JACK takes the start before the locate to 0 asked with it: it starts at the old frame and rolls from 0.
            let lastStop = r.transport.lastIndex { $0.state == 0 } ?? 0
            let rolledFrom = r.transport[lastStop...].first(where: \.rolling)?.transportFrame
            #expect(rolledFrom == 0, "rolled from \(String(describing: rolledFrom))")
            if let lastStart = midi.last?.frame, let roll = rolls.last?.frame {
                print("transport join: MIDI Start on control → transport rolling \(Double(roll - lastStart) / Self.rate * 1000) ms from Tactus's Start")
                #expect(abs(roll - lastStart) < 4800, "within 0.1 s")
            }
            #expect(!log.contains("timebase master"), "join asks for no timebase")
        }

        /// The space key in the interactive display starts Tactus and the
        /// transport with it; the JACK row shows the mode, the roll and the timebase.
        @Test func joinTheSpaceKeyStartsTheTransportAndTheDisplaySaysSo() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let out = TestFiles.file("\(server.name).space.recording")
            let ready = TestFiles.file("\(server.name).space.ready")
            let recorder = try TestProcess.launch(TestFiles.probe, [
                "record", "-s", server.name, "--name", "rec", "--out", out.path, "--ready", ready.path, "--transport", "--seconds", "6",
            ], output: TestFiles.file("\(server.name).space.recorder.log"))
            #expect(TestProcess.waitForFile(ready, seconds: 10))
            let run = try JACKServerTests.InteractiveDisplay.Run(server: server, name: "spacejoin", [
                "--transport", "join", "--start-stopped", "--bpm", "120", "--connect-clock", "rec:midi_1", "rec:audio_1",
            ], width: 160)
            let stopped = run.tmux.waitFor { $0.contains { $0.contains("transport join, stopped; timebase none") } }
            #expect(stopped != nil, "\((try? run.tmux.screen()) ?? [])")
            try run.tmux.keys("Space")
            let rolling = run.tmux.waitFor { $0.contains { $0.contains("transport join, rolling; timebase none") } }
            #expect(rolling != nil, "\((try? run.tmux.screen()) ?? [])")
            Thread.sleep(forTimeInterval: 1)
            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(TestProcess.wait(recorder, seconds: 20) == 0)
            let r = try Recording(contentsOf: out)
            let start = r.midi().first { $0.bytes == [0xFA] }
            let roll = r.transport.first(where: \.rolling)
            #expect(start != nil && roll?.transportFrame == 0, "\(String(describing: roll))")
            if let start, let roll {
                print("transport join: the space key's Start → transport rolling \(Double(roll.frame - start.frame) / Self.rate * 1000) ms later")
                #expect(roll.frame >= start.frame && roll.frame - start.frame < 4800)
            }
        }

        // MARK: - follow

        /// The same on PipeWire's JACK (0.3.65), whose follower reads this cycle's
        /// frame with the BBT the master wrote when its node last ran: a period old
        /// in nearly every cycle the recorder reads (the follower's node runs
        /// before the master's), several periods old where a client missed cycles
        /// under load, and a tick low at times (docs/DESIGN.md §13.6). `BBTFollower`
        /// takes a reading whole periods behind its line onto it and moves the line
        /// ahead to a fresher one, so: no spurious locate (Start, one Stop, Song
        /// Position 176 and Continue for the locate to bar 13, Stop and Song
        /// Position at the end), 24 ticks between every two clicks, and every click
        /// within ±1 frame of the master's beat, or one period late within two
        /// ticks where every reading since the line was drawn was stale. Measured
        /// (5 runs): all 45 clicks on the beat, within ±0.49 frame, none late (the
        /// first rolling cycle, at frame 0, carries the stopped transport's BBT,
        /// 1.1.0, which is frame 0's: the line is drawn fresh); in 9 more under load,
        /// once one click a period late (a line drawn again from stale readings alone).
        /// Under load, one take, no retake: beats beside a span where the recording
        /// shows PipeWire running the graph out of step (`PipeWireDisturbance`) are
        /// not counted, a beat may hold 23 ticks beside a late cycle's catch-up, a
        /// click may sound on that catch-up, and a click or the Continue may be
        /// moved whole periods there by PipeWire's frame time (`lateCycles`):
        /// counted and printed.
        @Test(.enabled(if: PipeWireTestServer.isInstalled, "needs pipewire, pipewire-jack, pipewire-bin (scripts/test installs them)"))
        func followOnPipeWireClicksOnTheMastersBeatsThroughItsStaleBBT() throws {
            let pw = try PipeWireTestServer()
            defer { pw.stop() }
            let errors = try Self.followErrors(on: Host(pw), tolerance: 1, latePeriod: 256, lateCycles: true)
            let late = errors.filter { abs($0 - 256) <= 25 }
            print("PipeWire follow: \(errors.count - late.count) clicks within ±1 frame of the master's beat, \(late.count) one period late, errors from \(errors.min() ?? 0) to \(errors.max() ?? 0) frames")
            // At least one judged (see `followErrors`): the rest is proven in the simulated tier.
            #expect(errors.count >= 1)
        }

        /// Each click's error against the map, signed, from `follow(on:)` (for PipeWire's pin).
        static func follow(on server: Host, tolerance: Double) throws {
            _ = try followErrors(on: server, tolerance: tolerance)
        }

        /// A click of a cycle Tactus missed, played at the next block's first frame
        /// (a cycle's first frame in the recording, less than a period after its
        /// beat), or one in a cycle the recorder missed.
        static func lateCycle(_ r: Recording, at frame: Int64, error: Double) -> Bool {
            (error > 0 && error < 256 && r.transport.contains { $0.frame == frame })
                || r.holes.contains { ($0.lowerBound - 256)...($0.upperBound + 256) ~= frame }
        }

        /// An event `error` frames from where it belongs, that many whole periods
        /// (±`tolerance`) off, at `frame` in or beside a span where the recording
        /// shows PipeWire running the graph out of step (`PipeWireDisturbance`):
        /// Tactus placed it in its block, PipeWire labelled the block with another
        /// cycle's frame time; moved by no more than the span and a period.
        static func movedByPipeWire(_ spans: [ClosedRange<Int64>], at frame: Int64, error: Double, tolerance: Double) -> Bool {
            let n = (error / 256).rounded()
            guard n != 0, abs(error - n * 256) <= tolerance else { return false }
            let moved = Int64(abs(n)) * 256
            return spans.contains { ($0.lowerBound - 256 - moved)...($0.upperBound + 256 + moved) ~= frame && moved <= $0.upperBound - $0.lowerBound + 256 }
        }

        /// `latePeriod`: a click may also be that many frames late within two ticks
        /// (25 frames; PipeWire's line drawn from stale BBT alone); `lateCycles`: see the ticks below.
        static func followErrors(on server: Host, tolerance: Double, latePeriod: Double? = nil, lateCycles: Bool = false) throws -> [Double] {
            var errors: [Double] = []
            var master: Process?
            // One take, judged with what it allows (no retake: what load does is classified below).
            let (r, log) = try Self.record(on: server, "follow", seconds: 24, ["--transport", "follow", "--bpm", "100", "--start-stopped"]) { _ in
                master = try Self.probe(on: server, ["transport", "master", "--segments", "0:120:4,16:133:4,32:133:3", "--seconds", "22"], tag: "master")
                // Past bar 9 (15.2 s): the follower has seen the meter change the master's bars count from.
                Thread.sleep(forTimeInterval: 16.5)
                let locateProbe = try Self.probe(on: server, ["transport", "locate", "990315"], tag: "locate")
                #expect(TestProcess.wait(locateProbe, seconds: 10) == 0)
            }
            if let master { #expect(TestProcess.wait(master, seconds: 20) == 0) }
            #expect(!log.contains("error"), "\(log)")
            print("transport follow, Tactus's own count: \(log.split(separator: "\n").first { $0.contains("transport follow: ") && $0.contains("held off") } ?? "no stale reading")")
            // The map's beats in transport frames.
            var beats: [(frame: Double, bar: Int, beat: Int)] = []
            for k in 0..<16 { beats.append((Double(k) * 24000, k / 4 + 1, k % 4 + 1)) }
            let beat133 = Self.rate * 60 / 133
            for k in 0..<16 { beats.append((384_000 + Double(k) * beat133, 5 + k / 4, k % 4 + 1)) }
            for k in 0..<40 { beats.append((384_000 + Double(16 + k) * beat133, 9 + k / 3, k % 3 + 1)) }
            // Transport frame of each recorded frame, from the cycle it is in.
            // A row whose transport frame is whole periods off both its neighbours'
            // (PipeWire's shim for a cycle at times, docs/DESIGN.md §13.6) is read at theirs.
            func transportFrame(_ f: Int64) -> Double? {
                guard let i = r.transport.lastIndex(where: { $0.frame <= f }), r.transport[i].rolling else { return nil }
                let rows = r.transport, lead = { (k: Int) in rows[k].frame - rows[k].transportFrame }
                var at = lead(i)
                if i > 0, i + 1 < rows.count, rows[i - 1].rolling, rows[i + 1].rolling, lead(i - 1) == lead(i + 1),
                   lead(i) != at || lead(i - 1) != at, (lead(i) - lead(i - 1)) % 256 == 0 {
                    at = lead(i - 1)
                }
                return Double(f - at)
            }
            // How old the BBT the recorder read was, in periods (the frame the map puts it at, against the cycle's frame).
            var age: [Int: Int] = [:]
            for row in r.transport where row.rolling && row.hasBBT {
                guard let b = beats.firstIndex(where: { $0.bar == row.bar && $0.beat == row.beat }), b + 1 < beats.count else { continue }
                let at = beats[b].frame + Double(row.tick) / 1920 * (beats[b + 1].frame - beats[b].frame)
                age[Int(((Double(row.transportFrame) - at) / 256).rounded()), default: 0] += 1
            }
            print("transport follow: the recorder's BBT was this many periods old in so many cycles: \(age.sorted { $0.key < $1.key })")
            // A click starts on its first sample (PipeWire.clickFirstSamples). Any other
            // value is the rest of a click's sound found again after cycles Tactus was
            // not run for (its tail): only at a cycle's first frame, within the click's
            // length and the frames Tactus said it was not run for (its exit line).
            let onsets = r.onsets.filter { $0.port == 1 }
            let clicks = onsets.filter { PipeWire.clickFirstSamples.contains($0.value) }
            let gaps = PipeWireDisturbance.tactusGaps(log)
            let tails = onsets.filter { !PipeWire.clickFirstSamples.contains($0.value) }
            for tail in tails {
                let click = clicks.last { $0.frame < tail.frame }
                let resumed = click.map { PipeWireDisturbance.isTail(at: tail.frame, of: $0.frame, length: PipeWire.clickLength, gaps: gaps, period: 256) } ?? false
                #expect(resumed, "a sound at \(tail.frame) (\(tail.value)) that is no click's start nor its tail after \(gaps.gaps) gaps (last click \(click?.frame ?? -1))")
            }
            if !tails.isEmpty { print("transport follow: \(tails.count) click tails after Tactus's \(gaps.gaps) gaps") }
            // The locate's Stop, Song Position and Continue go out in one cycle (§4.5):
            // with `lateCycles`, none recorded only if the recorder missed a cycle where
            // they were due (then the rest is judged).
            // Its cycle lies within a 16th and a period after the `Starting` cycle: on bar
            // 13, or on the next 16th when Tactus missed bar 13's cycle (SimulatedPipeWireLocateTests).
            let locateRow = r.transport.first { $0.state == 3 && $0.transportFrame == 990_315 }
            let window = (locateRow?.frame ?? 0)...((locateRow?.frame ?? .max - 6000) + Int64(Self.rate * 15 / 133) + 512)
            let locateStop = r.midi().first { $0.bytes == [0xFC] && (locateRow == nil || window ~= $0.frame) }
            let locateUnseen = lateCycles && locateStop == nil && locateRow != nil && r.holes.contains { $0.overlaps(window) }
            if locateUnseen { print("transport follow: the locate's Stop fell in a cycle the recorder missed") }
            guard let stopFrame = locateStop?.frame ?? (locateUnseen ? locateRow?.frame : nil) else {
                Issue.record("no Stop for the locate: \(r.midi().filter { $0.bytes != [0xF8] }.map(\.bytes))"); return errors
            }
            let stop = (frame: stopFrame, bytes: [UInt8(0xFC)])
            let spans = lateCycles ? PipeWireDisturbance.spans(r) : []
            if lateCycles { print("transport follow: recorder holes \(r.holes.count), cycles out of step \(spans.count), xrun notices \(r.xruns)") }
            var worst = 0.0, checked = 0, lateCycleClicks = 0, movedClicks = 0
            var skippedAfter: Set<String> = []
            for click in clicks {
                guard let t = transportFrame(click.frame) else { continue }
                guard let nearest = beats.min(by: { abs($0.frame - t) < abs($1.frame - t) }) else { continue }
                // The first beat after the start, the tempo step and the locate may be off.
                let event = click.frame >= stop.frame ? "locate" : nearest.frame >= 384_000 ? "tempo" : "start"
                if !skippedAfter.contains(event) {
                    skippedAfter.insert(event)
                    continue
                }
                let error = t - nearest.frame
                let late = latePeriod.map { abs(error - $0) <= 25 } ?? false
                if lateCycles && !(abs(error) <= tolerance || late) && Self.lateCycle(r, at: click.frame, error: error) {
                    lateCycleClicks += 1
                    continue
                }
                if lateCycles && !(abs(error) <= tolerance || late) && Self.movedByPipeWire(spans, at: click.frame, error: error, tolerance: tolerance) {
                    movedClicks += 1
                    continue
                }
                errors.append(error)
                worst = max(worst, abs(error))
                checked += 1
                #expect(abs(error) <= tolerance || late, "click at transport frame \(t): bar \(nearest.bar) beat \(nearest.beat) is at \(nearest.frame)")
                #expect((click.value > 0.8) == (nearest.beat == 1), "accent at bar \(nearest.bar) beat \(nearest.beat)")
            }
            print("transport follow (\(server.serverArguments.isEmpty ? "PipeWire" : "jackd")): \(checked) clicks checked, worst \(worst) frames from the master's beat, xruns \(r.xruns)")
            // At least one: the clicks on the master's beats through stale BBT are
            // proven to the frame in SimulatedFollowMastersTests; load may leave any
            // live click beside a span PipeWire ran out of step.
            #expect(checked >= (lateCycles ? 1 : 40), "clicks checked \(checked)")
            // The locate: Stop, Song Position 176 (0xF2 0x30 0x01), Continue on bar 13's first beat.
            let transportEvents = r.midi().filter { $0.bytes != [0xF8] }
            // The Start may fall in a cycle the recorder itself missed (a hole
            // before the first event it saw): then the rest is judged.
            var bytes = transportEvents.map(\.bytes)
            if let first = transportEvents.first, first.bytes != [0xFA], r.holes.contains(where: { $0.lowerBound < first.frame }) {
                print("transport follow: the Start fell in a cycle the recorder missed (\(r.holes.filter { $0.lowerBound < first.frame }))")
                bytes.insert([0xFA], at: 0)
            }
            if locateUnseen { bytes.insert(contentsOf: [[0xFC], [0xF2, 0x30, 0x01], [0xFB]], at: min(1, bytes.count)) }
            // Song Position 176, bar 13; or 177, the next 16th, when Tactus missed the
            // cycle holding bar 13's frame (SimulatedPipeWireLocateTests): allowed only
            // where the recording shows PipeWire's cycles out of step at that frame.
            let nextSixteenth = bytes.count > 2 && bytes[2] == [0xF2, 0x31, 0x01] && lateCycles
            #expect(Array(bytes.prefix(4)) == [[0xFA], [0xFC], nextSixteenth ? [0xF2, 0x31, 0x01] : [0xF2, 0x30, 0x01], [0xFB]], "\(bytes)")
            // Where PipeWire ran the graph out of step (a span of `spans`, within
            // its slack), its shim may hand the follower a position of another
            // cycle, and Tactus answers it as a locate: Stop, Song Position,
            // Continue in one cycle. Seen under a CPU hog (385 recorder holes in
            // 24 s); said here, allowed only beside such a span, and left for the
            // simulated tier to pin down. Never on a take PipeWire kept in step.
            let slack = PipeWireDisturbance.slackPeriods * Int64(r.period)
            let answers = transportEvents.filter { $0.bytes == [0xFC] }.dropFirst().dropLast()
            let extra = answers.filter { a in
                spans.contains { ($0.lowerBound - slack)...($0.upperBound + slack) ~= a.frame }
                    && r.midi().filter { $0.frame == a.frame && $0.bytes != [0xF8] }.map { $0.bytes.first } == [0xFC, 0xF2, 0xFB]
            }
            if !extra.isEmpty { print("transport follow: \(extra.count) locate(s) answered where PipeWire ran out of step: \(extra.map(\.frame))") }
            if lateCycles && extra.count == answers.count && !extra.isEmpty && bytes.count == 6 + 3 * extra.count {
                bytes.removeSubrange(4..<(4 + 3 * extra.count))
            }
            // The master's stop at its end: Stop and Song Position, nothing else.
            #expect(bytes.count == 6 && bytes[4] == [0xFC] && bytes[5].first == 0xF2, "\(bytes)")
            if let cont = transportEvents.first(where: { $0.bytes == [0xFB] && $0.frame >= stop.frame }), let t = transportFrame(cont.frame) {
                // Placed from the first cycle after the locate, which bounds the phase to one tick (11.3 frames at 133).
                // 990 315.8 is bar 13; the next 16th at 133 BPM is 5 413.5 frames on.
                let due = nextSixteenth ? 990_315.8 + Self.rate * 15 / 133 : 990_315.8
                if nextSixteenth {
                    let barLine = cont.frame - Int64(due - 990_315.8)
                    let slack = PipeWireDisturbance.slackPeriods * 256
                    let seen = spans.contains { ($0.lowerBound - slack)...($0.upperBound + slack) ~= barLine }
                    print("transport follow: the cycle of bar 13 (recorded frame \(barLine)) missed, Continue on the next 16th; PipeWire out of step there: \(seen)")
                    #expect(seen, "Song Position 177 with no skip the recording shows at bar 13's frame \(barLine): \(spans.filter { abs($0.lowerBound - barLine) < 4096 })")
                }
                print("transport follow: Continue at transport frame \(t), due at \(due)")
                // Or whole periods off where PipeWire ran the graph out of step around it
                // (the block labelled with another cycle's frame time; the locate's
                // Continue on bar 13's frame through cycles missed is proven in
                // SimulatedPipeWireLocateTests).
                let moved = lateCycles && Self.movedByPipeWire(spans, at: cont.frame, error: t - due, tolerance: 11.3)
                if moved { print("transport follow: the Continue's block moved whole periods by PipeWire's frame time") }
                #expect(abs(t - due) <= 11.3 || moved, "Continue at \(t), due at \(due)")
            }
            // 24 ticks a beat between two clicks, before and after the locate.
            let ticks = r.ticks()
            let clickFrames = clicks.map(\.frame)
            // With `lateCycles` (PipeWire under load) a beat may hold 23 where Tactus
            // missed cycles (what they held sounds at the next block's first frame, a
            // cycle's first frame here, and the output of a cycle that came too late
            // is dropped by the server) or the recorder missed one; never more than 24.
            let cycleStarts = Set(r.transport.map(\.frame))
            var counts: [Int] = []
            var odd: [String] = []
            var lateBeats = 0, holeBeats = 0
            for (a, b) in zip(clickFrames, clickFrames.dropFirst()) where !(a < stop.frame && b >= stop.frame) {
                let near = ticks.filter { $0 >= a - 2000 && $0 < b + 2000 }
                let count = ticks.filter { $0 >= a && $0 < b }.count
                if lateCycles && spans.contains(where: { $0.overlaps((a - 256)...(b + 256)) }) {
                    holeBeats += 1
                    continue
                }
                if count == 23 && lateCycles && near.contains(where: cycleStarts.contains) {
                    lateBeats += 1
                    continue
                }
                counts.append(count)
                if count != 24 { odd.append("\(count) from the click at \(a): \(near)") }
            }
            if lateCycles {
                print("transport follow: \(lateBeats) beats with a tick of a late cycle dropped, \(lateCycleClicks) clicks on a late cycle's catch-up, \(movedClicks) moved whole periods, \(r.holes.count) cycles the recorder missed (\(holeBeats) beats beside a span out of step not counted)")
            }
            #expect(Set(counts) == [24], "ticks between clicks \(counts): \(odd)")
            return errors
        }
    }
}
