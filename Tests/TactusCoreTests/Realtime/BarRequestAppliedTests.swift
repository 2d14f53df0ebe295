import Testing
@testable import TactusCore

/// The control thread learns that a bar change it asked for is heard from the
/// number the engine publishes when it applies it (`EngineStatus.barRequestApplied`),
/// not from a count of changes, which a time source's meter change also moved.
@Suite struct BarRequestAppliedTests {
    /// 120 BPM from frame 0, a bar of 4/4 every 96 000 frames.
    func rolling() -> EngineHarness {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        h.send(.start)
        h.run(frames: 30_000, block: 256)
        return h
    }

    @Test func aBarChangeIsAppliedOnItsBarLineWithTheNumberItWasPushedWith() {
        let h = rolling()
        let pushed = [h.control.pointee.pushBarChange(BarSettings(meter: Meter("3/4")!), tempo: nil, at: .nextBar),
                      h.control.pointee.pushBarChange(BarSettings(meter: Meter("5/4")!), tempo: nil, at: .nextBar)]
        let numbered = h.control.pointee.barRequestsPushed.load(ordering: .relaxed)
        #expect(pushed == [true, true] && numbered == 2)
        // Up to the block before the one holding bar 2's last clock tick (95 000):
        // the second overtook the first, neither taken. The engine takes a change
        // when its grid reaches the line's pulse, a grid point ahead (a clock
        // tick at most before the line sounds), and publishes its number there.
        h.run(frames: 94_976 - 30_080, block: 256)
        let before = h.control.pointee.status.barRequestApplied.load(ordering: .relaxed)
        h.run(frames: 96_256 - 94_976, block: 256)
        let after = h.control.pointee.status.barRequestApplied.load(ordering: .relaxed)
        print("bar request applied: \(before) before bar 2's line, \(after) after it; beats a bar \(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed))")
        #expect(before == 0 && after == 2)
        #expect(h.control.pointee.status.beatsPerBar.load(ordering: .relaxed) == 5)
    }

    @Test func aTimeSourcesMeterChangeIsNoRequestApplied() {
        let h = rolling()
        let pushed = h.control.pointee.pushBarChange(BarSettings(meter: Meter("3/4")!), tempo: nil, at: .nextBar)
        #expect(pushed)
        // A source (an LV2 host, a JACK master) rolling at 120 BPM whose bars turn 7/8 from its song's start.
        h.source = { frame in TimelinePosition(rolling: true, songPulse: Double(frame) / 250, framesPerPulse: 250,
                                               bar: SourceBar(songPulse: 0, number: 1, meter: Meter("7/8")!)) }
        h.owner = .tempoAndTransport
        h.run(frames: 20_000, block: 256)
        let meter = h.control.pointee.status.beatsPerBar.load(ordering: .relaxed)
        let applied = h.control.pointee.status.barRequestApplied.load(ordering: .relaxed)
        print("a source's 7/8: beats a bar \(meter), bar request applied \(applied)")
        #expect(meter == 7)
        #expect(applied == 0)
    }

    @Test func aChangePushedWhileStoppedIsAppliedAtOnce() {
        let h = EngineHarness(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120)))
        let pushed = h.control.pointee.pushBarChange(BarSettings(meter: Meter("6/8")!), tempo: nil, at: .nextBar)
        h.run(frames: 256, block: 256)
        let applied = h.control.pointee.status.barRequestApplied.load(ordering: .relaxed)
        #expect(pushed && applied == 1)
    }
}
