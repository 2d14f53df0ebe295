import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// One rule for a silent beat (`.` in the pattern): a rest as long as the beat,
/// its subdivisions silent too; the clock and the beat count go on.
@Suite("Silent beats and their subdivisions")
struct SilentBeatRenderTests {
    @Test func aSilentBeatSilencesItsSubdivisionsStraightAndSwung() throws {
        for (words, expected) in [
            // 120 BPM, 24 000 frames a beat; triplets every 8 000 frames, beats 2 and 4 silent.
            (["-a", "X.x.", "-d", "triplets"], [0, 8_000, 16_000, 48_000, 56_000, 64_000]),
            (["-a", "X.x.", "-d", "sixteenths"], [0, 6_000, 12_000, 18_000, 48_000, 54_000, 60_000, 66_000]),
            // Swung eighths at 2/3: the off-beat 16 000 frames into a heard beat only.
            (["-a", "X.x.", "-d", "eighths", "--swing", "0.6667"], [0, 16_001, 48_000, 64_001]),
            // Every beat heard: every subdivision heard.
            (["-a", "Xxxx", "-d", "eighths"], Array(stride(from: 0, to: 96_000, by: 12_000))),
        ] {
            let wav = NSTemporaryDirectory() + "tactus-silent-\(UUID().uuidString).wav"
            defer { try? FileManager.default.removeItem(atPath: wav) }
            let r = try TactusProcess.run(["render", wav, "--seconds", "2", "--bpm", "120"] + words)
            #expect(r.status == 0, "\(r.standardError)")
            #expect(clickOnsets(try WAVReader.read(path: wav).samples) == expected, "\(words)")
        }
    }
}
