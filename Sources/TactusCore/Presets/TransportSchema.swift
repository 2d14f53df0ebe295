/// `"transport"` in a preset and in `controller.json` (README "JACK
/// transport"): one reader for both, as `ActionSchema` is for `actions`, so a
/// mode is written the same way in either file and refused in the same words.
public enum TransportSchema {
    /// The preset schema's field format (`PresetSchema`).
    static var format: FieldFormat<JackTransportMode> { .choice }

    /// The mode `json` names, or nil and the problem at `path` with what is allowed.
    public static func read(_ json: JSONValue, path: String) -> (mode: JackTransportMode?, issue: PresetIssue?) {
        let read = format.read(json, path: path)
        return (read.value, read.issue)
    }
}
