/// `"clockIn"` in a preset and in `controller.json` (README "Following a MIDI
/// clock"): one reader for both, as `TransportSchema` is for `"transport"`, so
/// a clock input is written the same way in either file and refused in the
/// same words.
public enum ClockInSchema {
    /// The preset schema's field format (`PresetSchema`).
    static var format: FieldFormat<ClockInChoice> {
        FieldFormat(allowed: "\"off\", \"jack\" (the clock_in JACK input, as --clock-in) or \"alsa:CLIENT:PORT\" (an ALSA sequencer port, as --alsa-clock-from)",
                    read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            guard let choice = ClockInChoice(spelling: s) else { throw FieldProblem("\(json.excerpt) is unknown") }
            return choice
        }, write: { .string($0.spelling) })
    }

    /// What the key allows, in words.
    public static var allowed: String { format.allowed }

    /// The clock input `json` names, or nil and the problem at `path` with what is allowed.
    public static func read(_ json: JSONValue, path: String) -> (choice: ClockInChoice?, issue: PresetIssue?) {
        let read = format.read(json, path: path)
        return (read.value, read.issue)
    }
}
