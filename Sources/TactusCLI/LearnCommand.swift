import TactusCore

/// `tactus learn`: asks for the up, down and preset keys, measures the resting
/// touch and the hardest press, saves `controller.json` and prints what it stored.
///
/// The conversation is `MIDILearn` (TactusCore); this adds the input, the
/// printing and the file. The input is any function that waits for the next
/// message from the controller and returns nil when none came in time.
public enum LearnCommand {
    /// No message for this long ends learn without saving.
    public static let patienceSeconds = 60.0

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
