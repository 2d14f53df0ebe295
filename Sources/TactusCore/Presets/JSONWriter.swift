/// Writes a `JSONValue` as the preset files are written by hand: objects one key
/// a line, indented by two spaces, keys in the order given, numbers in their
/// shortest form ("120", "97.3", "0.665").
public enum JSONWriter {
    public static func text(of value: JSONValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let x): out += number(x)
        case .string(let s): out += quoted(s)
        case .array(let elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += ", " }
                write(e, indent: indent, into: &out)
            }
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            let inner = indent + "  "
            out += "{\n"
            for (i, m) in members.enumerated() {
                out += inner + quoted(m.key) + ": "
                write(m.value, indent: inner, into: &out)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }

    /// Integral values without a decimal point; others as Swift's shortest round-trip form.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return String(x)
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
