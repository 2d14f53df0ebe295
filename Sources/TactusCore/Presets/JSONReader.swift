/// Reads JSON text (RFC 8259) into a `JSONValue`, and says where it is broken:
/// line and column, and what was expected there ("the file ends inside an
/// object: a closing } is missing").
///
/// Strict on purpose: no comments, no trailing commas, no duplicate keys (RFC
/// 8259 §4 leaves duplicates to the reader; a preset with two `tempo` keys is a
/// mistake worth reporting). Nesting is limited so a hostile file cannot exhaust
/// the stack.
public struct JSONReader {
    public struct SyntaxError: Error, Hashable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    public static let maximumDepth = 32

    private let bytes: [UInt8]
    private var offset = 0
    /// What we are inside, innermost last, to explain an early end of file.
    private var context: [String] = []
    /// The keys and indices down to the value being read (`positions` only).
    private var path: [String] = []
    /// Where each value starts, by dotted path; nil unless `positions` asked.
    private var starts: [String: Int]?

    /// Where each member's and element's value starts (1-based line and column),
    /// by its path as preset messages write it (`clock.offsetMs`, `sections[2].tempo`),
    /// as far as the text parses: so an error about a value can say where it is.
    public static func positions(_ bytes: [UInt8]) -> [String: (line: Int, column: Int)] {
        var reader = JSONReader(bytes: bytes)
        reader.starts = [:]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        _ = try? reader.value()
        return (reader.starts ?? [:]).mapValues { reader.position(at: $0) }
    }

    /// Records where the value at `component` (a key, or `[i]`) starts, reads it.
    private mutating func value(at component: String) throws(SyntaxError) -> JSONValue {
        guard starts != nil else { return try value() }
        path.append(component)
        defer { path.removeLast() }
        skipWhitespace()
        let dotted = path.dropFirst().reduce(path[0]) { $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
        starts?[dotted] = offset
        return try value()
    }

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        // A UTF-8 byte order mark is allowed before the text (RFC 8259 §8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        let value = try reader.value()
        reader.skipWhitespace()
        if reader.offset < bytes.count { throw reader.error("unexpected \(reader.describeNext()) after the end of the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: - Values

    private mutating func value() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw endOfFile(expecting: "a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(describeNext()) where a value was expected")
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        try enter("an object")
        offset += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; context.removeLast(); return .object(members) }
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw endOfFile(expecting: "a key") }
            guard byte == UInt8(ascii: "\"") else { throw error("unexpected \(describeNext()) where a key in double quotes was expected") }
            let keyOffset = offset
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                offset = keyOffset
                throw error("the key \"\(key)\" appears twice in the same object")
            }
            skipWhitespace()
            try expect(":", "a colon after the key \"\(key)\"")
            members.append(JSONMember(key, try value(at: key)))
            skipWhitespace()
            guard let next = peek() else { throw endOfFile(expecting: "a comma or }") }
            offset += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { offset -= 1; throw error("unexpected \(describeNext()) where a comma or } was expected") }
        }
        context.removeLast()
        return .object(members)
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        try enter("an array")
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { offset += 1; context.removeLast(); return .array(elements) }
        while true {
            elements.append(try value(at: "[\(elements.count)]"))
            skipWhitespace()
            guard let next = peek() else { throw endOfFile(expecting: "a comma or ]") }
            offset += 1
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else { offset -= 1; throw error("unexpected \(describeNext()) where a comma or ] was expected") }
        }
        context.removeLast()
        return .array(elements)
    }

    private mutating func string() throws(SyntaxError) -> String {
        context.append("a string")
        defer { context.removeLast() }
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw endOfFile(expecting: "a closing \"") }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("the string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0..<0x20:
                offset -= 1
                throw error("a control character (such as a line break) inside a string; write it as \\n or \\t")
            default:
                utf8.append(byte)
            }
        }
    }

    /// After a backslash: one of \" \\ \/ \b \f \n \r \t \uXXXX (with surrogate pairs).
    private mutating func escape(into utf8: inout [UInt8]) throws(SyntaxError) {
        guard let byte = peek() else { throw endOfFile(expecting: "an escape") }
        offset += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        if let replacement = simple[byte] { utf8.append(replacement); return }
        guard byte == UInt8(ascii: "u") else { offset -= 1; throw error("unknown escape \\\(describeNext()) inside a string") }
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                throw error("a \\u escape of a high surrogate must be followed by a low surrogate")
            }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a \\u escape of a high surrogate must be followed by a low surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("\\u escape of a lone surrogate") }
        utf8.append(contentsOf: String(Character(unicode)).utf8)
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw endOfFile(expecting: "four hex digits") }
            guard let digit = hexDigit(byte) else { throw error("unexpected \(describeNext()) in a \\u escape (four hex digits)") }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(SyntaxError) -> Double {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
            if digits() > 0 { throw error("a number may not start with 0 followed by more digits") }
        } else {
            guard digits() > 0 else { throw error("a number needs a digit after the minus sign") }
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw error("a number needs digits after the decimal point") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw error("the number \(text) is too large")
        }
        return value
    }

    private mutating func digits() -> Int {
        var n = 0
        while let b = peek(), b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { offset += 1; n += 1 }
        return n
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let start = offset
        for expected in word.utf8 {
            guard let b = peek() else { throw endOfFile(expecting: word) }
            guard b == expected else {
                offset = start
                throw error("unexpected \(describeNext()) where a value was expected (text needs double quotes; true, false and null are the only bare words)")
            }
            offset += 1
        }
    }

    // MARK: - Helpers

    private mutating func enter(_ container: String) throws(SyntaxError) {
        guard context.count < JSONReader.maximumDepth else { throw error("nesting deeper than \(JSONReader.maximumDepth) levels") }
        context.append(container)
    }

    private mutating func expect(_ character: Character, _ what: String) throws(SyntaxError) {
        guard let b = peek() else { throw endOfFile(expecting: what) }
        guard b == character.asciiValue else { throw error("unexpected \(describeNext()) where \(what) was expected") }
        offset += 1
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let b = peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
    }

    /// The next character for a message: 'x', or "end of file".
    private func describeNext() -> String {
        guard offset < bytes.count else { return "end of file" }
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        return "'\(text)'"
    }

    private func endOfFile(expecting what: String) -> SyntaxError {
        if let inside = context.last {
            return error("the file ends inside \(inside) (expected \(what)): it is truncated")
        }
        return error("the file ends where \(what) was expected")
    }

    /// An error at the current offset, with 1-based line and column (columns count characters).
    private func error(_ message: String) -> SyntaxError {
        let (line, column) = position(at: offset)
        return SyntaxError(line: line, column: column, message: message)
    }

    private func position(at offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
