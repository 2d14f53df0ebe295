/// Reads klick's tempo map format as klick reads it (klick's manual, "Tempo Map
/// File Format"):
///
///     [label:] bars [meter] tempo [pattern] [volume]
///
/// one entry a line, `#` to the end of the line a comment, blank lines ignored;
/// meter `N/D` (default 4/4); tempo `t`, `t1-t2` or `t1,t2,…` (one a beat) in
/// quarter notes a minute; pattern `X` accent, `x` normal, `o` soft (Tactus's, klick has none), `.` silent, one a
/// beat of the bar; volume a factor. Every mistake is one `TempoMapError` with
/// the line and column of the word at fault and what is allowed there; a map
/// with a mistake is not played at all.
public enum TempoMapParser {
    static let tempoAllowed = "a tempo from 1 to 999 quarter notes a minute: t, t1-t2 (a gradual change) or t1,t2,… (one a beat)"
    static let barsAllowed = "a whole number of bars from 1 to 100000"
    static let volumeAllowed = "a volume factor from 0 to 10 (klick's default 1.0)"
    static let meterAllowed = "a meter N/D with N from 1 to \(Meter.maximumBeats) and D one of 1, 2, 4, 8, 16, 32 (e.g. 7/8)"

    public static func parse(_ text: String, file: String) throws(TempoMapError) -> TempoMap {
        var sections: [MapSection] = []
        var labelLines: [String: Int] = [:]
        var lineNumber = 0
        // "\r\n" is one Character in Swift: a file written on Windows splits the same.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var words = self.words(of: line)
            guard !words.isEmpty else { continue }
            func fail(_ column: Int, _ message: String) -> TempoMapError {
                TempoMapError(file: file, line: lineNumber, column: column, message: message)
            }
            var label: String?
            if words[0].text.hasSuffix(":") {
                let name = String(words[0].text.dropLast())
                guard !name.isEmpty, !name.contains(":") else {
                    throw fail(words[0].column, "'\(words[0].text)' is not a label: a name followed by one colon (e.g. verse1:)")
                }
                if let first = labelLines[name] {
                    throw fail(words[0].column, "the label '\(name)' is already used on line \(first): each label names one entry")
                }
                labelLines[name] = lineNumber
                label = name
                words.removeFirst()
                guard !words.isEmpty else {
                    throw fail(line.count + 1, "the entry '\(name)' has no bars and tempo: [label:] bars [meter] tempo [pattern] [volume]")
                }
            }
            var rest = words[...]
            let barsWord = rest.removeFirst()
            guard let bars = Int(barsWord.text), (1...100_000).contains(bars) else {
                throw fail(barsWord.column, "'\(barsWord.text)' is not a bar count: \(barsAllowed)")
            }
            var meter = Meter.fourFour
            if let word = rest.first, word.text.contains("/") {
                guard let m = Meter(word.text) else { throw fail(word.column, "'\(word.text)' is not a meter: \(meterAllowed)") }
                meter = m
                rest.removeFirst()
            }
            guard let tempoWord = rest.first else {
                throw fail(line.count + 1, "the entry has no tempo: [label:] bars [meter] tempo [pattern] [volume]")
            }
            rest.removeFirst()
            let tempo = try self.tempo(tempoWord, beats: bars * meter.beatsPerBar, fail: fail)
            var accents: AccentPattern?
            if let word = rest.first, Double(word.text) == nil, word.text.contains(where: { "Xxo.".contains($0) }) {
                if let bad = word.text.firstIndex(where: { !"Xxo.".contains($0) }) {
                    let offset = word.text.distance(from: word.text.startIndex, to: bad)
                    throw fail(word.column + offset, "'\(word.text[bad])' is not a pattern symbol: X accent, x normal, o soft, . silent, one a beat")
                }
                guard word.text.count == meter.beatsPerBar, let a = AccentPattern(word.text) else {
                    throw fail(word.column, "the pattern '\(word.text)' has \(word.text.count) beats, a bar of \(meter) has \(meter.beatsPerBar): one symbol a beat")
                }
                accents = a
                rest.removeFirst()
            }
            var volume = 1.0
            if let word = rest.first {
                guard let v = Double(word.text) else {
                    throw fail(word.column, "'\(word.text)' is neither a pattern (X accent, x normal, o soft, . silent, one a beat) nor a volume (\(volumeAllowed))")
                }
                guard v.isFinite, (0...10).contains(v) else { throw fail(word.column, "the volume \(word.text) is out of range: \(volumeAllowed)") }
                volume = v
                rest.removeFirst()
            }
            if let extra = rest.first {
                throw fail(extra.column, "'\(extra.text)' is one word too many: [label:] bars [meter] tempo [pattern] [volume]")
            }
            sections.append(MapSection(label: label, bars: bars, meter: meter, tempo: tempo, accents: accents, volume: volume, line: lineNumber))
        }
        guard !sections.isEmpty else {
            throw TempoMapError(file: file, line: max(1, lineNumber), column: 1, message: "the map has no entries: one a line, [label:] bars [meter] tempo [pattern] [volume]")
        }
        return TempoMap(sections: sections)
    }

    /// `t`, `t1-t2` or `t1,t2,…` with `beats` values.
    static func tempo(_ word: Word, beats: Int, fail: (Int, String) -> TempoMapError) throws(TempoMapError) -> MapTempo {
        let text = word.text
        func value(_ part: Substring, at offset: Int) throws(TempoMapError) -> Double {
            guard let t = Double(part), t.isFinite else {
                throw fail(word.column + offset, "'\(part)' is not a tempo: \(tempoAllowed)")
            }
            guard (1...999).contains(t) else {
                throw fail(word.column + offset, "the tempo \(part) is out of range: \(tempoAllowed)")
            }
            return t
        }
        if text.contains(",") {
            var values: [Double] = []
            var offset = 0
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                values.append(try value(part, at: offset))
                offset += part.count + 1
            }
            guard values.count == beats else {
                throw fail(word.column, "\(values.count) tempi for an entry of \(beats) beats: one tempo a beat, bars × beats a bar")
            }
            return .perBeat(values)
        }
        // A '-' past the first character: a tempo cannot be negative, so "-120" is one bad value.
        if let dash = text.dropFirst().firstIndex(of: "-") {
            let from = try value(text[..<dash], at: 0)
            let toOffset = text.distance(from: text.startIndex, to: dash) + 1
            let to = try value(text[text.index(after: dash)...], at: toOffset)
            return from == to ? .constant(from) : .ramp(from: from, to: to)
        }
        return .constant(try value(text[...], at: 0))
    }

    struct Word {
        var text: String
        /// From 1, in characters.
        var column: Int
    }

    /// The words of a line before its `#`, with their columns.
    static func words(of line: Substring) -> [Word] {
        var words: [Word] = []
        var current = ""
        var start = 0
        var column = 0
        for c in line {
            column += 1
            if c == "#" { break }
            if c == " " || c == "\t" || c == "\r" {
                if !current.isEmpty { words.append(Word(text: current, column: start)) }
                current = ""
            } else {
                if current.isEmpty { start = column }
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(Word(text: current, column: start)) }
        return words
    }
}
