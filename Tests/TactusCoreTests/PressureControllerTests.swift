import Testing
@testable import TactusCore

/// Drives a `PressureController` in virtual time: t = seconds after the start.
struct PressureHarness {
    var controller: PressureController
    var effects: [TimedPressureEffect] = []

    static let ch1 = MIDIChannel(number: 1)!
    static let ch2 = MIDIChannel(number: 2)!

    init(tempo: Double = 120, configure: (inout PressureConfiguration) -> Void = { _ in }) {
        var configuration = PressureConfiguration()
        configure(&configuration)
        controller = PressureController(configuration: configuration, tempo: BPM(tempo))
    }

    var configuration: PressureConfiguration { controller.configuration }
    var tempo: Double { controller.tempo.value }
    var status: PressureStatus { controller.status }

    mutating func send(_ message: MIDIMessage, at t: Double) {
        effects += controller.handle(message, at: .seconds(t))
    }

    mutating func press(_ key: ControlKey, at t: Double, channel: MIDIChannel = ch1) {
        send(.noteOn(channel: channel, note: configuration.note(of: key), velocity: UInt7(100)!), at: t)
    }

    mutating func release(_ key: ControlKey, at t: Double, channel: MIDIChannel = ch1) {
        send(.noteOff(channel: channel, note: configuration.note(of: key), velocity: .zero), at: t)
    }

    mutating func pressure(_ value: Int, at t: Double, channel: MIDIChannel = ch1) {
        send(.channelPressure(channel: channel, pressure: UInt7(value)!), at: t)
    }

    /// The tempo at time t.
    mutating func tempo(at t: Double) -> Double {
        effects += controller.advance(to: .seconds(t))
        return tempo
    }

    /// Tempo after each of the given times.
    mutating func tempos(at times: [Double]) -> [Double] { times.map { tempo(at: $0) } }

    func cues(_ sound: ClickSound) -> [Double] {
        effects.compactMap { $0.effect == .cue(sound) ? $0.time.seconds : nil }
    }

    var tempoWrites: [(Double, Double)] {
        effects.compactMap { if case .tempo(let b) = $0.effect { ($0.time.seconds, b.value) } else { nil } }
    }
}

@Suite("Pressure control: the rules of docs/DESIGN.md §5 in virtual time")
struct PressureControllerTests {
    // MARK: Tap and hold delay

    @Test func tapOnNoteOnMovesTempoPlusMinus1AtOnce() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        #expect(h.tempo == 121)
        h.release(.up, at: 0.1)
        h.press(.down, at: 1)
        h.release(.down, at: 1.1)
        h.press(.down, at: 2)
        #expect(h.tempo == 119)
        #expect(h.tempoWrites.map(\.0) == [0, 1, 2])
        #expect(h.tempoWrites.map(\.1) == [121, 120, 119])
    }

    @Test func holdDelayNothingHappensBeforeT032() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.01)
        #expect(h.tempo(at: 0.319_999) == 121)
        #expect(h.tempo(at: 0.32) == 122)
    }

    // MARK: Force steps

    @Test func lightForceStepsPlus1AtT032_048_064_080() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.05)
        #expect(h.tempos(at: [0.31, 0.32, 0.47, 0.48, 0.63, 0.64, 0.80, 1.00]) == [121, 122, 122, 123, 123, 124, 125, 126])
        #expect(h.tempoWrites.map(\.0) == [0, 0.32, 0.48, 0.64, 0.80, 0.96])
    }

    @Test func strongForceStepsPlus10Every160ms() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(120, at: 0.05)
        #expect(h.tempos(at: [0.32, 0.48, 0.64, 0.79]) == [131, 141, 151, 151])
    }

    @Test func downKeyStepsMinus1LightMinus10Strong() {
        var h = PressureHarness(tempo: 120)
        h.press(.down, at: 0)
        h.pressure(60, at: 0.05)
        #expect(h.tempos(at: [0, 0.32, 0.48]) == [119, 118, 117])
        h.pressure(120, at: 0.5)
        #expect(h.tempos(at: [0.64, 0.80]) == [107, 97])
    }

    @Test func eachStepAppliesTheLevelAtThatMomentAndRestPausesOnTheSameSchedule() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.01)   // light
        #expect(h.tempo(at: 0.32) == 122)
        h.pressure(120, at: 0.40)  // strong for the 0.48 step
        #expect(h.tempo(at: 0.48) == 132)
        h.pressure(60, at: 0.50)   // light for 0.64
        #expect(h.tempo(at: 0.64) == 133)
        h.pressure(0, at: 0.70)    // rest: nothing at 0.80
        #expect(h.tempo(at: 0.80) == 133)
        h.pressure(60, at: 0.90)   // light again: the 0.96 step, no new delay
        #expect(h.tempos(at: [0.96, 1.12]) == [134, 135])
    }

    @Test func pressureArrivingExactlyAtAStepTimeCountsForThatStep() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.1)
        #expect(h.tempo(at: 0.32) == 122)
        h.pressure(120, at: 0.48)
        #expect(h.tempo == 132)
    }

    @Test func forceModeStartsWheneverLightPressureArrivesWhileTheKeyIsDown() {
        // First pressure at 0.37 (no long-press step yet): the next force step, 0.48, applies it.
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.37)
        #expect(h.tempos(at: [0.47, 0.48, 0.50, 0.60, 0.64]) == [121, 122, 122, 122, 123])
        #expect(h.status.mode == .force)
    }

    // MARK: Levels and hysteresis

    func levels(_ values: [Int], configure: (inout PressureConfiguration) -> Void = { _ in }) -> [ForceLevel] {
        var h = PressureHarness(configure: configure)
        h.press(.up, at: 0)
        return values.enumerated().map { i, v in
            h.pressure(v, at: 0.001 * Double(i + 1))
            return h.status.level
        }
    }

    @Test func levelsRestBelow003LightFrom003StrongAbove070() {
        // 3/127 = 0.024 rest, 4/127 = 0.031 light; 88/127 = 0.693 light, 89/127 = 0.701 strong.
        #expect(levels([3]) == [.rest])
        #expect(levels([4]) == [.light])
        #expect(levels([88]) == [.light])
        #expect(levels([89]) == [.strong])
        #expect(levels([127]) == [.strong])
    }

    @Test func hysteresisStrongFrom89BackToLightOnlyAt84() {
        #expect(levels([89, 88, 86, 85, 84, 85, 88, 89]) == [.strong, .strong, .strong, .strong, .light, .light, .light, .strong])
    }

    @Test func hysteresisLightFrom4BackToRestOnlyAt2() {
        #expect(levels([3, 4, 3, 2, 3, 4]) == [.rest, .light, .light, .rest, .rest, .light])
    }

    @Test func valueOscillatingPlusMinus1AroundSeventyPercentOfMaxDoesNotChatter() {
        // 0.7 × 127 = 88.9: the values 88, 89, 90 over and over.
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        var seen: [ForceLevel] = []
        for i in 0..<300 {
            h.pressure([88, 89, 90, 89][i % 4], at: 0.001 * Double(i + 1))
            seen.append(h.status.level)
        }
        #expect(seen.first == .light)
        #expect(seen.dropFirst().allSatisfy { $0 == .strong })
        #expect(h.cues(.impact) == [0.002])
        // The same with a calibration maximum of 100: 0.7 × 100 = 70, values 69, 70, 71.
        var g = PressureHarness { $0.calibration.maximum = 100 }
        g.press(.up, at: 0)
        for i in 0..<300 { g.pressure([69, 70, 71, 70][i % 4], at: 0.001 * Double(i + 1)) }
        #expect(g.cues(.impact) == [0.003])
        #expect(g.status.level == .strong)
    }

    // MARK: Range limits

    @Test func clampingAt999NearTheLimitStepsBy1UntilReached() {
        var h = PressureHarness(tempo: 985)
        h.press(.up, at: 0)
        h.pressure(120, at: 0.01)
        #expect(h.tempos(at: [0, 0.32, 0.48, 0.64, 0.80, 0.96, 1.12]) == [986, 996, 997, 998, 999, 999, 999])
        #expect(h.tempoWrites.count == 5)
        // A selection tick for the one full strong step only (as the phone metronome's, inside `if (_tempo < 999 - x)`; docs/DESIGN.md §5.6).
        #expect(h.cues(.selection) == [0.32])
    }

    @Test func clampingAt1NearTheLimitStepsBy1UntilReached() {
        var h = PressureHarness(tempo: 15)
        h.press(.down, at: 0)
        h.pressure(120, at: 0.01)
        #expect(h.tempos(at: [0, 0.32, 0.48, 0.64, 0.80, 0.96]) == [14, 4, 3, 2, 1, 1])
    }

    @Test func tapAt999And1StaysInTheRange() {
        var h = PressureHarness(tempo: 999)
        h.press(.up, at: 0)
        #expect(h.tempo == 999)
        #expect(h.tempoWrites.isEmpty)
        var l = PressureHarness(tempo: 1)
        l.press(.down, at: 0)
        #expect(l.tempo == 1)
    }

    @Test func longPressClampsAt999() {
        var h = PressureHarness(tempo: 990)
        h.press(.up, at: 0)
        #expect(h.tempo(at: 5) == 999)
    }

    // MARK: Long press (no aftertouch)

    @Test func longPressStepsAtT05_06_07Plus1() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        #expect(h.tempos(at: [0.499, 0.5, 0.599, 0.6, 0.7]) == [121, 122, 122, 123, 124])
        #expect(h.status.mode == .longPress)
    }

    @Test func longPressStep20Moves2AndStep65Moves5() {
        // Step k at 0.5 + 0.1 k: k = 19 at 2.4 (+1), k = 20 at 2.5 (+2), k = 64 at 6.9 (+2), k = 65 at 7.0 (+5).
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        let at24 = h.tempo(at: 2.4), at25 = h.tempo(at: 2.5)
        let at69 = h.tempo(at: 6.9), at70 = h.tempo(at: 7.0)
        #expect(at25 - at24 == 2)
        #expect(at70 - at69 == 5)
        #expect(at24 == 141)   // 121 + 20 × 1
    }

    @Test func longPressTempoAfter2s5s10sIs137_193_386() {
        // From 120: tap 121. By 2 s: steps k = 0…15 (+1 each) → 137.
        // By 5 s: k = 0…45: 20 × 1 + 26 × 2 = 72 → 193.
        // By 10 s: k = 0…95: 20 × 1 + 45 × 2 + 31 × 5 = 265 → 386.
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        #expect(h.tempos(at: [2, 5, 10]) == [137, 193, 386])
        // Ten seconds without a Note Off is also the stuck-key timeout: released after the 10 s step.
        #expect(h.tempo(at: 12) == 386)
        #expect(h.status.key == nil)
    }

    @Test func longPressDownTempoAfter2s5s10sIs103_47_1() {
        // From 120: tap 119, −16 by 2 s → 103, −72 by 5 s → 47, then −2 per step to 1.
        var h = PressureHarness(tempo: 120)
        h.press(.down, at: 0)
        #expect(h.tempos(at: [2, 5, 10]) == [103, 47, 1])
    }

    @Test func pressureDuringALongPressTakesOverAtTheNextForceStepTime() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        #expect(h.tempos(at: [0.5, 0.6, 0.7]) == [122, 123, 124])
        h.pressure(60, at: 0.75)
        #expect(h.status.mode == .force)
        // No long-press step at 0.8 or 0.9; force steps at 0.80, 0.96.
        #expect(h.tempos(at: [0.79, 0.80, 0.90, 0.96]) == [124, 125, 125, 126])
        #expect(h.tempoWrites.map(\.0) == [0, 0.5, 0.6, 0.7, 0.8, 0.96])
    }

    @Test func pressureBelowLightKeepsTheLongPress() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(3, at: 0.1)   // 3/127 = 0.024: rest
        #expect(h.tempos(at: [0.5, 0.6]) == [122, 123])
        #expect(h.status.mode == .longPress)
    }

    // MARK: Release

    @Test func releaseMidStepStopsAtOnceAndKeepsTheTempo() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.05)
        h.release(.up, at: 0.55)
        #expect(h.tempos(at: [0.64, 0.80, 5]) == [123, 123, 123])
        #expect(h.effects.last == TimedPressureEffect(.holdEnded(lastTempo: BPM(123)), at: .seconds(0.55)))
        #expect(h.controller.nextDeadline == nil)
    }

    @Test func noteOffExactlyAtAStepTimeLeavesNoStepAfterIt() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(120, at: 0.05)
        h.release(.up, at: 0.48)
        #expect(h.tempo(at: 1) == 131)
    }

    @Test func releaseDuringTheHoldDelayKeepsOnlyTheTap() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(127, at: 0.1)
        h.release(.up, at: 0.3)
        #expect(h.tempo(at: 2) == 121)
    }

    @Test func noteOnVelocity0IsANoteOff() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.05)
        h.send(.noteOn(channel: PressureHarness.ch1, note: UInt7(72)!, velocity: .zero), at: 0.40)
        #expect(h.tempo(at: 2) == 122)
        #expect(h.status.key == nil)
    }

    // MARK: Keys and channels

    @Test func bothKeysHeldTheOnePressedLastWins() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)             // 121
        h.pressure(60, at: 0.01)
        #expect(h.tempo(at: 0.32) == 122)
        h.press(.down, at: 0.40)        // tap 121; up's 0.48 step does not happen
        h.pressure(60, at: 0.41)        // down's force steps at 0.72, 0.88
        #expect(h.tempo(at: 0.48) == 121)
        h.release(.up, at: 0.5)         // the losing key's Note Off changes nothing
        #expect(h.tempos(at: [0.71, 0.72, 0.88]) == [121, 120, 119])
        #expect(h.effects.contains(TimedPressureEffect(.holdEnded(lastTempo: BPM(122)), at: .seconds(0.40))))
        #expect(h.status.key == .down)
        // Down released while up is still down: up stays silent until pressed again.
        h.press(.up, at: 1.0)           // 120
        h.press(.down, at: 1.1)         // 119
        h.release(.down, at: 1.2)
        #expect(h.tempo(at: 3) == 119)
        #expect(h.status.key == nil)
    }

    @Test func pressureOnAnotherChannelIsIgnored() {
        // Omni: the held key's channel is the one that counts.
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(120, at: 0.1, channel: PressureHarness.ch2)
        #expect(h.status.mode == .longPress)
        #expect(h.tempo(at: 0.5) == 122)   // a long press, not a strong force hold
        // Channel 1 set: Note On and pressure on channel 2 are ignored entirely.
        var f = PressureHarness(tempo: 120) { $0.channel = PressureHarness.ch1 }
        f.press(.up, at: 0, channel: PressureHarness.ch2)
        #expect(f.tempo == 120)
        f.press(.up, at: 1)
        f.pressure(120, at: 1.1, channel: PressureHarness.ch2)
        #expect(f.tempo(at: 1.48) == 121)
    }

    @Test func polyPressureCountsOnlyOnTheHeldControlKey() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.send(.polyPressure(channel: PressureHarness.ch1, note: UInt7(60)!, pressure: UInt7(120)!), at: 0.1)
        #expect(h.status.level == .rest)
        h.send(.polyPressure(channel: PressureHarness.ch1, note: UInt7(72)!, pressure: UInt7(120)!), at: 0.2)
        #expect(h.status.level == .strong)
        #expect(h.tempo(at: 0.32) == 131)
    }

    @Test func otherNotesAndMessagesChangeNothing() {
        var h = PressureHarness(tempo: 120)
        h.send(.noteOn(channel: PressureHarness.ch1, note: UInt7(60)!, velocity: UInt7(100)!), at: 0)
        h.pressure(120, at: 0.1)
        h.send(.controlChange(channel: PressureHarness.ch1, controller: UInt7(1)!, value: UInt7(5)!), at: 0.2)
        #expect(h.tempo(at: 2) == 120)
        #expect(h.effects.isEmpty)
    }

    @Test func aTempoSetFromOutsideMidHoldGoesOnFromThere() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.1)
        #expect(h.tempo(at: 0.40) == 122)
        h.controller.setTempo(BPM(90))
        #expect(h.tempo(at: 0.48) == 91)
    }

    // MARK: Calibration

    @Test func calibrationMaximum100MakesV71Strong() {
        #expect(levels([70], configure: { $0.calibration.maximum = 100 }) == [.light])
        #expect(levels([71], configure: { $0.calibration.maximum = 100 }) == [.strong])
    }

    @Test func calibrationDeadZone10ReadsV10AsZero() {
        let c = PressureConfiguration.Calibration(deadZone: 10, maximum: 110, curve: .linear)
        #expect(c.force(raw: 0) == 0)
        #expect(c.force(raw: 10) == 0)
        #expect(c.force(raw: 60) == 0.5)
        #expect(c.force(raw: 110) == 1)
        #expect(c.force(raw: 127) == 1)
        #expect(levels([13], configure: { $0.calibration = c }) == [.light])   // 3/100 = 0.03
        #expect(levels([12], configure: { $0.calibration = c }) == [.rest])
    }

    @Test func calibrationCurvesExponentialAndLogarithmicAtHalfForce() {
        let exponential = PressureConfiguration.Calibration(maximum: 100, curve: .exponential)
        let logarithmic = PressureConfiguration.Calibration(maximum: 100, curve: .logarithmic)
        // (e^1.5 − 1) / (e^3 − 1) = 0.1824; ln(1 + 0.5 (e^3 − 1)) / 3 = 0.7851.
        #expect((exponential.force(raw: 50) * 10_000).rounded() == 1824)
        #expect((logarithmic.force(raw: 50) * 10_000).rounded() == 7851)
        for curve in PressureConfiguration.Curve.allCases {
            #expect(curve.shape(0) == 0)
            #expect(abs(curve.shape(1) - 1) < 1e-12)
        }
        // Exponential makes the player push harder for strong: from v = 113 (f = 0.7036), v = 112 is 0.6859.
        #expect(levels([112], configure: { $0.calibration.curve = .exponential }) == [.light])
        #expect(levels([113], configure: { $0.calibration.curve = .exponential }) == [.strong])
    }

    // MARK: Feedback cues

    @Test func impactOnEnteringStrongAndOnStrongToLightOnceEach() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 0.1)
        h.pressure(100, at: 0.2)   // enters strong
        h.pressure(110, at: 0.3)
        h.pressure(120, at: 0.4)
        h.pressure(60, at: 0.5)    // back to light
        h.pressure(40, at: 0.6)
        #expect(h.cues(.impact) == [0.2, 0.5])
    }

    @Test func selectionTickOnEveryStrongStepOnly() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(120, at: 0.1)
        h.pressure(60, at: 0.6)
        h.pressure(120, at: 0.9)
        _ = h.tempo(at: 1.3)
        // Strong steps at 0.32, 0.48, 0.96, 1.12, 1.28; the 0.64 and 0.80 steps were light.
        #expect(h.cues(.selection) == [0.32, 0.48, 0.96, 1.12, 1.28])
    }

    @Test func maximumCueOnceAt127ReArmedOnlyBelow() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(127, at: 0.1)
        h.pressure(127, at: 0.2)
        h.pressure(127, at: 0.3)
        h.pressure(126, at: 0.4)
        h.pressure(127, at: 0.5)
        #expect(h.cues(.maximum) == [0.1, 0.5])
        // With a calibration maximum of 100, 100 is the maximum.
        var c = PressureHarness { $0.calibration.maximum = 100 }
        c.press(.up, at: 0)
        c.pressure(99, at: 0.1)
        c.pressure(100, at: 0.2)
        c.pressure(104, at: 0.3)
        #expect(c.cues(.maximum) == [0.2])
    }

    @Test func noCueWithoutAHeldControlKey() {
        var h = PressureHarness(tempo: 120)
        h.pressure(127, at: 0.1)
        h.pressure(60, at: 0.2)
        #expect(h.effects.isEmpty)
    }

    // MARK: Deep press (preset key)

    @Test func deepPressHeld02sThenPast075CommitsNextPreset() {
        var h = PressureHarness(tempo: 120)
        h.press(.preset, at: 0)
        #expect(h.tempo == 120)
        h.pressure(80, at: 0.1)      // 0.63
        #expect((h.status.deepPressProgress * 1000).rounded() == 840)   // 0.630 / 0.75
        h.pressure(95, at: 0.3)      // 0.748: not past 0.75
        #expect(!h.effects.contains { $0.effect == .nextPreset })
        h.pressure(96, at: 0.35)     // 0.756: past
        #expect(h.effects.map(\.effect) == [.nextPreset, .cue(.commit)])
        #expect(h.effects.first?.time == .seconds(0.35))
        #expect(h.status.deepPressProgress == 1)
        h.pressure(127, at: 0.4)
        h.release(.preset, at: 0.5)
        #expect(h.effects.filter { $0.effect == .nextPreset }.count == 1)
        #expect(h.tempo == 120)
    }

    @Test func deepPressPastTheThresholdBefore02sCommitsAt02s() {
        var h = PressureHarness(tempo: 120)
        h.press(.preset, at: 1)
        h.pressure(120, at: 1.05)
        #expect(h.effects.isEmpty)
        _ = h.tempo(at: 1.199_999)
        #expect(h.effects.isEmpty)
        _ = h.tempo(at: 1.3)
        #expect(h.effects == [TimedPressureEffect(.nextPreset, at: .seconds(1.2)), TimedPressureEffect(.cue(.commit), at: .seconds(1.2))])
    }

    @Test func deepPressReleasedBeforeTheThresholdIsCancelled() {
        var h = PressureHarness(tempo: 120)
        h.press(.preset, at: 0)
        h.pressure(90, at: 0.3)
        #expect(h.status.deepPressProgress > 0.9)
        h.release(.preset, at: 0.6)
        _ = h.tempo(at: 2)
        #expect(h.effects.isEmpty)
        #expect(h.status.deepPressProgress == 0)
        // Hard, but released before 0.2 s: cancelled too.
        h.press(.preset, at: 3)
        h.pressure(127, at: 3.05)
        h.release(.preset, at: 3.15)
        _ = h.tempo(at: 4)
        #expect(!h.effects.contains { $0.effect == .nextPreset })
    }

    // MARK: Continuous mode

    @Test func continuousModeRate2BPMPerSecondAtTheLightThresholdTo60AtFullForce() {
        // Calibration maximum 100: v = 3 is f = 0.03 exactly (2 BPM/s), v = 100 is f = 1 (60 BPM/s).
        var h = PressureHarness(tempo: 120) {
            $0.mode = .continuous
            $0.calibration.maximum = 100
        }
        h.press(.up, at: 0)
        h.pressure(3, at: 0.1)
        #expect(h.status.acceleration == 0)               // hold delay
        #expect(h.tempos(at: [0.32, 0.325, 0.82, 1.32]) == [121, 121.01, 122, 123])
        #expect(h.status.acceleration == 2)
        h.pressure(100, at: 1.32)
        #expect(h.tempos(at: [1.82, 2.32]) == [153, 183])
        #expect(h.status.acceleration == 60)
        h.pressure(0, at: 2.32)
        #expect(h.tempo(at: 3) == 183)
        #expect(h.status.acceleration == 0)
    }

    @Test func continuousModeHalfForceOnTheLinearCurveIs3010BPMPerSecond() {
        // f = 0.5: 2 + 58 × (0.5 − 0.03) / 0.97 = 30.10 BPM/s.
        var h = PressureHarness(tempo: 100) { $0.mode = .continuous; $0.calibration.maximum = 100 }
        h.press(.down, at: 0)
        h.pressure(50, at: 0.1)
        #expect(h.tempo(at: 1.32) == 68.90)               // 99 − 30.10
        #expect((h.status.acceleration * 100).rounded() == -3010)
    }

    @Test func continuousModeMovesIn001BPMStepsAndClampsAt999() {
        var h = PressureHarness(tempo: 990) { $0.mode = .continuous }
        h.press(.up, at: 0)
        h.pressure(127, at: 0.01)
        var previous = h.tempo
        var t = 0.32
        while t < 1.0 {
            t += 0.001
            let now = h.tempo(at: t)
            #expect(now - previous <= 0.06 + 1e-9)   // 60 BPM/s × 1 ms
            previous = now
        }
        #expect(h.tempo == 999)
        // Every written tempo is a whole number of hundredths.
        #expect(h.tempoWrites.allSatisfy { ($0.1 * 100).rounded() == $0.1 * 100 })
    }

    @Test func continuousModeKeepsImpactAndSelectionFeedbackOnTheStepClock() {
        var h = PressureHarness(tempo: 120) { $0.mode = .continuous }
        h.press(.up, at: 0)
        h.pressure(120, at: 0.1)
        h.pressure(60, at: 0.55)
        _ = h.tempo(at: 0.7)
        #expect(h.cues(.impact) == [0.1, 0.55])
        #expect(h.cues(.selection) == [0.32, 0.48])
    }

    @Test func continuousModeWithoutAftertouchFallsBackToTheLongPress() {
        var h = PressureHarness(tempo: 120) { $0.mode = .continuous }
        h.press(.up, at: 0)
        #expect(h.tempo(at: 2) == 137)
    }

    // MARK: Stuck key

    @Test func stuckKeyWithoutNoteOffIsReleasedAfter10sAndSaysSo() {
        var h = PressureHarness(tempo: 120)
        h.press(.up, at: 0)
        h.pressure(60, at: 1)
        h.pressure(0, at: 2)        // last message: the timeout counts from here
        // Long press 0.5 … 0.9 (+5), then light force steps 1.12 … 1.92 (+6).
        #expect(h.tempo(at: 11.99) == 132)
        #expect(h.status.key == .up)
        _ = h.tempo(at: 12)
        #expect(h.status.key == nil)
        let released = h.effects.first { if case .stuckKeyReleased = $0.effect { true } else { false } }
        #expect(released?.time == .seconds(12))
        #expect(released?.effect.message == "tactus: control key up (note 72) had no Note Off for 10 s: released it (stuck key or lost MIDI message?)")
        #expect(h.effects.contains(TimedPressureEffect(.holdEnded(lastTempo: BPM(132)), at: .seconds(12))))
        // Its late Note Off changes nothing.
        h.release(.up, at: 13)
        #expect(h.tempo == 132)
    }

    @Test func stuckKeyTimeoutIsConfigurable() {
        var h = PressureHarness(tempo: 120) { $0.stuckKeyTimeout = 3 }
        h.press(.preset, at: 0)
        _ = h.tempo(at: 3)
        #expect(h.effects.map(\.effect) == [.stuckKeyReleased(.preset, note: UInt7(70)!, after: 3)])
    }

    // MARK: Status

    @Test func statusShowsKeyForceLevelModeAndAccelerationInBPMPerSecond() {
        var h = PressureHarness(tempo: 120)
        #expect(h.status == PressureStatus(tempo: BPM(120)))
        h.press(.up, at: 0)
        h.pressure(60, at: 0.1)
        var s = h.status
        #expect(s.key == .up && s.level == .light && s.mode == .force && s.acceleration == 0)
        #expect(s.force == 60.0 / 127)
        _ = h.tempo(at: 0.4)
        #expect(h.status.acceleration == 6.25)     // 1 BPM per 0.16 s
        h.pressure(120, at: 0.5)
        #expect(h.status.acceleration == 62.5)     // 10 BPM per 0.16 s
        h.release(.up, at: 0.6)
        s = h.status
        #expect(s.key == nil && s.force == 0 && s.acceleration == 0)
        h.press(.down, at: 1)
        _ = h.tempo(at: 1.6)
        #expect(h.status.acceleration == -10)      // long press: 1 BPM per 0.1 s
    }
}
