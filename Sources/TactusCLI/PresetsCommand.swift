import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// `tactus presets` lists the presets in list order (the order Program Change
/// and the deep press use) with the Program Change number that reaches each;
/// `tactus presets check [FILE|NAME…]` validates preset files (every file of
/// both preset folders when none is given) and prints every error of each at
/// once, exit status 2 if there was any.
///
/// The text is built by `output`, apart from printing, so tests check it directly.
public enum PresetsCommand {
    public struct Output: Equatable, Sendable {
        public var status: Int32
        public var standardOutput: [String]
        public var standardError: [String]
        /// Both streams' lines in the order they were said (`check`: file by
        /// file), true for standard error; empty: the output first, then the errors.
        var order: [Bool] = []

        public static func == (a: Output, b: Output) -> Bool {
            a.status == b.status && a.standardOutput == b.standardOutput && a.standardError == b.standardError
        }

        mutating func say(_ line: String) { standardOutput.append(line); order.append(false) }
        mutating func warn(_ lines: [String]) { standardError += lines; order += lines.map { _ in true } }
    }

    public static func run(_ options: Options) -> Int32 {
        let result = output(options, directories: .standard(environment: ProcessEnvironment.current,
                                                               executablePath: PresetDirectories.currentExecutable))
        guard !result.order.isEmpty else {
            for line in result.standardOutput { print(line) }
            for line in result.standardError { printError(line) }
            return result.status
        }
        // Standard output is buffered when piped (`| cat`) and standard error is not: all
        // flushed before each error line, the lines keep their order on a terminal or in one file.
        var out = result.standardOutput.makeIterator(), err = result.standardError.makeIterator()
        for isError in result.order {
            if isError, let line = err.next() {
                fflush(nil)
                printError(line)
            } else if !isError, let line = out.next() {
                print(line)
            }
        }
        fflush(nil)
        return result.status
    }

    public static func output(_ options: Options, directories: PresetDirectories) -> Output {
        switch options.arguments.first {
        case nil:
            return list(directories: directories, setlist: options.setlist, namesOnly: options.presetNamesOnly)
        case "check":
            return check(Array(options.arguments.dropFirst()), directories: directories)
        case let other?:
            return Output(status: OptionError.exitStatus, standardOutput: [],
                          standardError: ["tactus: presets: unknown argument '\(other)': tactus presets [check FILE|NAME...]"])
        }
    }

    /// The table: program number, name, tempo, meter, file; skipped files on standard error.
    /// `namesOnly` (`--names`): one name a line in list order, nothing on standard error,
    /// so a shell's completion never prints a damaged file's errors under the prompt.
    static func list(directories: PresetDirectories, setlist: String?, namesOnly: Bool = false) -> Output {
        var library = PresetLibrary.load(directories)
        if namesOnly { return Output(status: 0, standardOutput: library.entries.map(\.preset.name), standardError: []) }
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

    /// One `ok` line per good file on standard output, every error of every file
    /// (its fields, its sample files, their decoding) and every warning on
    /// standard error. An argument is a preset's name (as `--preset` takes it) or a file.
    static func check(_ arguments: [String], directories: PresetDirectories) -> Output {
        let library = PresetLibrary.load(directories)
        let paths = arguments.isEmpty
            ? [directories.shipped, directories.user].compactMap { $0 }.flatMap { PresetDirectories.presetFiles(in: $0) ?? [] }
            : arguments.map { argument in library.index(named: argument).map { library.entries[$0].file } ?? argument }
        var output = Output(status: 0, standardOutput: [], standardError: [])
        for (index, path) in paths.enumerated() {
            do throws(PresetError) {
                if !arguments.isEmpty { try refuseUnknownName(arguments[index], path: path, library: library) }
                let (preset, fieldIssues) = try PresetFile.inspect(path: path)
                let issues = fieldIssues + undecodableSamples(of: preset, file: path, besides: fieldIssues)
                guard issues.isEmpty else { throw PresetError(file: path, issues: issues) }
                output.say("ok \(path): \(preset.name), \(preset.tempo) BPM, \(preset.bar.meter)")
                output.warn(programWarnings(preset, file: path, library: library))
            } catch {
                output.warn(located(error))
                output.status = OptionError.exitStatus
            }
        }
        if paths.isEmpty { output.warn(["tactus: no preset files to check"]) }
        return output
    }

    /// Each issue about a field with the line and column of its value, as a
    /// syntax error has them (`line 3, column 12: tempo: 1200 is out of range`);
    /// a field not in the file (one required, left out) at the object it belongs to.
    static func located(_ error: PresetError) -> [String] {
        guard let bytes = try? FileSystem.read(error.file, limit: Preset.maximumFileSize) else { return error.messages }
        let positions = JSONReader.positions(bytes)
        return error.issues.map { issue in
            var path = issue.path
            while !path.isEmpty && positions[path] == nil {
                path = String(path[..<(path.lastIndex { $0 == "." || $0 == "[" } ?? path.startIndex)])
            }
            guard !issue.path.isEmpty, !issue.problem.hasPrefix("line ") else { return "\(error.file): \(issue)" }
            let (line, column) = positions[path] ?? (1, 1)
            return "\(error.file): line \(line), column \(column): \(issue)"
        }
    }

    /// A word that is neither a preset's name nor a file (no `/`, no `.json`, nothing there): a name mistyped.
    private static func refuseUnknownName(_ argument: String, path: String, library: PresetLibrary) throws(PresetError) {
        guard path == argument, !argument.contains("/"), !argument.lowercased().hasSuffix(".json"), access(argument, F_OK) != 0 else { return }
        let near = Spelling.nearest(to: argument, among: library.entries.map(\.preset.name)).map { " (did you mean \($0)?)" } ?? ""
        throw PresetError(file: argument, problem: "no preset is named \"\(argument)\" and there is no such file\(near)",
                          allowed: "a preset name (tactus presets lists them) or a preset file")
    }

    /// Its samples must decode too, as they must to start with it or switch to
    /// it: each file that exists (`besides` already says which do not) is read.
    private static func undecodableSamples(of preset: Preset, file: String, besides issues: [PresetIssue]) -> [PresetIssue] {
        let entry = PresetEntry(preset: preset, file: file, origin: .file)
        let files = entry.sampleFiles()
        var found: [PresetIssue] = []
        for (key, sound) in PresetFile.sampleKeys where files[sound] != nil && !issues.contains(where: { $0.path == "sounds." + key }) {
            do throws(PresetError) {
                try SampleFilesInUse.check(entry, except: files.filter { $0.key != sound })
            } catch {
                found += error.issues
            }
        }
        return found
    }

    /// The preset's `program` is another's too: who gets it. Not an error: a user
    /// preset is meant to be able to take a shipped one's number.
    private static func programWarnings(_ preset: Preset, file: String, library: PresetLibrary) -> [String] {
        guard let program = preset.program else { return [] }
        let others = (library.entries + library.shippedProgramsTaken).filter { $0.file != file && $0.preset.program == program }
        guard !others.isEmpty, let winner = library.index(forProgram: program).map({ library.entries[$0] }) else { return [] }
        let gets = winner.file == file ? "this preset gets it" : "\"\(winner.preset.name)\" gets it"
        let rule = library.shippedProgramsTaken.contains { $0.preset.program == program } ? " (a user preset wins over a shipped one)" : ""
        return others.map { other in
            "warning: \(file): program: \(program) is also the program of \(other.origin.rawValue) preset \"\(other.preset.name)\" (\(other.file)); \(gets)\(rule)"
        }
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
