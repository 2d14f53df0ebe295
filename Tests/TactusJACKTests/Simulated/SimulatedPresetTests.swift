import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// A preset switch through the real JACK cycle on the simulated process loop:
/// the control session's command for it (`EngineCommand.changeBar` at the
/// next bar line, with the preset's tempo and sounds) pushed mid-bar, as a
/// Program Change makes it, with Tactus as timebase master.
@Suite struct SimulatedPresetTests {
    /// 120 BPM 4/4, then a preset of 150 BPM 3/4 with sounds of its own asked
    /// for 2.7 s in (bar 2, beat 2): the old bar plays to its end with the old
    /// sounds (clicks 24 000 frames apart, accents 1), and from the bar line at
    /// 192 000 frames (bar 3) the preset's: clicks 19 200 frames apart, its
    /// accent (0.75) on every third, its beat (0.375) between; the clock 1000
    /// frames a tick up to the bar line and 800 from it. The song started on a
    /// cycle's first frame, so the bar line is one too: the BBT published for
    /// that cycle is bar 3 beat 1 tick 0 at 150 BPM 3/4, and so is every
    /// cycle's tempo and meter after it, and 120 BPM 4/4 every cycle's before.
    @Test func aPresetTakesEffectAtTheNextBarLineWithItsTempoMeterAndSounds() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120))
        let loop = try SimulatedProcessLoop(options: options, mode: .master)
        loop.run(cycles: 5)
        guard let song = loop.onsets.first?.engineFrame else { Issue.record("no click"); return }
        while loop.context.pointee.endFrame < song + 130_000 { loop.cycle() }
        let sounds = SoundSet(sampleRate: 48000) { [$0 == .accent ? 0.75 : $0 == .beat ? 0.375 : 0.125] }
        loop.push(.changeBar(BarSettings(meter: Meter(beatsPerBar: 3, beatUnit: 4)!), tempo: BPM(150), at: .nextBar, sounds: sounds))
        loop.run(cycles: 750)

        let clicks = loop.onsets.map { (frame: $0.engineFrame - song, value: $0.value) }
        var expected: [(frame: Int64, value: Float)] = []
        for k in 0..<8 { expected.append((Int64(k) * 24_000, k % 4 == 0 ? 1 : 0.5)) }
        for k in 0..<max(0, clicks.count - 8) { expected.append((192_000 + Int64(k) * 19_200, k % 3 == 0 ? 0.75 : 0.375)) }
        let wrong = zip(clicks, expected).filter { $0.0.frame != $0.1.frame || $0.0.value != $0.1.value }
        let ticks = loop.tickFrames.map { $0 - song }
        let line = ticks.firstIndex(of: 192_000)
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        let published = loop.published.map { (frame: $0.engineFrame - song, p: $0.position) }
        let before = published.filter { $0.frame > 0 && $0.frame < 192_000 }
        let after = published.filter { $0.frame >= 192_000 }
        print("simulated preset switch: \(clicks.count) clicks, \(wrong.count) off; ticks \(line.map { "\(gaps[..<$0].allSatisfy { $0 == 1000 } ? 1000 : -1) then \(gaps[$0...].allSatisfy { $0 == 800 } ? 800 : -1)" } ?? "no tick on the bar line") frames apart; first BBT after the line \(after.first.map { "\($0.p.bar).\($0.p.beat).\($0.p.tick) \($0.p.beats_per_minute) \($0.p.beats_per_bar)/\($0.p.beat_type)" } ?? "none")")
        #expect(clicks.count == 15 && wrong.isEmpty, "\(wrong.prefix(4))")
        #expect(line.map { gaps[..<$0].allSatisfy { $0 == 1000 } && gaps[$0...].allSatisfy { $0 == 800 } } == true)
        #expect(before.count > 700 && before.allSatisfy { $0.p.beats_per_minute == 120 && $0.p.beats_per_bar == 4 },
                "\(before.filter { $0.p.beats_per_minute != 120 || $0.p.beats_per_bar != 4 }.map { "\($0.frame): \($0.p.bar).\($0.p.beat).\($0.p.tick_double) \($0.p.beats_per_minute)" })")
        #expect(after.count > 300 && after.allSatisfy { $0.p.beats_per_minute == 150 && $0.p.beats_per_bar == 3 })
        #expect(after.first.map { ($0.frame, $0.p.bar, $0.p.beat, $0.p.tick_double) == (192_000, 3, 1, 0) } == true)
    }
}
