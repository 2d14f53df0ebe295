import Testing
@testable import TactusCLI
import TactusCore

/// A control session on a virtual clock, with its engine state and one MIDI input ring.
final class SessionHarness {
    let engine: UnsafeMutablePointer<EngineControl>
    let input: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>
    let clock = VirtualClock()
    var session: ControlSession<VirtualClock>!
    var saved: [BPM] = []
    static let channel = MIDIChannel(number: 1)!

    /// Presets "A" (100 BPM, 4/4), "B" (140 BPM, 3/4), "C" (a file that turned bad).
    static let library = PresetLibrary(shipped: [
        PresetEntry(preset: Preset(name: "A", tempo: BPM(100), program: UInt7(0)), file: "/p/a.json", origin: .shipped),
        PresetEntry(preset: Preset(name: "B", tempo: BPM(140), bar: BarSettings(meter: Meter("3/4")!), program: UInt7(1)), file: "/p/b.json", origin: .shipped),
        PresetEntry(preset: Preset(name: "C", tempo: BPM(90), program: UInt7(2)), file: "/p/c.json", origin: .shipped),
    ], user: [])

    /// `samples`: the switcher's sample reader (none: presets bring no samples); `library`: the presets (`presets` true).
    init(tempo: Double = 120, presets: Bool = false, library: PresetLibrary = SessionHarness.library,
         samples: ((PresetEntry, Int) -> SampleRead?)? = nil) {
        startTempo = BPM(tempo)
        engine = .allocate(capacity: 1)
        engine.initialize(to: EngineControl())
        input = .allocate(capacity: 1)
        input.initialize(to: SPSCRing(capacity: 64))
        var switcher: PresetSwitcher?
        if presets {
            switcher = PresetSwitcher(library: library, sampleRate: 48000) { path throws(PresetError) in
                guard let entry = library.entries.first(where: { $0.file == path }), entry.preset.name != "C" else {
                    throw PresetError(file: path, path: "tempo", problem: "1200 is not in 1…999")
                }
                return entry.preset
            }
            switcher?.started(with: library.entries[0])
            switcher?.samples = samples
        }
        let ring = input
        session = ControlSession(configuration: PressureConfiguration(), tempo: BPM(tempo), engine: engine, inputs: [{ ring.pointee.pop() }],
                                 clock: clock, bar: BarSettings(), presets: switcher)
        session.saveLastTempo = { [unowned self] in self.saved.append($0) }
    }

    deinit {
        session = nil
        engine.deinitialize(count: 1); engine.deallocate()
        input.deinitialize(count: 1); input.deallocate()
    }

    func key(_ action: KeyAction, at seconds: Double) {
        clock.time = .seconds(seconds)
        session.poll(keys: [TimedKeyAction(action, microseconds: ControlTime.seconds(seconds).microseconds)])
    }

    func midi(_ message: MIDIMessage, at seconds: Double) {
        input.pointee.push(ControlInputEvent(message: message, microseconds: ControlTime.seconds(seconds).microseconds))
    }

    func poll(at seconds: Double) {
        clock.time = .seconds(seconds)
        session.poll()
    }

    /// The last tempo written by the rounds a microsecond before `seconds` (must be
    /// none: `Issue` otherwise) and at `seconds`.
    func savedFirstAt(_ seconds: Double) -> [BPM] {
        clock.time = ControlTime.seconds(seconds) + -1
        session.poll()
        if !saved.isEmpty { Issue.record("written before \(seconds) s: \(saved)") }
        poll(at: seconds)
        return saved
    }

    /// Every command the session pushed, in order (the ring drained into it).
    private var sent: [EngineCommand] = []
    private var read = 0
    private let startTempo: BPM

    private func drain() {
        while let c = engine.pointee.commands.pop() { sent.append(c) }
    }

    /// The tempo the engine was sent last (the tempo travels only as a command), the start tempo before any.
    var tempo: BPM {
        drain()
        return sent.last { $0.tempo != nil }?.tempo ?? startTempo
    }

    /// The commands pushed since the last call.
    func commands() -> [EngineCommand] {
        drain()
        defer { read = sent.count }
        return Array(sent[read...])
    }
}

@Suite("Control session: terminal keys and MIDI on one control thread, one tempo writer")
struct ControlSessionTests {
    let ch = SessionHarness.channel

    @Test func arrowsMoveTheTempoByOneAndTenThroughTheControlLoop() {
        let h = SessionHarness(tempo: 120)
        h.key(.tempoStep(1), at: 0.1)
        #expect(h.tempo == BPM(121))
        h.key(.tempoStep(10), at: 0.2)
        h.key(.tempoStep(-1), at: 0.3)
        #expect(h.tempo == BPM(130))
        #expect(h.session.loop.controller.tempo == BPM(130), "the controller knows: a hold goes on from here")
        // Kept once it has stood 2 s: not at each press.
        #expect(h.savedFirstAt(2.3) == [BPM(130)])
    }

    @Test func aBurstOfFiftyPressesWritesTheLastTempoOnceWhenItHasSettled() {
        let h = SessionHarness(tempo: 120)
        // 50 presses 50 ms apart (a key held down in a terminal repeats about so),
        // the control thread's round after each.
        for i in 0..<50 { h.key(.tempoStep(1), at: 1 + 0.05 * Double(i)) }
        #expect(h.tempo == BPM(170))
        #expect(h.saved.isEmpty)
        // The last press at 3.45: the tempo settles at 5.45, the round asks to be woken then.
        #expect(h.session.poll() == .seconds(5.45))
        #expect(h.savedFirstAt(5.45) == [BPM(170)])
        h.poll(at: 9)
        h.session.finish()
        #expect(h.saved == [BPM(170)], "one write, with the tempo the burst ended at")
        #expect(h.session.poll() == nil, "nothing left to write: no deadline")
    }

    @Test func aTempoNotYetSettledIsWrittenOnTheWayOutAndOnlyOnce() {
        let h = SessionHarness(tempo: 120)
        h.key(.tempoStep(10), at: 1)
        h.key(.tempoStep(-1), at: 1.5)
        h.poll(at: 2)
        #expect(h.saved.isEmpty)
        h.session.finish()
        h.session.finish()
        #expect(h.saved == [BPM(129)])
    }

    @Test func aTempoBackWhereItWasWrittenLastIsNotWrittenAgain() {
        let h = SessionHarness(tempo: 120)
        h.key(.tempoStep(1), at: 0)
        h.poll(at: 2)
        h.key(.tempoStep(1), at: 3)
        h.key(.tempoStep(-1), at: 3.1)
        h.poll(at: 6)
        h.session.finish()
        #expect(h.saved == [BPM(121)])
    }

    @Test func aPressureHoldIsKeptOnceAfterItsRelease() {
        let h = SessionHarness(tempo: 120)
        let up = UInt7(72)!
        // Two holds 1 s apart: the first one's 121 does not stand 2 s before the second moves on.
        h.midi(.noteOn(channel: ch, note: up, velocity: UInt7(100)!), at: 0)
        h.midi(.noteOff(channel: ch, note: up, velocity: UInt7(0)!), at: 0.05)
        h.poll(at: 0.1)
        h.midi(.noteOn(channel: ch, note: up, velocity: UInt7(100)!), at: 1)
        h.midi(.noteOff(channel: ch, note: up, velocity: UInt7(0)!), at: 1.05)
        h.poll(at: 1.1)
        #expect(h.tempo == BPM(122))
        #expect(h.savedFirstAt(3.1) == [BPM(122)])
    }

    @Test func arrowsClampAtTheRange() {
        let h = SessionHarness(tempo: 995)
        h.key(.tempoStep(10), at: 0)
        #expect(h.tempo == BPM(999))
        let low = SessionHarness(tempo: 5)
        low.key(.tempoStep(-10), at: 0)
        #expect(low.tempo == BPM(1))
    }

    @Test func aKeyDuringAPressureHoldIsWhereTheHoldGoesOnFrom() {
        let h = SessionHarness(tempo: 120)
        // Up key at 0 (tap: 121), strong pressure; the step at 0.32 adds 10.
        h.midi(.noteOn(channel: ch, note: UInt7(72)!, velocity: UInt7(100)!), at: 0)
        h.midi(.channelPressure(channel: ch, pressure: UInt7(120)!), at: 0.01)
        h.poll(at: 0.1)
        #expect(h.tempo == BPM(121))
        // ↓↓ in the terminal during the hold: 101; the 0.32 step goes on from there.
        h.key(.tempoStep(-10), at: 0.2)
        h.key(.tempoStep(-10), at: 0.25)
        #expect(h.tempo == BPM(101))
        h.poll(at: 0.32)
        #expect(h.tempo == BPM(111))
    }

    @Test func spaceStartsWhenStoppedAndStopsWhenRunning() {
        let h = SessionHarness()
        h.key(.startStop, at: 0)
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.key(.startStop, at: 1)
        let commands = h.commands()
        #expect(commands.count == 2)
        if case .start = commands[0] {} else { Issue.record("first \(commands[0])") }
        if case .stop = commands[1] {} else { Issue.record("then \(commands[1])") }
    }

    @Test func muteTogglesTheClicksOnly() {
        let h = SessionHarness()
        h.key(.toggleMute, at: 0)
        h.key(.toggleMute, at: 1)
        let muted = h.commands().compactMap { if case .setMuted(let m) = $0 { m } else { nil } }
        #expect(muted == [true, false])
        #expect(!h.session.muted)
    }

    @Test func digitsSetTheBeatsPerBarKeepingTheBeatUnit() {
        let h = SessionHarness()
        h.key(.beatsPerBar(7), at: 0)
        h.key(.beatsPerBar(10), at: 0.1)
        let bars = h.commands().compactMap { if case .changeBar(let b, let t, _, _, _, _) = $0 { (b, t) } else { nil } }
        #expect(bars.map(\.0.meter) == [Meter("7/4")!, Meter("10/4")!])
        #expect(bars.map(\.0.accents.description) == ["Xxxxxxx", "Xxxxxxxxxx"])
        #expect(bars.allSatisfy { $0.1 == nil }, "the tempo stays")
        #expect(h.session.bar.meter == Meter("10/4")!)
    }

    @Test func aBarChangeWhileRunningShowsWhenTheEngineAppliesIt() {
        let h = SessionHarness()
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.key(.beatsPerBar(3), at: 0)
        #expect(h.session.heardBar.meter == Meter("4/4")!, "still the old bar until the bar line")
        h.engine.pointee.status.barRequestApplied.store(h.engine.pointee.barRequestsPushed.load(ordering: .relaxed), ordering: .releasing)
        #expect(h.session.heardBar.meter == Meter("3/4")!)
    }

    @Test func tapTempoSetsTheTempoFromTheSecondTapAndSaysSo() {
        let h = SessionHarness(tempo: 120)
        h.key(.tap, at: 10)
        #expect(h.tempo == BPM(120))
        #expect(h.session.message == "tap tempo: tap again on the beat (taps within 3 s count)")
        h.key(.tap, at: 10.6)
        h.key(.tap, at: 11.2)
        #expect(h.tempo == BPM(100))
        #expect(h.session.message == "tap tempo: 100 BPM from 3 taps")
        h.poll(at: 13.2)
        #expect(h.saved == [BPM(100)], "the second tap's 100 and the third's are one write, 2 s after the third")
    }

    @Test func bracketsWalkThePresetListBothWaysAndWrap() {
        let h = SessionHarness(presets: true)
        h.key(.nextPreset, at: 0)
        #expect(h.session.presetPosition == PresetPosition(name: "B", index: 1, count: 3))
        #expect(h.tempo == BPM(140))
        #expect(h.session.bar.meter == Meter("3/4")!)
        h.key(.previousPreset, at: 1)
        h.key(.previousPreset, at: 2)
        // Back past A wraps to C, which is refused: A keeps playing, the message says why.
        #expect(h.session.presetPosition == PresetPosition(name: "A", index: 0, count: 3))
        #expect(h.tempo == BPM(100))
        #expect(h.session.message == "preset refused, A keeps playing: /p/c.json: tempo: 1200 is not in 1…999")
    }

    @Test func withoutPresetsTheBracketsSaySo() {
        let h = SessionHarness()
        h.key(.nextPreset, at: 0)
        #expect(h.session.message == "no presets: put preset files in ~/.config/tactus/presets or use --preset")
        #expect(h.commands().isEmpty)
    }

    @Test func programChangeAndDeepPressSwitchPresetsThroughTheSameSwitcher() {
        let h = SessionHarness(presets: true)
        h.midi(.programChange(channel: ch, program: UInt7(1)!), at: 0)
        h.poll(at: 0.01)
        #expect(h.session.presetPosition?.name == "B")
        // Deep press on the preset key (70): hold 0.2 s, then past 0.75 force → next preset (C, refused).
        h.midi(.noteOn(channel: ch, note: UInt7(70)!, velocity: UInt7(100)!), at: 1)
        h.midi(.channelPressure(channel: ch, pressure: UInt7(127)!), at: 1.3)
        h.poll(at: 1.35)
        #expect(h.session.presetPosition?.name == "B")
        #expect(h.session.message?.hasPrefix("preset refused, B keeps playing") == true)
    }

    @Test func transportFromTheControllerReachesTheEngine() {
        let h = SessionHarness()
        h.midi(.start, at: 0)
        h.midi(.stop, at: 0.1)
        h.midi(.continue, at: 0.2)
        h.poll(at: 0.3)
        let names = h.commands().map { c -> String in
            switch c { case .start: "start"; case .stop: "stop"; case .continue: "continue"; default: "other" }
        }
        #expect(names == ["start", "stop", "continue"])
    }

    @Test func quitIsOnlyNoted() {
        let h = SessionHarness()
        #expect(!h.session.quitRequested)
        h.key(.quit, at: 0)
        #expect(h.session.quitRequested)
        #expect(h.commands().isEmpty)
    }

    @Test func theSnapshotShowsTempoBeatForceAndPreset() {
        let h = SessionHarness(tempo: 120, presets: true)
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.engine.pointee.status.bar.store(3, ordering: .releasing)
        h.engine.pointee.status.beat.store(2, ordering: .releasing)
        h.engine.pointee.status.lastAccent.store(Accent.normal.rawValue, ordering: .releasing)
        h.midi(.noteOn(channel: ch, note: UInt7(71)!, velocity: UInt7(100)!), at: 0)
        h.midi(.channelPressure(channel: ch, pressure: UInt7(64)!), at: 0.01)
        h.poll(at: 0.05)
        let ports = PortsStatus(jack: .connected(JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256)))
        let m = DisplayModel(engine: h.engine.pointee, session: h.session, ports: ports)
        #expect(m.tempo == BPM(119))
        #expect(m.running && m.bar == 3 && m.beat == 2 && m.beatAccent == .normal)
        #expect(m.pressure.key == .down && m.pressure.level == .light)
        #expect(abs(m.pressure.force - 64.0 / 127) < 1e-9)
        #expect(m.preset == PresetPosition(name: "A", index: 0, count: 3))
        #expect(m.jack == ports.jack)
    }
}
