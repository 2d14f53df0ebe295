import Foundation
import Testing
import TactusCLI

extension JACKServerTests {
    /// A pressure hold on JACK while a preset's sample takes long to read: the
    /// sample is a named pipe, which this test fills only once the sender has
    /// let go of the key (3 s into its script) and closed, so the read blocks
    /// from the Program Change (1.2 s) until after the hold. The hold's steps (a
    /// tap's +1 at the Note On, then +1 every 0.16 s from 0.32 s, docs/DESIGN.md
    /// §5.4) go on meanwhile, each heard on the clock at its time, and the
    /// preset's 150 BPM comes only after the read, exactly: no step follows it.
    @Suite(.serialized) struct PresetSampleReadOnJACK {
        @Test func pressureStepsKeepTheirScheduleOnJACKWhileAPresetsSampleIsRead() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let home = TestFiles.file("\(server.name).read-home")
            let presets = home.appendingPathComponent("config/tactus/presets")
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            let wav = TestFiles.file("\(server.name).half.wav")
            do {
                let writer = try WAVWriter(path: wav.path, sampleRate: 48_000, format: .float)
                try writer.write([0.5, 0.25, 0.125], frames: 3)
            }
            let pipe = presets.appendingPathComponent("slow.wav").path
            #expect(mkfifo(pipe, 0o600) == 0)
            try #"{ "format": 1, "name": "Plain test", "program": 100, "tempo": 120 }"#
                .write(to: presets.appendingPathComponent("plain.json"), atomically: true, encoding: .utf8)
            try #"{ "format": 1, "name": "Slow test", "program": 101, "tempo": 150, "sounds": { "accent": { "sample": "slow.wav" } } }"#
                .write(to: presets.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)

            let recording = TestFiles.file("\(server.name).read.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording, ports: 2)
            let out = TestFiles.file("\(server.name).read.out")
            let tactus = try TestProcess.launch(TestFiles.tactus, [
                "--no-interactive", "--no-alsa", "-s", server.name, "-n", "rd", "--preset", "Plain test",
                "--connect-clock", "rec:midi_1",
            ], output: out, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                          "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(out, containing: " running"), "\(Launch.text(out))")
            // Up key (72) at 1 s, light pressure (60 of 127) from 1.05 s, Program Change 101 at 1.2 s,
            // let go at 3.0 s (the hold's last step at 2.92 s).
            let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).read.script",
                                                                        ["1.0 90 48 40", "1.05 D0 3C", "1.2 C0 65", "3.0 D0 00", "3.0 80 48 00"])
            let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "rd:control", script: script, name: "presser")
            // The sender's own output beside the clock, so the Note On has its frame.
            for _ in 0..<100 {
                let connect = try TestProcess.launch("/usr/bin/jack_connect", ["-s", server.name, "presser:out", "rec:midi_2"],
                                                     output: TestFiles.file("\(server.name).read.connect.log"))
                if TestProcess.wait(connect, seconds: 5) == 0 { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            // The sample's bytes once the sender played its last event (the release) and
            // closed: the read ends after the hold, whatever the machine's load (a write at a
            // fixed wall-clock time fell before the release on a loaded host once the sender
            // started late, and a step then followed the preset's tempo). open() waits for
            // the reading thread.
            #expect(TestProcess.wait(sender, seconds: 15) == 0)
            let bytes = try Data(contentsOf: wav)
            let fd = open(pipe, O_WRONLY)
            #expect(fd >= 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            // The preset comes at the next bar line: 1.8 s at most at the hold's 132 BPM.
            Thread.sleep(forTimeInterval: 2.5)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder)

            let log = Launch.text(out)
            #expect(log.contains("Slow test"), "the preset switched once read: \(log)")
            let r = try Recording(contentsOf: recording)
            let noteOn = try #require(r.midi(port: 2).first { $0.bytes.first == 0x90 }?.frame, "the sender's Note On was not recorded")
            let ticks = r.ticks(port: 1)
            let intervals = zip(ticks.dropFirst(), ticks).map { (start: $1, length: $0 - $1) }
            // Step k at 0.32 + 0.16 k s after the Note On sets 122 + k BPM: a tick every 120 000 / BPM
            // frames at 48 kHz. Each step's window, from 30 ms after it (the next cycle and tick)
            // to the next step, for the 10 steps before 2.92 s (the read blocks until after 3 s).
            var heard: [String] = []
            for k in 0..<10 {
                let from = noteOn + 15_360 + 7_680 * Int64(k) + 1_440, to = noteOn + 15_360 + 7_680 * Int64(k + 1)
                let inside = intervals.filter { $0.start >= from && $0.start + $0.length <= to }.map(\.length).sorted()
                let expected = 120_000.0 / Double(122 + k)
                let median = inside.isEmpty ? 0 : Double(inside[inside.count / 2])
                heard.append("\(122 + k): \(inside)")
                #expect(abs(median - expected) <= 1, "step \(k) (\(122 + k) BPM, \(expected) frames a tick): \(inside)")
            }
            print("steps heard while the sample was read: \(heard.joined(separator: "; "))")
            // The preset's 150 BPM (800 frames a tick) only after the read, and exactly: the
            // key was let go before it (the hold alone reaches 132 BPM, 909 frames).
            let firstFast = intervals.first { $0.length <= 800 }
            #expect(firstFast.map { $0.start > noteOn + 15_360 + 7_680 * 10 && $0.length == 800 } == true,
                    "150 BPM from \(String(describing: firstFast)), Note On at \(noteOn)")
        }
    }
}
