import TactusCore

/// `tactus presets` lists the presets in list order (the order Program Change
/// and the deep press use); `tactus presets check [FILE…]` validates preset
/// files (every file of both preset folders when none is given) and prints
/// every error, exit status 2 if there was any.
///
/// The text is built by `output`, apart from printing, so tests check it directly.
public enum PresetsCommand {
    public struct Output: Equatable, Sendable {
        public var status: Int32
        public var standardOutput: [String]
        public var standardError: [String]
    }

    public static func run(_ options: Options) -> Int32 {
        let result = output(options, directories: .standard(environment: ProcessEnvironment.current,
                                                               executablePath: PresetDirectories.currentExecutable))
        for line in result.standardOutput { print(line) }
        for line in result.standardError { printError(line) }
        return result.status
    }

    public static func output(_ options: Options, directories: PresetDirectories) -> Output {
        switch options.arguments.first {
        case nil:
            return list(directories: directories, setlist: options.setlist)
        case "check":
            return check(Array(options.arguments.dropFirst()), directories: directories)
        case let other?:
            return Output(status: OptionError.exitStatus, standardOutput: [],
                          standardError: ["tactus: presets: unknown argument '\(other)': tactus presets [check FILE...]"])
        }
    }

    /// The table: program number, name, tempo, meter, file; skipped files on standard error.
    static func list(directories: PresetDirectories, setlist: String?) -> Output {
        var library = PresetLibrary.load(directories)
        var errors = library.problems.flatMap(\.messages).map { "tactus: " + $0 }
        if let setlist {
            do throws(PresetError) {
                library = try library.ordered(by: try Setlist.load(path: setlist))
            } catch {
                return Output(status: OptionError.exitStatus, standardOutput: [], standardError: errors + error.messages.map { "tactus: " + $0 })
            }
        }
        guard !library.entries.isEmpty else {
            let folders = [directories.shipped, directories.user].compactMap { $0 }.joined(separator: " or ")
            errors.append("tactus: no presets found in \(folders.isEmpty ? "any preset folder" : folders)")
            return Output(status: 0, standardOutput: [], standardError: errors)
        }
        let rows = library.entries.indices.map { i in
            let entry = library.entries[i]
            return [library.programNumber(at: i).map { String($0.value) } ?? "-", entry.preset.name,
                    entry.preset.tempo.description, entry.preset.bar.meter.description, entry.file]
        }
        return Output(status: 0, standardOutput: table(header: ["PROGRAM", "NAME", "TEMPO", "METER", "FILE"], rows: rows, rightAligned: [0, 2]),
                      standardError: errors)
    }

    /// One `ok` line per good file on standard output, every error on standard error.
    static func check(_ files: [String], directories: PresetDirectories) -> Output {
        let paths = files.isEmpty
            ? [directories.shipped, directories.user].compactMap { $0 }.flatMap { PresetDirectories.presetFiles(in: $0) ?? [] }
            : files
        var output = Output(status: 0, standardOutput: [], standardError: [])
        for path in paths {
            do throws(PresetError) {
                let preset = try PresetFile.load(path: path)
                // Its samples must decode too, as they must to start with it or switch to it.
                try SampleFilesInUse.check(PresetEntry(preset: preset, file: path, origin: .file))
                output.standardOutput.append("ok \(path): \(preset.name), \(preset.tempo) BPM, \(preset.bar.meter)")
            } catch {
                output.standardError += error.messages
                output.status = OptionError.exitStatus
            }
        }
        if paths.isEmpty { output.standardError.append("tactus: no preset files to check") }
        return output
    }

    /// Columns padded to their widest cell, two spaces apart; the last column is not padded.
    static func table(header: [String], rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let cell = row[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
    }
}
