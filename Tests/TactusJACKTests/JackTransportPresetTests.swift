import Foundation
import Testing

extension JACKServerTests {
    /// A preset's `"transport"` against a real private jackd: the
    /// mode at start, changed by a Program Change while running, and pinned by
    /// `--transport` on the command line.
    @Suite(.serialized) struct JackTransportPresets {
        typealias T = JackTransport
        static let rate = T.rate

        /// "Master test" (program 100, 120 BPM, `master`) and "Join test"
        /// (program 101, 150 BPM, `join`) in the user preset folder of `tag`'s run.
        static func writePresets(_ server: JackTestServer, _ tag: String) throws {
            let presets = TestFiles.file("\(server.name).\(tag)-home").appendingPathComponent("config/tactus/presets")
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            try #"{ "format": 1, "name": "Master test", "program": 100, "tempo": 120, "transport": "master" }"#
                .write(to: presets.appendingPathComponent("master.json"), atomically: true, encoding: .utf8)
            try #"{ "format": 1, "name": "Join test", "program": 101, "tempo": 150, "transport": "join" }"#
                .write(to: presets.appendingPathComponent("join.json"), atomically: true, encoding: .utf8)
        }

        /// The index of the first click from `from` on whose next click is
        /// `frames` later (±1): the bar line where a preset's tempo took effect.
        static func firstInterval(_ clicks: [Int64], _ frames: Int64, from: Int = 0) -> Int? {
            guard clicks.count > from + 1 else { return nil }
            return (from..<(clicks.count - 1)).first { abs(clicks[$0 + 1] - clicks[$0] - frames) <= 1 }
        }

        /// Started by the master preset (no `--transport`): timebase master. A
        /// Program Change to the join preset releases the timebase: from that
        /// switch's bar line on no cycle has BBT for over a second, while the
        /// transport and Tactus roll on (jack2's reposition at the release, one
        /// `Starting` cycle a period back, is no locate to Tactus). A Program Change back to the master
        /// preset takes the timebase again: from its bar line every rolling cycle
        /// has BBT, every click within ±0.5 frame of where it puts its beat, bars
        /// counting on and beat 1 the accent. The display's change log and the
        /// log say each change.
        @Test func aPresetSwitchChangesTheModeMasterToJoinAndBack() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let tag = "trpreset"
            try Self.writePresets(server, tag)
            let (r, log) = try T.record(server, tag, seconds: 12, ["--preset", "Master test"]) { _ in
                let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).\(tag).script", ["3.0 C0 65", "6.5 C0 64"])
                let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "\(tag):control", script: script)
                #expect(TestProcess.wait(sender, seconds: 15) == 0)
                Thread.sleep(forTimeInterval: 3)
            }
            #expect(log.components(separatedBy: "JACK timebase master: \(tag)").count == 3, "registered at start and after the switch back: \(log)")
            #expect(log.contains("JACK transport master → join") && log.contains("JACK timebase released")
                    && log.contains("JACK transport join → master"), "\(log)")
            #expect(log.contains("transport join, rolling; timebase none") && log.contains("transport master, rolling; timebase \(tag) (this client)"), "\(log)")
            let clicks = r.onsets.filter { $0.port == 1 }.map(\.frame)
            // 150 BPM: 19 200 frames a beat; 120 BPM: 24 000.
            let toJoin = try #require(Self.firstInterval(clicks, 19_200), "the join preset never played: \(clicks.prefix(40))")
            let toMaster = try #require(Self.firstInterval(clicks, 24_000, from: toJoin), "the master preset never came back")
            let (joinBar, masterBar) = (clicks[toJoin], clicks[toMaster])
            #expect(toJoin % 4 == 0 && (toMaster - toJoin) % 4 == 0, "both switches on bar lines: clicks \(toJoin), \(toMaster)")
            let rolling = r.transport.filter { $0.frame >= joinBar - 96_000 && $0.frame < r.endFrame - 48_000 }
            // jack2 answers the release with a reposition to the frame it had then: one `Starting` cycle.
            #expect(!rolling.isEmpty && rolling.allSatisfy { $0.state != 0 } && rolling.filter { !$0.rolling }.count == 1,
                    "the transport rolls through both switches: \(rolling.filter { !$0.rolling }.map { "\($0.frame) state \($0.state)" })")
            // Master at start: BBT up to the first switch's bar (less the bar it was asked in).
            let before = r.transport.filter { $0.rolling && $0.frame < joinBar - 96_000 }
            #expect(!before.isEmpty && before.allSatisfy(\.hasBBT), "\(before.filter { !$0.hasBBT }.prefix(3).map(\.frame))")
            // Released: no BBT from the first switch's bar line until the second switch was asked for.
            let released = r.transport.filter { $0.frame >= joinBar }
            let back = released.first { $0.hasBBT }
            let backAt = try #require(back, "BBT never came back").frame
            print("transport preset: join from \(joinBar), BBT gone until \(backAt), master from \(masterBar)")
            #expect(backAt - joinBar >= 48_000 && backAt <= masterBar, "BBT gone \(backAt - joinBar) frames")
            // Master again: BBT in every cycle from the second switch's bar line, each click on its beat.
            let after = r.transport.filter { $0.rolling && $0.frame >= masterBar && $0.frame < r.endFrame - 48_000 }
            #expect(after.count > 500 && after.allSatisfy(\.hasBBT) && after.allSatisfy { $0.beatsPerMinute == 120 })
            let beats = T.masterBeats(r).filter { $0.frame >= masterBar }
            let worst = beats.map { abs($0.error) }.max() ?? .infinity
            print("transport preset: \(beats.count) clicks published as master after the switch back, worst \(worst) frames")
            #expect(beats.count >= 6 && worst <= 0.5, "\(beats.filter { abs($0.error) > 0.5 }.prefix(4).map { "\($0.frame): \($0.error)" })")
            #expect(beats.first?.beat == 1, "the switch's bar line is a beat 1")
            var expected = (bar: beats.first?.bar ?? 1, beat: 1)
            for b in beats {
                #expect(b.bar == expected.bar && b.beat == expected.beat && b.accent == (b.beat == 1), "click \(b.frame): \(b.bar).\(b.beat)")
                expected = b.beat == 4 ? (b.bar + 1, 1) : (b.bar, b.beat + 1)
            }
            // Tactus never stopped: Start, then only the Stop of the quit.
            let words = r.midi().filter { $0.bytes != [0xF8] }.map(\.bytes)
            #expect(words.first == [0xFA] && !words.dropFirst().dropLast(2).contains([0xFC]), "\(words)")
        }

        /// `--transport join` on the command line pins the mode: the master
        /// preset at start does not make Tactus timebase master, and no cycle has BBT.
        @Test func transportOnTheCommandLineWinsOverThePreset() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let tag = "trpinned"
            try Self.writePresets(server, tag)
            let (r, log) = try T.record(server, tag, seconds: 4, ["--preset", "Master test", "--transport", "join"]) { _ in }
            #expect(!log.contains("timebase master"), "\(log)")
            #expect(r.transport.contains(where: \.rolling) && !r.transport.contains(where: \.hasBBT))
        }

        /// `controller.json`'s `"transport": "master"` (README "JACK transport"):
        /// with nothing else Tactus is timebase master and the cycles carry its
        /// BBT (133 BPM); the join preset at start wins over it (no timebase, no
        /// BBT), and so does `--transport off` on the command line.
        @Test func controllerJSONSetsTheModeUnderThePresetAndTheCommandLine() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            for (tag, arguments, master) in [("ctlmaster", ["--bpm", "133"], true), ("ctlpreset", ["--preset", "Join test"], false),
                                             ("ctloff", ["--transport", "off", "--bpm", "133"], false)] {
                try Self.writePresets(server, tag)
                let config = TestFiles.file("\(server.name).\(tag)-home").appendingPathComponent("config/tactus")
                try #"{ "version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70, "calibration": { "deadZone": 2, "maximum": 112, "curve": "linear" }, "transport": "master" }"#
                    .write(to: config.appendingPathComponent("controller.json"), atomically: true, encoding: .utf8)
                let (r, log) = try T.record(server, tag, seconds: 3, arguments) { _ in }
                #expect(log.contains("JACK timebase master: \(tag)") == master, "\(tag): \(log)")
                let published = r.transport.filter { $0.rolling && $0.hasBBT }
                #expect(master ? !published.isEmpty && published.allSatisfy { $0.beatsPerMinute == 133 } : published.isEmpty,
                        "\(tag): \(published.count) cycles with BBT, \(Set(published.map(\.beatsPerMinute)))")
            }
        }
    }
}
