import TactusCore

/// Parses `tactus [COMMAND] [OPTIONS] [ARGUMENTS]` in the style of JACK tools:
/// short `-n NAME` or `-b97.3`, long `--bpm 120` or `--bpm=120`, `--` ends options.
/// The command is the first word that is neither an option nor an option's
/// value, so `tactus --bpm 130 render x.wav` renders at 130; an option the
/// command does not take is an error naming the command it belongs to. The
/// options themselves are `OptionTable`.
public enum OptionParser {
    public static func parse(_ words: [String]) throws(OptionError) -> Options {
        var options = Options()
        var positional: [String] = []
        var given: [(name: String, spec: OptionSpec)] = []
        var rest = words[...]
        var onlyArguments = false
        while let word = rest.popFirst() {
            if onlyArguments || !word.hasPrefix("-") || word == "-" {
                if positional.isEmpty, !options.commandGiven, !onlyArguments, let command = Options.Command(rawValue: word) {
                    options.command = command
                    options.commandGiven = true
                } else {
                    positional.append(word)
                }
                continue
            }
            if word == "--" { onlyArguments = true; continue }
            let (name, attached) = split(word)
            guard let spec = OptionTable.byName[name] else { throw unknown(name) }
            var value: String?
            if spec.takesValue {
                if let attached {
                    value = attached
                } else if let next = rest.popFirst() {
                    value = next
                } else {
                    throw OptionError("tactus: \(name) needs a value: \(spec.allowed)")
                }
            } else if attached != nil {
                throw OptionError("tactus: \(name) takes no value")
            }
            do {
                try spec.apply(&options, value ?? "", name)
            } catch {
                // A word mistyped among a few: the one it most likely meant (not for
                // numbers: 7/9 is no typo of 7/8, nor 8 of 16).
                guard let value, value.contains(where: \.isLetter), let near = Spelling.nearest(to: value, among: spec.choices), near != value else { throw error }
                throw OptionError(error.message + " (did you mean \(near)?)", status: error.status)
            }
            given.append((name, spec))
        }
        if options.command == .run {
            try RunArguments.read(positional, into: &options)
        } else {
            options.arguments = positional
        }
        for (name, spec) in given where !spec.commands.contains(options.command) {
            throw misplaced(name, spec, options)
        }
        return options
    }

    /// `--bpm=97.3` and `-b97.3` into the name and the value written with it.
    static func split(_ word: String) -> (name: String, attached: String?) {
        if word.hasPrefix("--") {
            guard let eq = word.firstIndex(of: "=") else { return (word, nil) }
            return (String(word[..<eq]), String(word[word.index(after: eq)...]))
        }
        guard word.count > 2 else { return (word, nil) }
        let nameEnd = word.index(word.startIndex, offsetBy: 2)
        return (String(word[..<nameEnd]), String(word[nameEnd...]))
    }

    /// An unknown option, with the long option it most likely meant.
    static func unknown(_ name: String) -> OptionError {
        if ["--man", "--manual", "-man"].contains(name.lowercased()) {
            return OptionError("tactus: unknown option '\(name)': " + Help.whereIsTheManual)
        }
        if name.count > 2, let near = Spelling.nearest(to: name, among: OptionTable.all.map(\.long)) {
            return OptionError("tactus: unknown option '\(name)' (did you mean \(near)?)")
        }
        return OptionError("tactus: unknown option '\(name)' (tactus --help lists them)")
    }

    /// An option given to a command that does not take it: where it belongs.
    static func misplaced(_ name: String, _ spec: OptionSpec, _ options: Options) -> OptionError {
        let owners = Options.Command.allCases.filter { spec.commands.contains($0) }.map(\.rawValue)
        let list = owners.count > 1 ? owners.dropLast().joined(separator: ", ") + " and " + owners.last! : owners.joined()
        let command = options.command.rawValue + (options.commandGiven ? "" : " (no command given: tactus runs the metronome)")
        return OptionError("tactus: \(name) is not an option of \(command): it belongs to \(list) (tactus \(owners[0]) --help)")
    }
}
