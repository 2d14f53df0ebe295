import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// Locates of a rolling transport onto a bar line and just before it, in
/// `--transport join` and `master`, through the real JACK cycle and the
/// control thread's real transport round on the simulated process loop. The
/// live tier keeps one locate per mode on a real jackd (`JackTransport`'s
/// join and master tests); this is where no beat may be lost, to the frame.
@Suite struct SimulatedLocateTests {
    /// Join and master at 120 BPM (a bar is 96 000 frames), started at once
    /// (Tactus's start locates the transport to 0 and starts it): 2 s in, a
    /// locate landing exactly on bar 5's line (384 000), 2.5 s later one 100
    /// frames before it (383 900: within a period before that beat, in bar 4,
    /// the bar the frame is in). Each is answered with Stop, Song Position (64,
    /// then 48) and Continue, on the first frame of the cycle after jack2's held
    /// one, and the bar's downbeat is not lost: its accent and its clock tick on
    /// the Continue's frame, beat 2 exactly 24 000 frames on. Between the
    /// relocations every beat exactly 24 000 frames after the last with 24
    /// clock ticks between, none lost or doubled. In master the BBT published
    /// for the Continue's cycle is beat 1 tick 0 of that bar, and every click of
    /// a rolling cycle lies within ±0.5 frame of where its cycle's BBT puts its
    /// beat (the live bound, there ±1 frame between beats for the server's jitter).
    @Test(arguments: [JackTransportMode.join, .master])
    func aLocateOntoABarLineOrWithinAPeriodBeforeItLosesNoBeat(mode: JackTransportMode) throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120))
        let loop = try SimulatedProcessLoop(options: options, mode: mode)
        loop.run(cycles: 375)
        loop.transport.locate(384_000)
        loop.run(cycles: 469)
        loop.transport.locate(383_900)
        loop.run(cycles: 375)

        let midi = loop.transportMessages
        #expect(midi.map(\.bytes) == [[0xFA], [0xFC], [0xF2, 64, 0], [0xFB], [0xFC], [0xF2, 48, 0], [0xFB]], "\(midi.map(\.bytes))")
        guard midi.count == 7 else { return }
        let continues = [midi[3].jackFrame, midi[6].jackFrame]
        let ticks = Set(loop.ticks)
        for (c, (target, bar)) in zip(continues, [(UInt32(384_000), 5), (383_900, 4)]) {
            let held = loop.cycles.first { $0.state.rawValue == JackTransportStarting.rawValue && $0.transportFrame == target
                && Int32(bitPattern: c &- $0.jackFrame) > 0 }
            #expect(held.map { $0.jackFrame &+ 256 } == c, "bar \(bar)'s Continue at \(c), held cycle \(held.map { "\($0.jackFrame)" } ?? "none")")
            #expect(loop.onsets.contains { $0.jackFrame == c && $0.accent }, "bar \(bar)'s downbeat at the Continue \(c)")
            #expect(ticks.contains(c), "its clock tick at \(c)")
            #expect(loop.onsets.contains { $0.jackFrame == c &+ 24_000 && !$0.accent }, "beat 2 after \(c)")
            if mode == .master {
                let p = loop.published.first { $0.jackFrame == c }?.position
                #expect(p.map { [$0.bar, $0.beat] } == [Int32(bar), 1] && p?.tick_double == 0, "the cycle of the Continue: \(String(describing: p))")
            }
        }
        var checked = 0, wrong: [String] = []
        for (a, b) in zip(loop.onsets, loop.onsets.dropFirst()) where !continues.contains(b.jackFrame) {
            checked += 1
            let between = loop.ticks.filter { Int32(bitPattern: $0 &- a.jackFrame) >= 0 && Int32(bitPattern: b.jackFrame &- $0) > 0 }.count
            if b.jackFrame &- a.jackFrame != 24_000 || between != 24 { wrong.append("\(a.jackFrame) → \(b.jackFrame): \(between) ticks") }
        }
        print("simulated \(mode.rawValue), locates onto and just before bar 5: Continues at \(continues), \(checked) beats checked, \(wrong.count) wrong")
        #expect(checked >= 12 && wrong.isEmpty, "\(wrong)")
        if mode == .master {
            // Each click of a rolling cycle against the BBT published for that cycle.
            let framesPerBeat = 48_000.0 * 60 / 120
            var measured = 0, off: [String] = []
            for o in loop.onsets {
                guard let cycle = loop.cycles.last(where: { Int32(bitPattern: o.jackFrame &- $0.jackFrame) >= 0 }),
                      cycle.state.rawValue == JackTransportRolling.rawValue,
                      let p = loop.published.first(where: { $0.jackFrame == cycle.jackFrame })?.position else { continue }
                let beat = Double(cycle.jackFrame) - p.tick_double / 1920 * framesPerBeat
                let error = [beat, beat + framesPerBeat].map { Double(o.jackFrame) - $0 }.min { abs($0) < abs($1) }!
                measured += 1
                if abs(error) > 0.5 { off.append("\(o.jackFrame): \(error)") }
            }
            #expect(measured >= 12 && off.isEmpty, "\(measured) clicks measured: \(off)")
        }
    }
}
