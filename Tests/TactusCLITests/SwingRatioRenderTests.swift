import Testing
@testable import TactusCLI
import TactusCore

/// `--swing RATIO`: the off-beat eighth at RATIO of its beat, rounded to the
/// frame from the beat's two exact frames, so nothing drifts from beat to beat.
/// The impulse samples are `DottedPulseRenderTests`': beat 0.25, subdivision 0.125.
@Suite("--swing RATIO")
struct SwingRatioRenderTests {
    let render = DottedPulseRenderTests()

    @Test func at120BPMTheOffBeatIsAtTheRatioOf24000Frames() throws {
        let got = render.clicks(try render.render(["--bpm", "120", "--swing", "0.58", "--seconds", "2"]))
        #expect(got.map(\.0) == [0, 13_920, 24_000, 37_920, 48_000, 61_920, 72_000, 85_920])
        #expect(got.map(\.1) == [0.5, 0.125, 0.25, 0.125, 0.25, 0.125, 0.25, 0.125])
        // 2/3 is the triplet shuffle, `--subdivision swing`, to the frame.
        let shuffle = render.clicks(try render.render(["--bpm", "120", "--subdivision", "swing", "--seconds", "2"]))
        #expect(render.clicks(try render.render(["--bpm", "120", "--swing", "0.6666666666666666", "--seconds", "2"])).map(\.0) == shuffle.map(\.0))
    }

    @Test func atAnUnevenTempoEachOffBeatIsRoundedFromItsOwnBeat() throws {
        // 97.3 BPM: 29 599.178… frames a beat; a minute of it.
        let got = render.clicks(try render.render(["--bpm", "97.3", "--swing", "0.7", "--seconds", "60"]))
        let beats = got.filter { $0.1 != 0.125 }.map(\.0)
        let offBeats = got.filter { $0.1 == 0.125 }.map(\.0)
        let framesPerBeat = 48_000.0 * 60 / 97.3
        // The 98th beat's off-beat falls after the minute.
        #expect(beats.count == 98 && offBeats.count == 97)
        #expect(beats == (0..<98).map { Int((Double($0) * framesPerBeat).rounded()) })
        var expected: [Int] = []
        for n in 0..<97 {
            let start = Int((Double(n) * framesPerBeat).rounded()), end = Int((Double(n + 1) * framesPerBeat).rounded())
            expected.append(start + Int((0.7 * Double(end - start)).rounded()))
        }
        #expect(offBeats == expected)
    }

    @Test func theRatioIsCheckedAndSwingsOnlyEighths() throws {
        #expect(try OptionParser.parse(["--swing", "0.58"]).barSettings() == {
            var b = BarSettings(subdivision: .eighths); b.swingRatio = 0.58; return b
        }())
        #expect(throws: OptionError("tactus: --swing '0.8' is not valid: a ratio from 0.5 to 0.75 (e.g. 0.58)")) { try OptionParser.parse(["--swing", "0.8"]) }
        #expect(throws: OptionError("tactus: --swing swings eighths: it does not go with --subdivision triplets")) {
            try OptionParser.parse(["--swing", "0.6", "--subdivision", "triplets"]).barSettings()
        }
    }
}
