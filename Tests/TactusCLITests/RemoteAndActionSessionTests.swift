import Foundation
import Testing
@testable import TactusCLI
import TactusCore

@Suite("Remote commands and MIDI actions in the control session: the keys' rules, said with their source")
struct RemoteAndActionSessionTests {
    let ch = SessionHarness.channel
    let osc = "OSC 127.0.0.1"

    @Test func fourPedalPressesHalfASecondApartAre120BPMWhateverTheControlThreadsJitter() {
        let h = SessionHarness(tempo: 100)
        h.session.loop.actions = ActionMap([ActionBinding(.controlChange(UInt7(64)!), .tap)])
        for (i, at) in [0.5, 1.0, 1.5, 2.0].enumerated() {
            h.midi(.controlChange(channel: ch, controller: UInt7(64)!, value: UInt7(127)!), at: at)
            h.midi(.controlChange(channel: ch, controller: UInt7(64)!, value: .zero), at: at + 0.1)
            // The control thread looks late, and by a different amount each time.
            h.poll(at: at + [0.013, 0.087, 0.002, 0.049][i])
        }
        #expect(h.tempo == BPM(120))
        #expect(h.session.message == "tap tempo: 120 BPM from 4 taps (pedal)")
        // Kept as a key's tap is: once it has stood 2 s from the round that set it (2.049).
        #expect(h.savedFirstAt(4.049) == [BPM(120)])
    }

    @Test func actionsDoWhatTheirKeysDo() {
        let h = SessionHarness(tempo: 100, presets: true)
        let pad = UInt7(36)!
        // controller.json's, as the run binds them: kept through the switch to B, a preset without actions of its own.
        h.session.controllerActions = [ActionBinding(.note(pad), .tempoUp), ActionBinding(.note(UInt7(37)!), .mute),
                                       ActionBinding(.note(UInt7(38)!), .nextPreset), ActionBinding(.note(UInt7(39)!), .countIn)]
        h.session.bindActions(of: nil)
        h.midi(.noteOn(channel: ch, note: pad, velocity: UInt7(100)!), at: 0.1)
        h.poll(at: 0.2)
        #expect(h.tempo == BPM(101))
        #expect(h.session.message == "tempo 101 BPM (note 36)")
        h.midi(.noteOn(channel: ch, note: UInt7(37)!, velocity: UInt7(100)!), at: 0.3)
        h.poll(at: 0.4)
        #expect(h.session.muted)
        #expect(h.session.message == "muted (note 37)")
        h.midi(.noteOn(channel: ch, note: UInt7(38)!, velocity: UInt7(100)!), at: 0.5)
        h.poll(at: 0.6)
        #expect(h.session.presetPosition?.name == "B")
        h.session.countIn = CountIn(bars: 1)
        _ = h.commands()
        h.midi(.noteOn(channel: ch, note: UInt7(39)!, velocity: UInt7(100)!), at: 0.7)
        h.poll(at: 0.8)
        #expect(h.commands().contains { if case .start = $0 { true } else { false } })
        #expect(h.session.message == "count-in 1 bar (note 39)")
    }

    @Test func remoteCommandsChangeWhatTheySayAndSayWhereTheyCameFrom() {
        let h = SessionHarness(tempo: 120, presets: true)
        #expect(h.session.perform(.tempo(BPM(96)), at: 0, from: osc) == nil)
        #expect(h.tempo == BPM(96))
        #expect(h.session.message == "tempo 96 BPM (OSC 127.0.0.1)")
        #expect(h.saved.isEmpty, "a remote tempo is not the player's last tempo")
        #expect(h.session.perform(.nudge(hundredths: -150), at: 0, from: osc) == nil)
        #expect(h.tempo == BPM(94.5))
        #expect(h.session.perform(.meter(Meter("7/8")!), at: 0, from: osc) == nil)
        #expect(h.session.bar.meter == Meter("7/8")!)
        #expect(h.session.perform(.gain(decibels: -6), at: 0, from: osc) == nil)
        #expect(abs(Double(h.session.gains.master) - 0.501187) < 1e-6)
        #expect(h.session.perform(.presetNamed(RemoteText("b")!), at: 0, from: osc) == nil)
        #expect(h.session.presetPosition?.name == "B")
        #expect(h.session.message == "preset B (OSC 127.0.0.1)")
        #expect(h.session.perform(.presetProgram(UInt7(0)!), at: 0, from: osc) == nil)
        #expect(h.session.presetPosition?.name == "A")
    }

    @Test func aRefusedRemoteCommandSaysWhyAndChangesNothing() {
        let h = SessionHarness(tempo: 120, presets: true)
        #expect(h.session.perform(.presetNamed(RemoteText("Nope")!), at: 0, from: osc) == RemoteCommandError("no preset is named \"Nope\""))
        #expect(h.session.perform(.presetProgram(UInt7(9)!), at: 0, from: osc) == RemoteCommandError("Program Change 9 selects no preset: the list has 3"))
        #expect(h.session.perform(.presetNamed(RemoteText("C")!), at: 0, from: osc)?.reason.hasPrefix("preset refused, nothing changed: ") == true)
        #expect(h.session.presetPosition?.name == "A")
        #expect(h.tempo == BPM(120))
        let bare = SessionHarness(tempo: 120)
        #expect(bare.session.perform(.nextPreset, at: 0, from: osc) == RemoteCommandError("no presets: put preset files in ~/.config/tactus/presets or use --preset"))
    }

    @Test func practiceToolsGoToTheEngineAndTheCountInKeepsItsClockOption() {
        let h = SessionHarness(tempo: 120)
        h.session.countIn = CountIn(bars: 1, sendsClock: true)
        _ = h.commands()
        #expect(h.session.perform(.practice(.countIn(CountIn(bars: 2))), at: 0, from: osc) == nil)
        #expect(h.session.perform(.practice(.gap(GapTrainer(play: 3, mute: 1))), at: 0, from: osc) == nil)
        #expect(h.session.message == "gap trainer 3 bars heard, 1 silent (OSC 127.0.0.1)")
        let sent = h.commands().compactMap { if case .setPractice(let c) = $0 { c } else { nil } }
        #expect(sent == [.countIn(CountIn(bars: 2, sendsClock: true)), .gap(GapTrainer(play: 3, mute: 1))])
        #expect(h.session.countIn == CountIn(bars: 2, sendsClock: true))
    }

    /// A preset's `actions` take the place of controller.json's while it plays; a
    /// preset without them brings the controller's back.
    @Test func aPresetsActionsReplaceTheControllersWhileItPlays() {
        var pedal = Preset(name: "Pedal", tempo: BPM(90), program: UInt7(1))
        pedal.actions = [ActionBinding(.controlChange(UInt7(65)!), .startStop)]
        let library = PresetLibrary(shipped: [
            PresetEntry(preset: Preset(name: "Plain", tempo: BPM(100), program: UInt7(0)), file: "/p/plain.json", origin: .shipped),
            PresetEntry(preset: pedal, file: "/p/pedal.json", origin: .shipped),
        ], user: [])
        let h = SessionHarness(tempo: 100, presets: true, library: library)
        let tap = [ActionBinding(.controlChange(UInt7(64)!), .tap)]
        h.session.controllerActions = tap
        h.session.bindActions(of: library.entries[0].preset)
        #expect(h.session.loop.actions.bindings == tap)
        _ = h.commands()

        h.midi(.programChange(channel: ch, program: UInt7(1)!), at: 0.1)
        h.poll(at: 0.2)
        #expect(h.session.presetPosition?.name == "Pedal")
        #expect(h.session.loop.actions.bindings == pedal.actions)
        h.midi(.controlChange(channel: ch, controller: UInt7(65)!, value: .max), at: 0.3)
        h.poll(at: 0.4)
        #expect(h.commands().contains { if case .start = $0 { true } else { false } })
        #expect(h.session.message == "start (pedal)")

        h.midi(.programChange(channel: ch, program: .zero), at: 0.5)
        h.poll(at: 0.6)
        #expect(h.session.presetPosition?.name == "Plain")
        #expect(h.session.loop.actions.bindings == tap)
    }

    @Test func remoteTapsAreTimedByTheirArrival() {
        let h = SessionHarness(tempo: 100)
        for at in [1.0, 1.6, 2.2] { _ = h.session.perform(.tap, at: ControlTime.seconds(at).microseconds, from: osc) }
        #expect(h.tempo == BPM(100))
        #expect(h.session.message == "tap tempo: 100 BPM from 3 taps (OSC 127.0.0.1)")
    }
}

@Suite("controller.json actions: read, written back, and every mistake named by its field")
struct ControllerActionsFileTests {
    func decode(_ actions: String) throws(OptionError) -> ControllerSettings {
        let text = """
        { "version": 1, "channel": 1, "upKey": 72, "downKey": 71, "presetKey": 70,
          "calibration": { "deadZone": 2, "maximum": 127, "curve": "linear" }, "actions": \(actions) }
        """
        return try ControllerFile.decode(Array(text.utf8), path: "c.json")
    }

    func error(_ actions: String) -> String? {
        do throws(OptionError) { _ = try decode(actions); return nil } catch { return error.message }
    }

    @Test func actionsAreReadAndWrittenBack() throws {
        let settings = try decode(#"[{ "action": "tap", "cc": 64 }, { "action": "countIn", "cc": 67, "invert": true }, { "action": "startStop", "note": 60 }]"#)
        #expect(settings.actions == [ActionBinding(.controlChange(UInt7(64)!), .tap), ActionBinding(.controlChange(UInt7(67)!), .countIn, invert: true),
                                     ActionBinding(.note(UInt7(60)!), .startStop)])
        let again = try ControllerFile.decode(Array(ControllerFile.encode(settings).utf8), path: "c.json")
        #expect(again == settings)
        #expect(settings.summary.suffix(3) == ["action:     tap on CC 64", "action:     countIn on CC 67 (inverted)", "action:     startStop on note 60"])
    }

    @Test func eachMistakeIsNamedByItsField() {
        #expect(error(#"{}"#) == "tactus: c.json: field 'actions' must be an array of { \"action\": …, \"note\" or \"cc\": … }")
        #expect(error(#"[{ "action": "jump", "cc": 64 }]"#) == "tactus: c.json: field 'actions[0].action' \"jump\": must be one of tap, startStop, start, stop, nextPreset, previousPreset, mute, tempoUp, tempoDown, countIn")
        #expect(error(#"[{ "action": "tap" }]"#) == "tactus: c.json: field 'actions[0]' needs a \"note\" or a \"cc\" number, 0 to 127 (one of them)")
        #expect(error(#"[{ "action": "tap", "cc": 128 }]"#) == "tactus: c.json: field 'actions[0].cc' 128 is not a whole number from 0 to 127")
        #expect(error(#"[{ "action": "tap", "note": 72 }]"#) == "tactus: c.json: field 'actions[0].note' 72 is a control key (upKey, downKey, presetKey): choose another note")
        #expect(error(#"[{ "action": "tap", "note": 60, "invert": true }]"#) == "tactus: c.json: field 'actions[0].invert' is for a pedal's \"cc\", not a note")
        #expect(error(#"[{ "action": "tap", "cc": 64 }, { "action": "stop", "cc": 64 }]"#) == "tactus: c.json: field 'actions[1]' CC 64 already does tap: one action a button")
        #expect(error(#"[{ "action": "tap", "cc": 64, "velocity": 3 }]"#)?.hasPrefix("tactus: c.json: field 'actions[0].velocity' is not known") == true)
    }

    @Test func learnActionAddsTheFirstPressToTheFileAndKeepsTheKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-learn-action-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/controller.json"
        let ch = MIDIChannel(number: 1)!
        var lines: [String] = []
        // An inverted pedal: it sends 0 when pressed, after a stray Note Off.
        var script: [MIDIMessage] = [.noteOff(channel: ch, note: UInt7(72)!, velocity: .zero), .controlChange(channel: ch, controller: UInt7(64)!, value: .zero)]
        var iterator = script.makeIterator()
        #expect(LearnCommand.learnAction(.tap, next: { iterator.next() }, say: { lines.append($0) }, path: path) == 0)
        #expect(lines.last == "Saved to \(path): tap on CC 64 (inverted: pressed below 64)")
        // A second action; the control key's note is refused and the next press taken.
        script = [.noteOn(channel: ch, note: UInt7(72)!, velocity: UInt7(80)!), .noteOn(channel: ch, note: UInt7(48)!, velocity: UInt7(80)!)]
        iterator = script.makeIterator()
        #expect(LearnCommand.learnAction(.startStop, next: { iterator.next() }, say: { lines.append($0) }, path: path) == 0)
        #expect(lines.contains("note 72 is a control key; press another button or pedal"))
        let saved = try #require(try ControllerFile.load(path: path))
        #expect(saved.upKey == UInt7(72)! && saved.downKey == UInt7(71)! && saved.presetKey == UInt7(70)!)
        #expect(saved.actions == [ActionBinding(.controlChange(UInt7(64)!), .tap, invert: true), ActionBinding(.note(UInt7(48)!), .startStop)])
    }
}

@Suite("OSC options: a port, an IPv4 address to listen on, nothing without a port")
struct RemoteOptionsTests {
    @Test func theServerListensOnLoopbackUnlessAnAddressIsGiven() throws {
        let plain = try OptionParser.parse(["run", "--osc", "9000"])
        #expect(plain.oscPort == 9000)
        #expect(plain.oscHost == "127.0.0.1")
        #expect(try OptionParser.parse(["run", "--osc", "9000", "--osc-host", "0.0.0.0"]).oscHost == "0.0.0.0")
        #expect(throws: OptionError("tactus: --osc '0' is not valid: a UDP port from 1 to 65535")) { try OptionParser.parse(["run", "--osc", "0"]) }
        #expect(throws: OptionError.self) { try OptionParser.parse(["run", "--osc", "9000", "--osc-host", "stage.local"]) }
        #expect(throws: OptionError("tactus: --osc-host needs --osc PORT: the OSC server is off without a port")) {
            try OptionParser.parse(["run", "--osc-host", "0.0.0.0"]).checkRemote()
        }
        #expect(throws: OptionError.self) { try OptionParser.parse(["render", "x.wav", "--osc", "9000"]) }
    }
}
