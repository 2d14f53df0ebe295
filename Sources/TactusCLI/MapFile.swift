import TactusCore

/// `--map FILE`, `--start-at LABEL`: the tempo map read and checked before
/// anything plays, so a mistake stops the command with its file, line and
/// column (exit 2) and no click sounds.
enum MapFile {
    /// A map file larger than this is not a tempo map (a 10 000-entry map is 300 KB).
    static let maximumSize = 4 << 20

    static func load(_ options: Options) throws(OptionError) -> TempoMap? {
        guard let path = options.mapFile else {
            // A preset's sections may be the map (`PresetStart.applyPractice`).
            guard options.preset == nil else { return nil }
            if let label = options.startAt { throw OptionError("tactus: --start-at '\(label)' needs a tempo map: --map FILE") }
            if options.mapLoop { throw OptionError("tactus: --map-loop needs a tempo map: --map FILE") }
            return nil
        }
        if let conflict = conflict(options) { throw conflict }
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileSystem.read(path, limit: maximumSize)
        } catch {
            throw OptionError("tactus: cannot read the tempo map '\(path)': \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw OptionError("tactus: \(path): not a text file (UTF-8): a tempo map is klick's text format")
        }
        let map: TempoMap
        do throws(TempoMapError) {
            map = try TempoMapParser.parse(text, file: path)
        } catch {
            throw OptionError("tactus: \(error)")
        }
        guard let label = options.startAt else { return map }
        guard let from = map.starting(at: label) else {
            let labels = map.labels
            throw OptionError("tactus: --start-at '\(label)': no entry of \(path) has that label"
                              + (labels.isEmpty ? " (it has no labels)" : " (its labels: \(labels.joined(separator: ", ")))"))
        }
        return from
    }

    /// A map sets each entry's tempo, meter and pattern (klick's format): an
    /// option that sets them too would be ignored, so it is refused, naming both.
    static func conflict(_ options: Options) -> OptionError? {
        let given: [(Bool, String, String)] = [
            (options.tempo != nil, "--bpm", "the tempo"), (options.quarterNoteTempo != nil, "a tempo (klick's form)", "the tempo"),
            (options.meter != nil, "--meter", "the meter"), (options.accents != nil, "--accents", "the accent pattern"),
        ]
        guard let (_, option, what) = given.first(where: \.0) else { return nil }
        return OptionError("tactus: --map and \(option) cannot go together: the map sets \(what) of each entry; leave \(option) out, or write it in the map")
    }
}
