#if canImport(Glibc)
import Glibc
#endif
import TactusJACK

/// A tiny option reader for the probe's modes: `--name value`, flags, positionals.
struct Arguments {
    private var items: [String]

    init(_ items: ArraySlice<String>) { self.items = Array(items) }

    /// Removes and returns every value of `name` (repeatable options).
    mutating func values(_ names: String...) -> [String] {
        var found: [String] = []
        var i = 0
        while i < items.count {
            if names.contains(items[i]), i + 1 < items.count {
                found.append(items[i + 1])
                items.removeSubrange(i...(i + 1))
            } else {
                i += 1
            }
        }
        return found
    }

    mutating func value(_ names: String...) -> String? {
        var found: [String] = []
        for name in names { found += values(name) }
        return found.last
    }

    mutating func flag(_ name: String) -> Bool {
        guard let i = items.firstIndex(of: name) else { return false }
        items.remove(at: i)
        return true
    }

    /// What is left after the options were taken.
    var positionals: [String] { items }
}

func fail(_ message: String) -> Never {
    StandardError.line("tactus-jack-probe: \(message)")
    exit(2)
}
