import Foundation
import Testing
import TactusCLI

extension JACKServerTests {
    /// A preset with its own accent sample, chosen by MIDI Program Change while
    /// `tactus` runs on JACK: the recorded click output keeps the built-in accent
    /// to the end of the bar and plays the sample from the bar line on, where the
    /// clock shows the preset's tempo.
    @Suite(.serialized) struct PresetSamplesOnJACK {
        @Test func programChangeBringsThePresetsSampleFromTheNextBarLine() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let home = TestFiles.file("\(server.name).samples-home")
            let presets = home.appendingPathComponent("config/tactus/presets")
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            // The sample: three float frames, 0.5 first (an onset's value is its first sample).
            do {
                let writer = try WAVWriter(path: presets.appendingPathComponent("half.wav").path, sampleRate: 48_000, format: .float)
                try writer.write([0.5, 0.25, 0.125], frames: 3)
            } // closed here, when the writer is released
            try #"{ "format": 1, "name": "Plain test", "program": 100, "tempo": 120 }"#
                .write(to: presets.appendingPathComponent("plain.json"), atomically: true, encoding: .utf8)
            try #"{ "format": 1, "name": "Sampled test", "program": 101, "tempo": 150, "sounds": { "accent": { "sample": "half.wav" } } }"#
                .write(to: presets.appendingPathComponent("sampled.json"), atomically: true, encoding: .utf8)

            let recording = TestFiles.file("\(server.name).samples.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            let out = TestFiles.file("\(server.name).samples.out")
            let tactus = try TestProcess.launch(TestFiles.tactus, [
                "--no-interactive", "--no-alsa", "-s", server.name, "-n", "smp", "--preset", "Plain test",
                "rec:audio_1", "--connect-clock", "rec:midi_1",
            ], output: out, environment: ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                          "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
            #expect(Launch.waitFor(out, containing: " running"), "\(Launch.text(out))")
            // Program Change 101 (0x65) on channel 1, 1.2 s into the sender's run.
            let script = try JACKServerTests.InteractiveDisplay.script("\(server.name).samples.script", ["1.2 C0 65", "1.3 B0 01 00"])
            let sender = try JACKServerTests.InteractiveDisplay.send(server: server, to: "smp:control", script: script)
            #expect(TestProcess.wait(sender, seconds: 15) == 0)
            Thread.sleep(forTimeInterval: 3)
            #expect(Launch.stop(tactus) == 0)
            _ = Launch.stop(recorder)

            let log = Launch.text(out)
            #expect(log.contains("preset ") && log.contains("Sampled test"), "\(log)")
            let r = try Recording(contentsOf: recording)
            let onsets = r.onsets.filter { $0.port == 1 }
            let ticks = r.ticks(port: 1)
            // Accents are every 4th click (4/4); the built-in accent peaks at 0.9, the sample at 0.5.
            let switchIndex = try #require(onsets.firstIndex { $0.value == 0.5 }, "the sample never sounded: \(onsets.prefix(20))")
            #expect(switchIndex >= 4, "at least one bar of the plain preset first")
            #expect(switchIndex % 4 == 0, "the sample starts on a downbeat")
            #expect(onsets.count - switchIndex >= 5, "the sampled preset recorded past its second downbeat")
            #expect(onsets[..<switchIndex].enumerated().allSatisfy { i, o in i % 4 != 0 || o.value == 0.9 }, "built-in accents before")
            #expect(onsets[switchIndex...].enumerated().allSatisfy { i, o in (i % 4 == 0) == (o.value == 0.5) }, "the sample on every downbeat after, not on other beats")
            // The clock: 1000 frames a tick (120 BPM) up to the first sampled click, 800 (150 BPM) from it.
            let bar = onsets[switchIndex].frame
            let at = try #require(ticks.firstIndex(of: bar), "no tick on the switching bar line")
            #expect(at >= 2 && ticks[at] - ticks[at - 1] == 1000 && ticks[at - 1] - ticks[at - 2] == 1000)
            #expect(Array(ticks[at...].prefix(25)).adjacentDifferences() == Array(repeating: 800, count: 24))
        }
    }
}

private extension Array where Element == Int64 {
    func adjacentDifferences() -> [Int64] { zip(dropFirst(), self).map { $0 - $1 } }
}
