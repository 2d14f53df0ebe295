import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus render`: the file a musician gets, read back with libsndfile.
@Suite("tactus render")
struct RenderCommandTests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-render-\(UUID().uuidString)-\(name)"
    }

    func onsets(_ samples: [Float]) -> [Int] { clickOnsets(samples) }

    @Test("The WAV file has the asked sample rate and length, and its onsets are on the 97.3 BPM grid", arguments: [44_100, 48_000, 96_000])
    func wavReadBack(sampleRate: Int) throws {
        let wav = temporary("click.wav"), log = temporary("midi.log")
        defer { try? FileManager.default.removeItem(atPath: wav); try? FileManager.default.removeItem(atPath: log) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "30", "--bpm", "97.3", "-r", "\(sampleRate)", "--midi-log", log])
        #expect(r.status == 0, "\(r.standardError)")
        let audio = try WAVReader.read(path: wav)
        #expect(audio.sampleRate == sampleRate)
        #expect(audio.samples.count == 30 * sampleRate)
        let found = onsets(audio.samples)
        let framesPerBeat = Double(sampleRate) * 60 / 97.3
        #expect(found.count == Int((Double(30 * sampleRate) / framesPerBeat).rounded(.up)))
        for (n, f) in found.enumerated() { #expect(abs(Double(f) - Double(n) * framesPerBeat) <= 0.5) }
        // The log: Start and clock on frame 0, clocks on the grid, Stop and Song Position at the end.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["0 FA start", "0 F8 clock"])
        let clocks = lines.filter { $0.hasSuffix(" F8 clock") }.map { Int($0.split(separator: " ")[0])! }
        #expect(clocks.count == Int((Double(30 * sampleRate) / (framesPerBeat / 24) - 0.5).rounded(.up)))
        for (n, f) in clocks.enumerated() { #expect(abs(Double(f) - Double(n) * framesPerBeat / 24) <= 0.5) }
        let spp = clocks.count / 6
        #expect(lines.suffix(2) == ["\(30 * sampleRate) FC stop", "\(30 * sampleRate) F2 \(hex(spp & 0x7F)) \(hex(spp >> 7)) song-position \(spp)"])
        // 16-bit: the accent's first sample is its peak, 0.9 (the synthesiser's level) in 16 bits.
        #expect(abs(audio.samples[found[0]] - 0.9) < 1.0 / 32_768 + 1e-6)
    }

    func hex(_ v: Int) -> String { (v < 16 ? "0" : "") + String(v, radix: 16, uppercase: true) }

    @Test func gainAndFormatReachTheFile() throws {
        let wav = temporary("quiet.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "1", "--gain", "-6", "--format", "float"])
        #expect(r.status == 0)
        let audio = try WAVReader.read(path: wav)
        // -6 dB = 0.501187…; the accent peaks at 0.9.
        #expect(abs(audio.samples[0] - 0.9 * 0.501_187_2) < 1e-5)
    }

    @Test func aUserSampleReplacesTheAccent() throws {
        let sample = temporary("accent.wav"), wav = temporary("out.wav")
        defer { try? FileManager.default.removeItem(atPath: sample); try? FileManager.default.removeItem(atPath: wav) }
        do {
            let writer = try WAVWriter(path: sample, sampleRate: 48_000, format: .float)
            let impulse: [Float] = [0.25, -0.25, 0.125]
            try writer.write(impulse, frames: 3)
        } // closed here, when the writer is released
        let r = try TactusProcess.run(["render", wav, "--seconds", "1", "--format", "float", "--sample-accent", sample])
        #expect(r.status == 0, "\(r.standardError)")
        let audio = try WAVReader.read(path: wav)
        #expect(Array(audio.samples.prefix(4)) == [0.25, -0.25, 0.125, 0])
    }

    /// A preset's samples (relative to its file), gains and clock offset are what
    /// `--preset` starts with; `--sample-*` and `--clock-offset` given still win.
    @Test func aPresetsSamplesGainsAndClockOffsetReachTheFileAndTheCommandLineWins() throws {
        let folder = temporary("preset")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func impulse(_ name: String, _ values: [Float]) throws {
            let writer = try WAVWriter(path: folder + "/" + name, sampleRate: 48_000, format: .float)
            try writer.write(values, frames: values.count)
        }
        try impulse("acc.wav", [0.25, -0.25, 0.125])
        try impulse("other.wav", [0.75])
        let preset = folder + "/sampled.json"
        try #"{ "format": 1, "name": "Sampled", "tempo": 120, "sounds": { "accent": { "sample": "acc.wav", "gain": 0.5 } }, "clock": { "offsetMs": 10 } }"#
            .write(toFile: preset, atomically: true, encoding: .utf8)
        let wav = folder + "/out.wav", log = folder + "/midi.log"
        let r = try TactusProcess.run(["render", wav, "--seconds", "1", "--format", "float", "--preset", preset, "--midi-log", log])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(Array(try WAVReader.read(path: wav).samples.prefix(4)) == [0.125, -0.125, 0.0625, 0])
        // 10 ms at 48 kHz: Start and the first clock 480 frames after the first click.
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").prefix(3) == ["480 FA start", "480 F8 clock", "1480 F8 clock"])

        let r2 = try TactusProcess.run(["render", wav, "--seconds", "1", "--format", "float", "--preset", preset, "--midi-log", log,
                                        "--sample-accent", folder + "/other.wav", "--clock-offset", "0"])
        #expect(r2.status == 0, "\(r2.standardError)")
        #expect(Array(try WAVReader.read(path: wav).samples.prefix(2)) == [0.375, 0], "the command line's sample at the preset's gain")
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").prefix(2) == ["0 FA start", "0 F8 clock"])
    }

    @Test func aPresetSampleThatIsNotAWAVFileIsNamedByItsFieldAtStart() throws {
        let folder = temporary("broken")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "junk".write(toFile: folder + "/bad.wav", atomically: true, encoding: .utf8)
        try #"{ "format": 1, "name": "Broken", "tempo": 90, "sounds": { "beat": { "sample": "bad.wav" } } }"#
            .write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
        let r = try TactusProcess.run(["render", folder + "/out.wav", "--seconds", "1", "--preset", folder + "/broken.json"])
        #expect(r.status == 2)
        #expect(r.standardError.hasPrefix("tactus: \(folder)/broken.json: sounds.beat.sample: cannot read '\(folder)/bad.wav': "), "\(r.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.wav"))
    }

    @Test func aMissingSampleFileIsNamed() throws {
        let r = try TactusProcess.run(["render", temporary("x.wav"), "--seconds", "1", "--sample-beat", "/nonexistent/beat.wav"])
        #expect(r.status == 2)
        #expect(r.standardError.hasPrefix("tactus: --sample-beat: cannot read '/nonexistent/beat.wav': "))
    }
}
