import Foundation
import Testing
import TactusCore

extension JACKServerTests {
    /// What the server does to Tactus (xruns, a new period) and what a
    /// controller sends it (malformed MIDI) never moves the grid or stops it.
    @Suite struct Robustness {

        /// `jack_bufsize` 256 → 128 while running: the grid goes on unchanged.
        @Test func periodChangeWhileRunningKeepsTheGrid() throws {
            let bpm = 133.0
            let s = try Session.record(period: 256, seconds: 6, metronomes: [
                MetronomeSpec(name: "tactus", arguments: ["--bpm", "\(bpm)"], isTactus: true),
            ]) { server in
                Thread.sleep(forTimeInterval: 2.5)
                let p = try TestProcess.launch("/usr/bin/jack_bufsize", ["128"], output: TestFiles.file("\(server.name).bufsize.log"),
                                               environment: ["JACK_DEFAULT_SERVER": server.name])
                _ = TestProcess.wait(p, seconds: 10)
            }
            let interval = 48000 * 60 / bpm
            let clicks = GridFit(s.recording.clicks(), interval: interval), ticks = GridFit(s.recording.ticks(), interval: interval / 24)
            #expect(s.messages["tactus"]?.contains("JACK period is now 128 frames") == true, "\(s.messages)")
            #expect(clicks.maxError <= 0.5 && clicks.gaps == 0 && clicks.count >= 10, "\(clicks)")
            #expect(ticks.maxError <= 0.5 && ticks.gaps == 0, "\(ticks)")
        }

        /// Stray data bytes, undefined status bytes, SysEx, System Common and
        /// real-time bytes on `control`: Tactus hands on exactly the channel and
        /// transport messages a MIDI 1.0 receiver finds in them (the rule both
        /// inputs follow, `ControlInputEvent.accepts`), and keeps clicking.
        @Test func malformedMIDIOnControlLosesNothingValidAndStopsNothing() throws {
            let lines = [
                "42", "F4", "F5 10", "90 3C 64", "3D 64", "F0 01 02", "F7", "D0 40", "FD", "C0 05", "F8", "80 3C 00",
                "B0 01", "45", "F2 01 00", "A0 3C 30", "E0 00 40", "FF", "41 41 41", "D0 7F",
            ]
            var script = ""
            for (i, line) in lines.enumerated() { script += "\(1.0 + Double(i) * 0.05) \(line)\n" }
            let scriptURL = TestFiles.file("malformed-\(getpid()).midi")
            try script.write(to: scriptURL, atomically: true, encoding: .utf8)
            // The reference: TactusCore's parser on the same bytes, what the rule accepts.
            var parser = MIDIParser()
            let expected = lines.flatMap { $0.split(separator: " ").map { UInt8($0, radix: 16)! } }
                .compactMap { parser.parse($0) }.filter { ControlInputEvent.accepts($0) }.count
            let s = try Session.record(period: 256, seconds: 4, metronomes: [
                MetronomeSpec(name: "tactus", arguments: ["--bpm", "120"]),
            ]) { server in
                Thread.sleep(forTimeInterval: 0.5)
                let sender = try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--to", "tactus:control", "--script", scriptURL.path],
                                                    output: TestFiles.file("\(server.name).sender.log"))
                _ = TestProcess.wait(sender, seconds: 10)
            }
            // Note On, running-status Note On, Channel Pressure, Program Change, Note Off,
            // CC split over two events, Song Position, Poly Pressure, Pitch Bend,
            // running-status Pitch Bend after a real-time Reset byte, Channel
            // Pressure; not the Timing Clock.
            #expect(expected == 11)
            #expect(s.harnessLog["tactus"]?.contains("control-input received \(expected) dropped 0") == true, "\(s.harnessLog)")
            #expect(GridFit(s.recording.clicks(), interval: 24000).maxError <= 0.5)
            #expect(s.exitStatus["tactus"] == 0)
        }
    }
}
