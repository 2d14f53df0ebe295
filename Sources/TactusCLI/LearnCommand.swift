import TactusALSA
import TactusCore
import TactusJACK

/// `tactus learn`: asks for the up, down and preset keys, measures the resting
/// touch and the hardest press, saves `controller.json` and prints what it stored.
///
/// The conversation is `MIDILearn` (TactusCore); this adds the input, the
/// printing and the file. The input is any function that waits for the next
/// message from the controller and returns nil when none came in time.
public enum LearnCommand {
    /// No message for this long ends learn without saving.
    public static let patienceSeconds = 60.0

    /// `tactus learn [-n NAME] [-s SERVER] [--connect-control PORT] [--alsa-control-from C:P]`:
    /// listens on the JACK `control` port and the ALSA sequencer's `control` port
    /// (whichever is there), like `tactus run`; the metronome stays silent.
    public static func run(_ options: Options, environment: [String: String] = ProcessEnvironment.current) -> Int32 {
        let path = UserFiles.controllerFile(environment)
        var jackOptions = JackRunOptions()
        jackOptions.clientName = options.clientName
        jackOptions.serverName = options.serverName
        jackOptions.controlConnections = options.connectControl
        jackOptions.startStopped = true
        jackOptions.lockMemory = false
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let metronome: JackMetronome
        do {
            ProcessPolicy.apply()
            // Only what concerns the player: JACK's start and stop lines are not.
            metronome = try JackMetronome(options: jackOptions, control: control) { line in
                if line.hasPrefix("stopped after") || line.hasPrefix("playback latency") || line.contains("is not connected") { return }
                printError("tactus: \(line)")
            }
        } catch {
            printError("tactus: \(error)")
            return OptionError.exitStatus
        }
        let jack = metronome.connect()

        let alsaInput = UnsafeMutablePointer<SPSCRing<ControlInputEvent>>.allocate(capacity: 1)
        alsaInput.initialize(to: SPSCRing(capacity: 1024))
        defer { alsaInput.deinitialize(count: 1); alsaInput.deallocate() }
        var alsa: ALSAClient?
        do {
            if let alsaOptions = try ALSAWiring.options(from: options) {
                alsa = try ALSAClient(options: alsaOptions) { printError("tactus: \($0)") }
                alsa?.startInput(into: alsaInput)
            }
        } catch let error as OptionError {
            printError(error.message)
            return OptionError.exitStatus
        } catch let error as SequencerError {
            printError("tactus: " + ALSAClient.unavailable(error))
        } catch {
            printError("tactus: \(error); learning from JACK only")
        }
        defer { alsa?.stop() }
        guard jack || alsa != nil else {
            printError("tactus: learn needs a MIDI input: no JACK server answered and the ALSA sequencer is off (--no-alsa) or missing")
            metronome.shutdown()
            return 1
        }
        var ports: [String] = []
        if jack { ports.append("\(metronome.clientName):control (JACK)") }
        if let alsa { ports.append("\(alsa.options.clientName):control, ALSA \(alsa.controlPort.client):\(alsa.controlPort.port)") }
        print("tactus learn: listening on \(ports.joined(separator: " and ")); connect your keyboard there "
              + "(--connect-control PORT, --alsa-control-from CLIENT:PORT, or your patchbay).")

        var interrupted = false
        let next: () -> MIDIMessage? = {
            let shared = metronome.shared
            var waited = 0
            while Double(waited) < patienceSeconds * 1000 {
                while let event = shared.pointee.controlInput.pop() ?? alsaInput.pointee.pop() {
                    if event.message.channel != nil { return event.message }
                }
                if TerminationSignals.wait(milliseconds: 5) != nil {
                    interrupted = true
                    return nil
                }
                metronome.service()
                waited += 5
            }
            return nil
        }
        let say: (String) -> Void = { line in
            if interrupted { return }
            print(line)
        }
        let status = options.learnAction.map { learnAction($0, next: next, say: say, path: path) }
            ?? converse(next: next, say: say, path: path, curve: .linear)
        if interrupted { printError("tactus learn: interrupted, nothing saved") }
        metronome.shutdown()
        return interrupted ? 130 : status
    }

    /// `--action`: the first press of a button or pedal is bound to `action` and
    /// added to `controller.json` (replacing what that action or that button did
    /// before); the keys and calibration in the file stay as they are (the
    /// defaults when there is no file yet). Returns the exit status.
    public static func learnAction(_ action: ControlAction, next: () -> MIDIMessage?, say: (String) -> Void, path: String) -> Int32 {
        var settings: ControllerSettings
        do {
            let defaults = PressureConfiguration()
            settings = try ControllerFile.load(path: path)
                ?? ControllerSettings(channel: nil, upKey: defaults.upKey, downKey: defaults.downKey, presetKey: defaults.presetKey)
        } catch {
            say(error.message)
            return 1
        }
        say("tactus learn: press the button or pedal for \(action.rawValue), then let go.")
        var binding: ActionBinding?
        while binding == nil {
            guard let message = next() else {
                say("tactus: no MIDI from the controller for \(Int(patienceSeconds)) s: nothing saved (is it connected to tactus:control?)")
                return 1
            }
            guard let learned = ActionBinding.learned(from: message, action: action) else { continue }
            if case .note(let note) = learned.trigger, [settings.upKey, settings.downKey, settings.presetKey].contains(note) {
                say("note \(note) is a control key; press another button or pedal")
                continue
            }
            if let channel = message.channel, let control = settings.channel, channel != control {
                say("note: it sends on channel \(channel.number), the control channel is \(control.number); Tactus listens there only")
            }
            binding = learned
        }
        guard let binding else { return 1 }
        settings.actions.removeAll { $0.action == action || $0.trigger == binding.trigger }
        settings.actions.append(binding)
        do {
            try ControllerFile.save(settings, path: path)
        } catch {
            say(error.message)
            return 1
        }
        say("Saved to \(path): \(action.rawValue) on \(binding.trigger)\(binding.invert ? " (inverted: pressed below 64)" : "")")
        return 0
    }

    /// Runs the conversation; returns the exit status (0 saved, 1 gave up or could not save).
    public static func converse(next: () -> MIDIMessage?, say: (String) -> Void, path: String,
                                curve: PressureConfiguration.Curve = .linear) -> Int32 {
        var learn = MIDILearn(curve: curve)
        say("tactus learn: the control keys and the pressure of your controller, in five steps.")
        say(learn.prompt)
        while learn.step != .done {
            guard let message = next() else {
                say("tactus: no MIDI from the controller for \(Int(patienceSeconds)) s: nothing saved (is it connected to tactus:control?)")
                return 1
            }
            for line in learn.handle(message) { say(line) }
        }
        guard let settings = learn.result else { return 1 }
        do {
            try ControllerFile.save(settings, path: path)
        } catch {
            say(error.message)
            return 1
        }
        say("Saved to \(path):")
        for line in settings.summary { say("  " + line) }
        return 0
    }
}
