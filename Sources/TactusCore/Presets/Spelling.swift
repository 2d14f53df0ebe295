/// The word a typo most likely meant, for "did you mean …?" hints: in preset
/// files (an unknown key) and on the command line (an unknown option or command).
public enum Spelling {
    /// The candidate nearest to `typed`, case aside, when at most `maximumEdits`
    /// letters must be added, dropped or changed to reach it, or to reach its
    /// first camelCase word (`ofset` meant `offsetMs`); the first of equals.
    public static func nearest(to typed: String, among candidates: some Sequence<String>, maximumEdits: Int = 2) -> String? {
        let word = Array(typed.lowercased())
        var best: (candidate: String, edits: Int)?
        for candidate in candidates {
            // A camelCase key's first word is its name without the unit (`offsetMs`: `offset`).
            let head = candidate.prefix { !$0.isUppercase }
            let edits = min(editDistance(word, Array(candidate.lowercased())),
                            head.count >= 4 && head.count < candidate.count ? editDistance(word, Array(head)) : Int.max)
            if edits <= maximumEdits, edits < (best?.edits ?? Int.max) { best = (candidate, edits) }
        }
        return best?.candidate
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
