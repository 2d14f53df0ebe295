/// A preset and the file it came from.
public struct PresetEntry: Hashable, Sendable {
    public enum Origin: String, Hashable, Sendable {
        /// The installation's `Presets/`.
        case shipped
        /// `$XDG_CONFIG_HOME/tactus/presets/`.
        case user
        /// Named on the command line by its path.
        case file
    }

    public var preset: Preset
    public var file: String
    public var origin: Origin

    public init(preset: Preset, file: String, origin: Origin) {
        self.preset = preset
        self.file = file
        self.origin = origin
    }
}

/// The presets a musician can switch between, in list order.
///
/// List order: presets with a `program` number first, by that number; then the
/// others by name (case-insensitive). A set list (`--setlist`) replaces this
/// order with its own. Program Change n selects the preset whose `program` is n,
/// else the n-th preset of the list (counting from 0, as the Program Change
/// byte does; controllers usually display it as n + 1).
///
/// On a name clash (names compare case-insensitively) the user's preset hides
/// the shipped one; on a `program` clash the user's preset takes the number and
/// the shipped one is listed as if it had none (kept in `shippedProgramsTaken`).
/// Files that fail to load are skipped and kept in `problems`.
public struct PresetLibrary: Hashable, Sendable {
    public private(set) var entries: [PresetEntry]
    public private(set) var problems: [PresetError]
    /// Shipped presets as their files give them, whose `program` a user preset took.
    public private(set) var shippedProgramsTaken: [PresetEntry] = []

    /// Merges shipped and user presets (user wins on a name or program clash) and sorts them in list order.
    public init(shipped: [PresetEntry], user: [PresetEntry], problems: [PresetError] = []) {
        var problems = problems
        var byName: [String: PresetEntry] = [:]
        for group in [shipped, user] {
            var seen: [String: String] = [:]
            for entry in group {
                let key = entry.preset.name.lowercased()
                if let other = seen[key] {
                    problems.append(PresetError(file: entry.file, path: "name", problem: "\"\(entry.preset.name)\" is already the name of \(other), which is used",
                                                allowed: "a name no other preset in the folder has"))
                    continue
                }
                seen[key] = entry.file
                byName[key] = entry
            }
        }
        let userPrograms = Set(byName.values.filter { $0.origin == .user }.compactMap(\.preset.program))
        for (key, entry) in byName where entry.origin == .shipped {
            guard let program = entry.preset.program, userPrograms.contains(program) else { continue }
            shippedProgramsTaken.append(entry)
            byName[key]?.preset.program = nil
        }
        shippedProgramsTaken.sort { $0.file < $1.file }
        entries = byName.values.sorted(by: PresetLibrary.listOrder)
        var programs: [UInt7: String] = [:]
        for entry in entries {
            guard let program = entry.preset.program else { continue }
            if let other = programs[program] {
                problems.append(PresetError(file: entry.file, path: "program", problem: "program \(program) is also given to \"\(other)\", which comes first and gets it",
                                            allowed: "a program number no other preset has"))
            } else {
                programs[program] = entry.preset.name
            }
        }
        self.problems = problems
    }

    /// Presets with a program number first (by number), then by name.
    static func listOrder(_ a: PresetEntry, _ b: PresetEntry) -> Bool {
        switch (a.preset.program, b.preset.program) {
        case let (p?, q?) where p != q: return p < q
        case (_?, nil): return true
        case (nil, _?): return false
        default:
            let (x, y) = (a.preset.name.lowercased(), b.preset.name.lowercased())
            return x != y ? x < y : a.file < b.file
        }
    }

    /// Reads every `*.json` file of both folders (a missing folder is no error).
    public static func load(_ directories: PresetDirectories, loader: (String) throws(PresetError) -> Preset = { path throws(PresetError) in try PresetFile.load(path: path) }) -> PresetLibrary {
        var problems: [PresetError] = []
        func entries(in folder: String?, origin: PresetEntry.Origin) -> [PresetEntry] {
            guard let folder, let files = PresetDirectories.presetFiles(in: folder) else { return [] }
            return files.compactMap { file in
                do throws(PresetError) {
                    return PresetEntry(preset: try loader(file), file: file, origin: origin)
                } catch {
                    problems.append(error)
                    return nil
                }
            }
        }
        let shipped = entries(in: directories.shipped, origin: .shipped)
        let user = entries(in: directories.user, origin: .user)
        return PresetLibrary(shipped: shipped, user: user, problems: problems)
    }

    // MARK: - Finding presets

    /// The preset called `name`: an exact match, else the only case-insensitive one.
    public func index(named name: String) -> Int? {
        if let exact = entries.firstIndex(where: { $0.preset.name == name }) { return exact }
        let matches = entries.indices.filter { entries[$0].preset.name.lowercased() == name.lowercased() }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Program Change `program`: the preset that asks for this number, else the one at this place in the list.
    public func index(forProgram program: UInt7) -> Int? {
        if let explicit = entries.firstIndex(where: { $0.preset.program == program }) { return explicit }
        let position = Int(program.value)
        return position < entries.count ? position : nil
    }

    /// The Program Change number that reaches entry `index`, for the listing; nil if none does.
    public func programNumber(at index: Int) -> UInt7? {
        if let program = entries[index].preset.program, self.index(forProgram: program) == index { return program }
        guard let position = UInt7(index), self.index(forProgram: position) == index else { return nil }
        return position
    }

    /// The entry after `index` in list order, wrapping to the first (the deep press).
    public func index(after index: Int?) -> Int? {
        guard !entries.isEmpty else { return nil }
        guard let index else { return 0 }
        return (index + 1) % entries.count
    }

    /// `--preset NAME|PATH`: the preset of that name, else (when it has a `/`, ends
    /// in `.json` or is a file in the current folder) the file at that path. Names come first: "7/8 (2+2+3)" is a name.
    public func resolve(_ argument: String, loader: (String) throws(PresetError) -> Preset = { path throws(PresetError) in try PresetFile.load(path: path) }) throws(PresetError) -> PresetEntry {
        if let index = index(named: argument) { return entries[index] }
        guard argument.contains("/") || argument.lowercased().hasSuffix(".json") || FileSystem.isFile(argument) else {
            let near = Spelling.nearest(to: argument, among: entries.map(\.preset.name)).map { " (did you mean \($0)?)" } ?? ""
            throw PresetError(file: "--preset", problem: "no preset is named \"\(argument)\"\(near)",
                              allowed: "a preset name (tactus presets lists them) or the path of a preset file")
        }
        if let known = entries.first(where: { $0.file == argument }) { return known }
        return PresetEntry(preset: try loader(argument), file: argument, origin: .file)
    }

    // MARK: - Set lists

    /// The presets of `setlist`, in its order (a name may come back for a reprise).
    /// Every unknown name is an error naming its line.
    public func ordered(by setlist: Setlist) throws(PresetError) -> PresetLibrary {
        var chosen: [PresetEntry] = []
        var issues: [PresetIssue] = []
        for line in setlist.lines {
            if let index = index(named: line.name) {
                chosen.append(entries[index])
            } else {
                issues.append(PresetIssue(path: "line \(line.number)", problem: "no preset is named \"\(line.name)\"",
                                          allowed: "one preset name a line, as tactus presets lists them; # starts a comment"))
            }
        }
        if setlist.lines.isEmpty {
            issues.append(PresetIssue(path: "", problem: "the set list names no preset", allowed: "one preset name a line; # starts a comment"))
        }
        guard issues.isEmpty else { throw PresetError(file: setlist.file, issues: issues) }
        var ordered = self
        ordered.entries = chosen
        return ordered
    }
}
