import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// klick's speed trainer exactly as klick users type it, `80-120/10`: 80 BPM,
/// one BPM faster every 10 bars, rendered after a bar of count-in, click by
/// click and clock tick by clock tick.
@Suite("Speed trainer 80-120/10, klick's form")
struct TrainerKlickFormRenderTests {
    static let rate = 48_000.0

    @Test("80-120/10 is the trainer 80 to 120, a BPM every 10 bars, whether typed bare or after --trainer")
    func theBareFormIsTheTrainer() throws {
        let bare = try OptionParser.parse(["80-120/10"]).trainer
        #expect(bare == SpeedTrainer(from: BPM(80), to: BPM(120), bars: 10, stepHundredths: 100))
        #expect(bare == (try OptionParser.parse(["--trainer", "80-120/10"]).trainer))
    }

    @Test("80-120/10 rendered: 10 bars at each of 80, 81, 82, 83, every step on a bar line, 24 ticks a beat at each tempo")
    func tenBarsATempo() throws {
        let folder = NSTemporaryDirectory() + "tactus-trainer-klick-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A bar of count-in (3 s at 80) and 40 bars (30 + 29.63 + 29.27 + 28.92 s): 126 s holds them and bar 41's downbeat.
        let r = try TactusProcess.run(["render", folder + "/t.wav", "--format", "float", "--seconds", "126", "--trainer", "80-120/10",
                                       "--count-in", "1", "--midi-log", folder + "/t.log"])
        try #require(r.status == 0, "\(r.standardError)")
        let clicks = clickOnsets(try WAVReader.read(path: folder + "/t.wav").samples)
        let log = try String(contentsOfFile: folder + "/t.log", encoding: .utf8).split(separator: "\n")
        let ticks = log.filter { $0.hasSuffix("F8 clock") }.compactMap { Int($0.split(separator: " ")[0]) }
        let start = try #require(log.first { $0.hasSuffix("FA start") }.flatMap { Int($0.split(separator: " ")[0]) })

        // The count-in: 4 beats at 80 (36 000 frames each), no clock; Start and the first tick on the 5th click.
        #expect(clicks.prefix(5) == [0, 36_000, 72_000, 108_000, 144_000])
        #expect(start == 144_000 && ticks.first == 144_000)
        try #require(clicks.count >= 4 + 160 + 2 && ticks.count >= 40 * 96 + 1, "\(clicks.count) clicks, \(ticks.count) ticks")
        var line = 144_000.0
        for bar in 0..<40 {
            let tempo = 80.0 + Double(bar / 10)
            let beat = Self.rate * 60 / tempo
            let first = clicks[4 + bar * 4]
            // Each bar line within a frame of the exact sum of the bars before it.
            #expect(abs(Double(first) - line) <= 1, "bar \(bar + 1) starts at \(first), exactly \(line)")
            // The bar's beats and its 96 ticks on the bar's own tempo, from its first click: the interval changes on the bar line.
            for k in 1...4 {
                #expect(abs(Double(clicks[4 + bar * 4 + k] - first) - Double(k) * beat) <= 1, "bar \(bar + 1) beat \(k + 1) at \(tempo)")
            }
            #expect(ticks[bar * 96] == first, "bar \(bar + 1): its first tick is not on its first click")
            for k in 1...96 {
                #expect(abs(Double(ticks[bar * 96 + k] - first) - Double(k) * beat / 24) <= 1, "bar \(bar + 1) tick \(k) at \(tempo)")
            }
            line += 4 * beat
        }
        // Bar 41 plays at 84: its first beat lasts 60 / 84 s.
        #expect(abs(Double(clicks[4 + 160 + 1] - clicks[4 + 160]) - Self.rate * 60 / 84) <= 1)
    }
}
