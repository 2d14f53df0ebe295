extension Preset {
    /// A preset is a few hundred bytes; anything larger is not a preset (and is not read whole).
    public static let maximumFileSize = 1 << 20

    /// Decodes and validates the bytes of a preset file. `file` names it in the messages.
    /// Throws every problem found, each with its field path.
    public static func decode(_ bytes: some Collection<UInt8>, file: String) throws(PresetError) -> Preset {
        let (preset, issues) = try read(bytes, file: file)
        guard issues.isEmpty else { throw PresetError(file: file, issues: issues) }
        return preset
    }

    /// The preset as far as the bytes give it, with every problem of its fields
    /// (a field in error keeps its default), so a check can look further (at the
    /// samples) and report everything at once. Bytes that are not a JSON text of
    /// at most 1 MiB throw: there are no fields to read.
    public static func read(_ bytes: some Collection<UInt8>, file: String) throws(PresetError) -> (preset: Preset, issues: [PresetIssue]) {
        guard bytes.count <= maximumFileSize else {
            throw PresetError(file: file, problem: "the file has \(bytes.count) bytes, more than 1 MiB", allowed: "a preset file of at most 1 MiB")
        }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw PresetError(file: file, problem: "the file is empty", allowed: "a JSON object with at least \"name\" and \"tempo\"")
        }
        let json: JSONValue
        do {
            json = try JSONReader.parse(Array(bytes))
        } catch {
            throw PresetError(file: file, problem: error.description, allowed: "JSON text (RFC 8259)")
        }
        return read(json)
    }

    /// Validates a JSON value as a preset.
    public static func decode(_ json: JSONValue, file: String) throws(PresetError) -> Preset {
        let (preset, issues) = read(json)
        guard issues.isEmpty else { throw PresetError(file: file, issues: issues) }
        return preset
    }

    /// The preset as far as `json` gives it, and every problem found.
    static func read(_ json: JSONValue) -> (preset: Preset, issues: [PresetIssue]) {
        var draft = PresetSchema.Draft(preset: Preset(name: "", tempo: BPM(120)), accents: nil)
        var issues: [PresetIssue] = []
        PresetSchema.root.read(json, into: &draft, path: "", issues: &issues)
        var preset = draft.preset
        let keys = [preset.pressure.upKey, preset.pressure.downKey, preset.pressure.presetKey]
        if issues.isEmpty, let actions = preset.actions, let issue = ActionSchema.controlKeyIssue(actions, keys: keys, path: "actions") {
            issues.append(issue)
        }
        let meter = preset.bar.meter
        preset.bar.accents = draft.accents.flatMap { $0.count == meter.beatsPerBar ? $0 : nil } ?? .standard(beats: meter.beatsPerBar)
        // `swing` swings eighths: with the subdivision left out (or "none") it clicks them, as `--swing` does.
        if preset.bar.swingRatio > 0 && preset.bar.subdivision == .none { preset.bar.subdivision = .eighths }
        return (preset, issues)
    }

    /// The preset as a JSON value, every key written out (defaults too), in schema order.
    public var json: JSONValue { PresetSchema.root.write(PresetSchema.Draft(preset: self, accents: bar.accents)) }

    /// The text of a preset file for this preset; `decode` reads it back to an equal preset.
    public func encoded() -> String { JSONWriter.text(of: json) + "\n" }
}
