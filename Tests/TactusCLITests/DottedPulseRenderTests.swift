import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `--pulse dotted`: 6/8, 9/8 and 12/8 clicked on the dotted quarter, the
/// eighths between as subdivisions, each at its exact frame. One-sample
/// impulses tell the sounds apart: accent 0.5, beat 0.25, subdivision 0.125.
@Suite("--pulse dotted")
struct DottedPulseRenderTests {
    func render(_ arguments: [String]) throws -> [Float] {
        let folder = NSTemporaryDirectory() + "tactus-dotted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, value) in [("accent", Float(0.5)), ("beat", 0.25), ("subdivision", 0.125)] {
            let writer = try WAVWriter(path: folder + "/\(name).wav", sampleRate: 48_000, format: .float)
            try writer.write([value], frames: 1)
        }
        let wav = folder + "/out.wav"
        let r = try TactusProcess.run(["render", wav, "--format", "float", "--sample-accent", folder + "/accent.wav",
                                       "--sample-beat", folder + "/beat.wav", "--sample-subdivision", folder + "/subdivision.wav"] + arguments)
        #expect(r.status == 0, "\(r.standardError)")
        return try WAVReader.read(path: wav).samples
    }

    /// The nonzero samples as (frame, value).
    func clicks(_ samples: [Float]) -> [(Int, Float)] { samples.enumerated().filter { $0.element != 0 }.map { ($0.offset, $0.element) } }

    @Test("Two bars at 120 eighths a minute: 24 000 frames an eighth, the beat sound every third eighth", arguments: [6, 9, 12])
    func compoundMeters(beats: Int) throws {
        let seconds = beats  // two bars of N eighths at 2 a second
        let got = clicks(try render(["--meter", "\(beats)/8", "--bpm", "120", "--pulse", "dotted", "--seconds", "\(seconds)"]))
        let bar: [Float] = (0..<beats).map { $0 == 0 ? 0.5 : $0 % 3 == 0 ? 0.25 : 0.125 }
        let expected = (0..<2 * beats).map { ($0 * 24_000, bar[$0 % beats]) }
        #expect(got.map(\.0) == expected.map(\.0))
        #expect(got.map(\.1) == expected.map(\.1))
    }

    @Test func theBeatPulseAndSimpleMetersAreUnchanged() throws {
        let beatPulse = clicks(try render(["--meter", "6/8", "--bpm", "120", "--seconds", "3"]))
        #expect(beatPulse.map(\.1) == [0.5, 0.25, 0.25, 0.25, 0.25, 0.25])
        let threeFour = clicks(try render(["--meter", "3/4", "--bpm", "120", "--pulse", "dotted", "--seconds", "1.5"]))
        #expect(threeFour.map(\.0) == [0, 24_000, 48_000] && threeFour.map(\.1) == [0.5, 0.25, 0.25])
        // A silent eighth stays silent, its own subdivision too (a rest as long as it); the others' sound between.
        let silent = clicks(try render(["--meter", "6/8", "--bpm", "120", "--pulse", "dotted", "--accents", "X.xx.x", "--subdivision", "eighths", "--seconds", "3"]))
        #expect(silent.map(\.0) == [0, 12_000, 48_000, 60_000, 72_000, 84_000, 120_000, 132_000])
        #expect(silent.map(\.1) == [0.5, 0.125, 0.125, 0.125, 0.25, 0.125, 0.125, 0.125])
    }
}
