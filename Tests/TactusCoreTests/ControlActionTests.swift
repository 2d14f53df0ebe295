import Testing
@testable import TactusCore

@Suite("MIDI actions: a Note or a Control Change on the control channel pressed once, at its own time stamp")
struct ControlActionTests {
    let ch1 = LoopHarness.ch1
    let pedal = UInt7(64)!

    func actions(_ h: LoopHarness) -> [String] {
        h.reports.compactMap { if case .action(let a, let t, let trigger) = $0 { "\(a.rawValue) \(trigger) at \(t)" } else { nil } }
    }

    func cc(_ value: Int, channel: MIDIChannel? = nil) -> MIDIMessage {
        .controlChange(channel: channel ?? ch1, controller: pedal, value: UInt7(value)!)
    }

    @Test func aPedalIsPressedAt64AndAboveOnceUntilReleasedAndReportedAtItsStamp() {
        let h = LoopHarness()
        h.loop.actions = ActionMap([ActionBinding(.controlChange(pedal), .tap)])
        // A half-pedal's stream of values above 64 is one press; 63 releases it.
        for (value, at) in [(127, 0.5), (100, 0.55), (64, 0.56), (63, 0.6), (0, 0.7), (64, 1.0)] { h.push(cc(value), at: at) }
        // Seen late, in one poll: the stamps, not 1.3 s, are the times reported.
        h.poll(at: 1.3)
        #expect(actions(h) == ["tap CC 64 at 0.500000 s", "tap CC 64 at 1.000000 s"])
        #expect(h.engineTempo == 120, "a bound message never reaches the pressure controller")
    }

    @Test func anInvertedPedalIsPressedBelow64() {
        let h = LoopHarness()
        h.loop.actions = ActionMap([ActionBinding(.controlChange(pedal), .startStop, invert: true)])
        // At rest it sends 127; pressed, 0.
        for (value, at) in [(127, 0.1), (0, 0.5), (30, 0.52), (127, 0.9), (0, 1.5)] { h.push(cc(value), at: at) }
        h.poll(at: 2)
        #expect(actions(h) == ["startStop CC 64 at 0.500000 s", "startStop CC 64 at 1.500000 s"])
    }

    @Test func aNoteBindingFiresOnNoteOnAndOtherNotesStillReachTheController() {
        let h = LoopHarness()
        let pad = UInt7(36)!
        h.loop.actions = ActionMap([ActionBinding(.note(pad), .nextPreset)])
        h.push(.noteOn(channel: ch1, note: pad, velocity: UInt7(90)!), at: 0.1)
        h.push(.noteOn(channel: ch1, note: pad, velocity: .zero), at: 0.2)
        h.push(.noteOn(channel: ch1, note: pad, velocity: UInt7(90)!), at: 0.3)
        h.push(.noteOff(channel: ch1, note: pad, velocity: .zero), at: 0.4)
        // The up key is not bound: its tap still moves the tempo by 1.
        h.push(.noteOn(channel: ch1, note: UInt7(72)!, velocity: UInt7(90)!), at: 0.5)
        h.push(.noteOff(channel: ch1, note: UInt7(72)!, velocity: .zero), at: 0.55)
        h.poll(at: 1)
        #expect(actions(h) == ["nextPreset note 36 at 0.100000 s", "nextPreset note 36 at 0.300000 s"])
        #expect(h.engineTempo == 121)
    }

    @Test func onlyTheControlChannelIsListenedTo() {
        var configuration = PressureConfiguration()
        configuration.channel = MIDIChannel(number: 1)
        let h = LoopHarness(configuration: configuration)
        h.loop.actions = ActionMap([ActionBinding(.controlChange(pedal), .tap)])
        h.push(cc(127, channel: MIDIChannel(number: 2)!), at: 0.1)
        h.push(cc(127), at: 0.2)
        h.poll(at: 1)
        #expect(actions(h) == ["tap CC 64 at 0.200000 s"])
    }

    @Test func learnTakesTheFirstPressAndSeesAnInvertedPedal() {
        let tap = ControlAction.tap
        #expect(ActionBinding.learned(from: cc(127), action: tap) == ActionBinding(.controlChange(pedal), tap))
        #expect(ActionBinding.learned(from: cc(0), action: tap) == ActionBinding(.controlChange(pedal), tap, invert: true))
        #expect(ActionBinding.learned(from: .noteOn(channel: ch1, note: UInt7(60)!, velocity: UInt7(1)!), action: tap) == ActionBinding(.note(UInt7(60)!), tap))
        #expect(ActionBinding.learned(from: .noteOn(channel: ch1, note: UInt7(60)!, velocity: .zero), action: tap) == nil)
        #expect(ActionBinding.learned(from: .channelPressure(channel: ch1, pressure: UInt7(9)!), action: tap) == nil)
    }
}
