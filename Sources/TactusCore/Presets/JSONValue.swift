/// A JSON value exactly as a preset file holds it, object keys in file order.
///
/// Presets are read into this first and then checked field by field (see
/// `PresetSchema`), because synthesized `Codable` silently ignores unknown keys
/// and reports poor paths, and a musician with a typo in `strongTreshold` must be
/// told which key is wrong.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order; duplicates are refused by the reader.
    case object([JSONMember])

    /// "a string", "a number": for "found … instead" messages.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true/false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value for an error message: short, on one line.
    public var excerpt: String {
        switch self {
        case .array, .object: return kind
        default:
            let text = JSONWriter.text(of: self)
            return text.count > 40 ? String(text.prefix(37)) + "…" : text
        }
    }
}

public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
