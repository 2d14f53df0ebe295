/// A set list (`--setlist FILE`): one preset name a line, in the order of the
/// gig. A line whose first visible character is `#` is a comment; blank lines
/// are ignored; spaces around a name are not part of it (so a name may contain `#`).
public struct Setlist: Hashable, Sendable {
    public struct Line: Hashable, Sendable {
        /// 1-based line number in the file, for messages.
        public var number: Int
        public var name: String
    }

    public var file: String
    public var lines: [Line]

    public init(text: String, file: String) {
        self.file = file
        lines = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let name = trimmed(raw)
            guard !name.isEmpty, !name.hasPrefix("#") else { continue }
            lines.append(Line(number: index + 1, name: name))
        }
    }

    /// Set lists are short; a larger file is a mistake (the wrong file given).
    public static let maximumFileSize = 1 << 20

    public static func load(path: String) throws(PresetError) -> Setlist {
        let bytes = try PresetFile.read(path: path, limit: maximumFileSize)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PresetError(file: path, problem: "the file is not UTF-8 text", allowed: "one preset name a line")
        }
        return Setlist(text: text, file: path)
    }
}

/// `text` without the spaces and tabs around it.
private func trimmed(_ text: Substring) -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
    return String(text[first...last])
}
