import Testing
@testable import TactusCore

@Suite("MIDI learn: control keys and pressure calibration from scripted MIDI")
struct MIDILearnTests {
    let ch1 = MIDIChannel(number: 1)!
    let ch3 = MIDIChannel(number: 3)!

    func on(_ note: Int, _ channel: MIDIChannel? = nil) -> MIDIMessage {
        .noteOn(channel: channel ?? ch1, note: UInt7(note)!, velocity: UInt7(90)!)
    }
    func off(_ note: Int, _ channel: MIDIChannel? = nil) -> MIDIMessage {
        .noteOff(channel: channel ?? ch1, note: UInt7(note)!, velocity: .zero)
    }
    func pressure(_ values: [Int], _ channel: MIDIChannel? = nil) -> [MIDIMessage] {
        values.map { .channelPressure(channel: channel ?? ch1, pressure: UInt7($0)!) }
    }

    func run(_ script: [MIDIMessage], learn: inout MIDILearn) -> [String] {
        script.flatMap { learn.handle($0) }
    }

    @Test func learnsUp60Down59Preset57DeadZone2AndMaximum112() {
        var learn = MIDILearn()
        #expect(learn.prompt == "Press the key for UP (faster).")
        let lines = run([on(60), off(60), on(59), off(59), on(57), off(57),
                         on(60)] + pressure([1, 2, 1, 0]) + [off(60),
                         on(60)] + pressure([20, 80, 112, 110, 40, 0]) + [off(60)], learn: &learn)
        #expect(learn.step == .done)
        #expect(learn.result == ControllerSettings(channel: ch1, upKey: UInt7(60)!, downKey: UInt7(59)!, presetKey: UInt7(57)!,
                                                   calibration: .init(deadZone: 2, maximum: 112, curve: .linear)))
        #expect(lines == [
            "up: 60 (C4) on channel 1", "Press the key for DOWN (slower).",
            "down: 59 (B3) on channel 1", "Press the key for PRESET (next preset).",
            "preset: 57 (A3) on channel 1", "Rest a finger on the UP key without pressing, then let go.",
            "resting touch: 2 (dead zone)", "Press the UP key as hard as you can, then let go.",
            "hardest press: 112 (maximum)",
        ])
        #expect(learn.result!.summary == [
            "up key:     60 (C4)", "down key:   59 (B3)", "preset key: 57 (A3)", "channel:    1",
            "pressure:   dead zone 2, maximum 112, curve linear",
        ])
    }

    @Test func aKeyAlreadyTakenIsRefused() {
        var learn = MIDILearn()
        _ = run([on(72), off(72)], learn: &learn)
        #expect(run([on(72)], learn: &learn) == ["That is the up key; press another key for DOWN."])
        #expect(learn.step == .downKey)
        _ = run([on(71)], learn: &learn)
        #expect(run([on(71)], learn: &learn) == ["That key is taken (up 72, down 71); press another key for PRESET."])
        #expect(learn.step == .presetKey)
    }

    @Test func keysOnDifferentChannelsAreStoredAsOmni() {
        var learn = MIDILearn()
        _ = run([on(72), on(71, ch3), on(70), on(72), off(72)]
                + [on(72)] + pressure([100]) + [off(72)], learn: &learn)
        #expect(learn.result?.channel == nil)
        #expect(learn.result?.summary[3] == "channel:    omni (any)")
    }

    @Test func aHardPressWithNoPressureMeansNoAftertouch() {
        var learn = MIDILearn()
        let lines = run([on(72), on(71), on(70), on(72), off(72), on(72), off(72)], learn: &learn)
        #expect(learn.step == .done)
        #expect(learn.result?.hasAftertouch == false)
        #expect(learn.result?.calibration == .init(deadZone: 0, maximum: 127, curve: .linear))
        #expect(lines.last == "no pressure received: this controller sends no aftertouch on this key; holding a control key will work as a long press")
    }

    @Test func aRestingTouchAbove31IsAskedAgain() {
        var learn = MIDILearn()
        _ = run([on(72), on(71), on(70)], learn: &learn)
        #expect(run([on(72)] + pressure([32]) + [off(72)], learn: &learn) == ["That touch read 32: too hard for a resting finger. Try again, lighter."])
        #expect(learn.step == .restingTouch)
        _ = run([on(72)] + pressure([5]) + [off(72)], learn: &learn)
        #expect(learn.step == .hardPress)
        // A "hard" press of 20 with dead zone 5 leaves less than 16 of range: again.
        #expect(run([on(72)] + pressure([20]) + [off(72)], learn: &learn) == ["The hardest press read only 20 (dead zone 5). Press harder and try again."])
        _ = run([on(72)] + pressure([127]) + [off(72)], learn: &learn)
        #expect(learn.result?.calibration == .init(deadZone: 5, maximum: 127, curve: .linear))
    }

    @Test func pressureFromOtherChannelsAndOtherKeysIsNotMeasured() {
        var learn = MIDILearn()
        _ = run([on(72), on(71), on(70), on(72), off(72)], learn: &learn)
        _ = run([on(72)] + pressure([127], ch3)
                + [.polyPressure(channel: ch1, note: UInt7(40)!, pressure: UInt7(126)!),
                   .polyPressure(channel: ch1, note: UInt7(72)!, pressure: UInt7(99)!), off(72)], learn: &learn)
        #expect(learn.result?.calibration.maximum == 99)
    }

    @Test func otherKeysDuringMeasurementAreIgnoredWithAHint() {
        var learn = MIDILearn()
        _ = run([on(72), on(71), on(70)], learn: &learn)
        #expect(run([on(60)], learn: &learn) == ["Use the UP key (72) for this step."])
        #expect(learn.step == .restingTouch)
    }

    @Test func learnedSettingsApplyToThePressureConfiguration() {
        let settings = ControllerSettings(channel: ch3, upKey: UInt7(48)!, downKey: UInt7(47)!, presetKey: UInt7(45)!,
                                          calibration: .init(deadZone: 3, maximum: 100, curve: .exponential))
        var base = PressureConfiguration()
        base.mode = .continuous
        let c = settings.applied(to: base)
        #expect(c.channel == ch3 && c.upKey.value == 48 && c.downKey.value == 47 && c.presetKey.value == 45)
        #expect(c.calibration == .init(deadZone: 3, maximum: 100, curve: .exponential))
        #expect(c.mode == .continuous)
    }
}
