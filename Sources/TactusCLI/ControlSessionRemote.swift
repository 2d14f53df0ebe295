import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// A remote command (OSC, docs/DESIGN.md §12) carried out on the control
/// thread, by the rules of the terminal's keys: a tempo through
/// `ControlLoop.setTempo`, a bar change at the next bar line, a preset from the
/// library. Each change is said with where it came from (`tempo 96 BPM (OSC
/// 127.0.0.1)`), on the display and in the change log.
extension ControlSession {
    /// Carries out `command`, sent from `source` at `microseconds` (CLOCK_MONOTONIC:
    /// tap tempo measures the arrivals, not this thread's rounds). Returns why it
    /// was refused (the state is unchanged then), or nil.
    public func perform(_ command: RemoteCommand, at microseconds: Int64, from source: String) -> RemoteCommandError? {
        let running = engine.pointee.status.running.load(ordering: .acquiring)
        switch command {
        case .start, .stop, .continue, .locate:
            let engineCommand: EngineCommand = switch command {
            case .start: .start
            case .stop: .stop
            case .locate(let bar): .locate(bar: bar)
            default: .continue
            }
            guard engine.pointee.commands.push(engineCommand) else { return busy }
            say("\(Self.word(command)) (\(source))")
        case .tempo(let tempo):
            loop.setTempo(tempo)
            say("tempo \(tempo) BPM (\(source))")
        case .nudge(let hundredths):
            let tempo = BPM(hundredths: Int32(clamping: Int(loop.tempo.hundredths) + Int(hundredths)))
            loop.setTempo(tempo)
            say("tempo \(tempo) BPM (\(source))")
        case .tap:
            tap(at: microseconds, from: source)
        case .meter(let meter):
            return changeBar(BarSettings(meter: meter, accents: nil, subdivision: bar.subdivision, pulse: bar.pulse),
                             saying: "meter \(meter)", from: source, running: running)
        case .accents(let accents):
            return changeBar(BarSettings(meter: bar.meter, accents: accents, subdivision: bar.subdivision, pulse: bar.pulse),
                             saying: "accents \(accents)", from: source, running: running)
        case .subdivision(let subdivision):
            return changeBar(BarSettings(meter: bar.meter, accents: bar.accents, subdivision: subdivision, pulse: bar.pulse),
                             saying: "subdivision \(subdivision.rawValue)", from: source, running: running)
        case .gain(let decibels):
            var new = gains
            new.master = Float(pow(10, decibels / 20))
            guard engine.pointee.commands.push(.setGains(new)) else { return busy }
            gains = new
            presets?.masterGain = new.master
            say("volume \(Format.decimal(decibels)) dB (\(source))")
        case .mute(let on):
            guard engine.pointee.commands.push(.setMuted(on)) else { return busy }
            muted = on
            say("\(on ? "muted" : "unmuted") (\(source))")
        case .presetNamed(let name):
            return preset(from: source) { switcher, control in switcher.select(named: name.description, control: control) }
        case .presetProgram(let program):
            return preset(from: source) { switcher, control in switcher.programChange(program, control: control) }
        case .nextPreset, .previousPreset:
            guard presets?.library.entries.isEmpty == false else { return RemoteCommandError("there are no presets to switch to") }
            switchPreset(by: command == .nextPreset ? 1 : -1)
            if let name = presets?.current?.preset.name { say("preset \(name) (\(source))") }
        case .practice(let change):
            var sent = change
            // `--count-in-clock` stays as the command line set it.
            if case .countIn(var countIn?) = change {
                countIn.sendsClock = self.countIn?.sendsClock ?? false
                sent = .countIn(countIn)
            }
            guard engine.pointee.commands.push(.setPractice(sent)) else { return busy }
            if case .countIn(let countIn) = sent { self.countIn = countIn }
            practice = (practice ?? PracticeTools()).applying(sent)
            say("\(Self.describe(sent)) (\(source))")
        case .query, .register, .unregister, .ping:
            // The remote control's own business (`RemoteControl`): nothing changes here.
            break
        }
        return nil
    }

    /// One tap at its own time stamp; said with its source (`tap tempo: 96 BPM from 4 taps (pedal)`).
    func tap(at microseconds: Int64, from source: String) {
        if let tempo = tapTempo.tap(at: ControlTime(microseconds: microseconds)) {
            loop.setTempo(tempo)
            saveLastTempo(tempo)
            say("tap tempo: \(tempo) BPM from \(tapTempo.count) taps (\(source))")
        } else {
            say("tap tempo: tap again on the beat (taps within 3 s count) (\(source))")
        }
    }

    private var busy: RemoteCommandError { RemoteCommandError("busy: the engine's command queue is full (is the JACK server running?)") }

    private func changeBar(_ settings: BarSettings, saying what: String, from source: String, running: Bool) -> RemoteCommandError? {
        guard engine.pointee.commands.push(.changeBar(settings, tempo: nil, at: .nextBar)) else { return busy }
        requested(settings)
        say("\(what)\(running ? " from the next bar line" : "") (\(source))")
        return nil
    }

    private func preset(from source: String,
                        _ select: (inout PresetSwitcher, borrowing EngineControl) -> PresetSwitcher.Outcome) -> RemoteCommandError? {
        guard var switcher = presets, !switcher.library.entries.isEmpty else {
            return RemoteCommandError("there are no presets: put preset files in ~/.config/tactus/presets")
        }
        let outcome = select(&switcher, engine.pointee)
        presets = switcher
        apply(outcome)
        switch outcome {
        case .switched(let entry):
            say("preset \(entry.preset.name) (\(source))")
            return nil
        case .loading(let entry):
            // Its samples are read off the control thread; the switch comes when they are.
            say("preset \(entry.preset.name) once its samples are read (\(source))")
            return nil
        case .refused(let error):
            return RemoteCommandError("preset refused, nothing changed: \(error.messages.first ?? "\(error)")")
        case .ignored(let reason):
            return RemoteCommandError(reason)
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

    private static func word(_ command: RemoteCommand) -> String {
        switch command {
        case .start: "start"
        case .stop: "stop"
        case .locate(let bar): "locate to bar \(bar)"
        default: "continue"
        }
    }
}
