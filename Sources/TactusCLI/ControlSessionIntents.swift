import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// The one place a player's wish is carried out, whatever asked for it: the
/// terminal's keys, a button or pedal (docs/DESIGN.md §12.4), an OSC message
/// (§12.2), the controller's deep press (§5.8). A tempo goes through
/// `ControlLoop.setTempo` (the one tempo writer, §2.3), so a pressure hold in
/// progress goes on from it, and is kept as the last tempo by `LastTempo`'s rule
/// (§5.7); a bar change lands at the next bar line; a preset comes from the
/// library. A change the player did not make at the terminal is said with where
/// it came from (`tempo 96 BPM (OSC 127.0.0.1)`, `start (pedal)`), on the
/// display's message line and in the change log.
extension ControlSession {
    /// Carries out `intent` from `source`, asked for at `microseconds`
    /// (CLOCK_MONOTONIC: tap tempo measures the arrivals, not this thread's
    /// rounds). Returns why it was refused (nothing changed then), or nil: the
    /// OSC server answers it as `/tactus/error`, the other sources say it.
    @discardableResult
    public func carryOut(_ intent: PlayerIntent, from source: IntentSource, at microseconds: Int64) -> String? {
        let running = engine.pointee.status.running.load(ordering: .acquiring)
        let from = source.label.map { " (\($0))" } ?? ""
        /// What a source other than the keys is told: the keys' player sees what they pressed.
        func announce(_ what: String) { if !from.isEmpty { say(what + from) } }
        switch intent {
        case .startStop, .start, .stop, .continue, .locate:
            let command: EngineCommand = switch intent {
            case .startStop: running ? .stop : .start
            case .start: .start
            case .stop: .stop
            case .locate(let bar): .locate(bar: bar)
            default: .continue
            }
            guard engine.pointee.commands.push(command) else { return Self.busy }
            let word = switch command {
            case .start: "start"
            case .stop: "stop"
            case .locate(let bar): "locate to bar \(bar)"
            default: "continue"
            }
            announce(word)
        case .countIn:
            // Start plays from the top, and the engine counts in first when a count-in is set (docs/DESIGN.md §10.4).
            guard engine.pointee.commands.push(.start) else { return Self.busy }
            let bars = countIn.map { $0.bars == 0 ? "two beats" : "\($0.bars) bar\($0.bars == 1 ? "" : "s")" }
            say(bars.map { "count-in \($0)\(from)" } ?? "start\(from): no count-in is set, --count-in BARS sets one")
        case .tempoStep(let hundredths):
            let tempo = BPM(hundredths: Int32(clamping: Int(loop.tempo.hundredths) + Int(hundredths)))
            setTempo(tempo, by: intent, from: source)
            announce("tempo \(tempo) BPM")
        case .tempo(let tempo):
            setTempo(tempo, by: intent, from: source)
            announce("tempo \(tempo) BPM")
        case .tap:
            guard let tempo = tapTempo.tap(at: ControlTime(microseconds: microseconds)) else {
                say("tap tempo: tap again on the beat (taps within 3 s count)\(from)")
                break
            }
            setTempo(tempo, by: intent, from: source)
            say("tap tempo: \(tempo) BPM from \(tapTempo.count) taps\(from)")
        case .nextPreset, .previousPreset:
            guard let switcher = presets else { return Self.noPresets }
            guard !switcher.library.entries.isEmpty else { return "there are no presets to switch to" }
            switchPreset(by: intent == .nextPreset ? 1 : -1)
            if let name = presets?.current?.preset.name { announce("preset \(name)") }
        case .presetNamed(let name):
            return preset(announce) { switcher, control in switcher.select(named: name.description, control: control) }
        case .presetProgram(let program):
            return preset(announce) { switcher, control in switcher.programChange(program, control: control) }
        case .toggleMute, .mute:
            let on = if case .mute(let on) = intent { on } else { !muted }
            guard engine.pointee.commands.push(.setMuted(on)) else { return Self.busy }
            muted = on
            announce(on ? "muted" : "unmuted")
        case .gain(let decibels):
            return setGain(decibels, from: from)
        case .volumeStep(let step):
            // Within -60…+12 dB of full scale: below is silence, above the clicks clip.
            return setGain(min(12, max(-60, (20 * log10(Double(max(gains.master, 1e-6)))).rounded() + Double(step))), from: from)
        case .beatsPerBar(let beats):
            guard let meter = Meter(beatsPerBar: beats, beatUnit: bar.meter.beatUnit) else { break }
            return carryOut(.meter(meter), from: source, at: microseconds)
        case .meter(let meter):
            // The feel (subdivision, pulse, swing) stays; the accents are the new meter's standard ones.
            var settings = bar
            settings.meter = meter
            settings.accents = .standard(beats: meter.beatsPerBar)
            guard changeBar(settings) else { return Self.busy }
            announce("meter \(meter)\(running ? " from the next bar line" : "")")
        case .accents(let accents):
            var settings = bar
            settings.accents = accents
            guard changeBar(settings) else { return Self.busy }
            announce("accents \(accents)\(running ? " from the next bar line" : "")")
        case .cycleAccent:
            return cycleAccent(running: running, from: from)
        case .subdivision, .cycleSubdivision:
            var settings = bar
            if case .subdivision(let subdivision) = intent {
                settings.subdivision = subdivision
            } else {
                let all = Subdivision.allCases
                settings.subdivision = all[((all.firstIndex(of: bar.subdivision) ?? 0) + 1) % all.count]
            }
            guard changeBar(settings) else { return Self.busy }
            say("subdivision \(settings.subdivision.rawValue)\(running ? " from the next bar line" : "")\(from)")
        case .practice(let change):
            var sent = change
            // `--count-in-clock` stays as the command line set it.
            if case .countIn(var countIn?) = change {
                countIn.sendsClock = self.countIn?.sendsClock ?? false
                sent = .countIn(countIn)
            }
            guard engine.pointee.commands.push(.setPractice(sent)) else { return Self.busy }
            if case .countIn(let countIn) = sent { self.countIn = countIn }
            practice = (practice ?? PracticeTools()).applying(sent)
            say("\(Self.describe(sent))\(from)")
        case .quit:
            quitRequested = true
        }
        return nil
    }

    static var busy: String { "busy: the engine's command queue is full (is the JACK server running?)" }
    static var noPresets: String { "no presets: put preset files in ~/.config/tactus/presets or use --preset" }

    /// A bar change at the next bar line; false when the engine's queue is full.
    private func changeBar(_ settings: BarSettings) -> Bool {
        guard engine.pointee.pushBarChange(settings, tempo: nil, at: .nextBar) else { return false }
        requested(settings)
        return true
    }

    private func setGain(_ decibels: Double, from: String) -> String? {
        var new = gains
        new.master = Float(pow(10, decibels / 20))
        guard engine.pointee.commands.push(.setGains(new)) else { return Self.busy }
        gains = new
        presets?.masterGain = new.master
        say("volume \(Format.decimal(decibels)) dB\(from)")
        return nil
    }

    /// The beat under the cursor (beat 1 if none yet) takes the next accent,
    /// X → x → o → . → X, at the next bar line as any bar change; edits made
    /// within one bar all land on that bar line.
    private func cycleAccent(running: Bool, from: String) -> String? {
        let index = beatCursor ?? 0
        editing.cursor = index
        var settings = bar
        settings.accents[index] = switch settings.accents[index] {
        case .accent: .normal
        case .normal: .soft
        case .soft: .silent
        case .silent: .accent
        }
        guard changeBar(settings) else { return Self.busy }
        say("beat \(index + 1) \(settings.accents[index].symbol): accents \(settings.accents)\(running ? " from the next bar line" : "")\(from)")
        return nil
    }

    func switchPreset(by step: Int) {
        guard var switcher = presets else { return say(Self.noPresets) }
        let count = switcher.library.entries.count
        guard count > 0 else { return say("there are no presets to switch to") }
        let index: Int
        if let current = switcher.currentIndex {
            index = ((current + step) % count + count) % count
        } else {
            index = step > 0 ? 0 : count - 1
        }
        let outcome = switcher.select(index: index, control: engine.pointee)
        presets = switcher
        apply(outcome)
    }

    private func preset(_ announce: (String) -> Void,
                        _ select: (inout PresetSwitcher, borrowing EngineControl) -> PresetSwitcher.Outcome) -> String? {
        guard var switcher = presets else { return Self.noPresets }
        guard !switcher.library.entries.isEmpty else { return "there are no presets to switch to" }
        let outcome = select(&switcher, engine.pointee)
        presets = switcher
        apply(outcome)
        switch outcome {
        case .switched(let entry):
            announce("preset \(entry.preset.name)")
            return nil
        case .loading(let entry):
            // Its samples are read off the control thread; the switch comes when they are.
            announce("preset \(entry.preset.name) once its samples are read")
            return nil
        case .refused(let error):
            return "preset refused, nothing changed: \(error.messages.first ?? "\(error)")"
        case .ignored(let reason):
            return reason
        }
    }

    private static func describe(_ change: PracticeChange) -> String {
        switch change {
        case .countIn(nil): "no count-in from the next start"
        case .countIn(let c?): "count-in \(c.bars == 0 ? "two beats" : "\(c.bars) bar\(c.bars == 1 ? "" : "s")") from the next start"
        case .trainer(nil): "speed trainer off"
        case .trainer(let t?): "speed trainer \(t.from)-\(t.to) BPM every \(t.bars) bars from the next start"
        case .gap(nil): "gap trainer off"
        case .gap(let g?): "gap trainer \(g.play) bars heard, \(g.mute) silent"
        }
    }
}
