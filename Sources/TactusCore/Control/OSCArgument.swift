/// One argument of an OSC message as it came off the wire, by its type tag
/// (OSC 1.0: `i` int32, `f` float32, `s` string; 1.1 and liblo add `h` int64,
/// `d` double, `T`/`F` true/false). Anything else keeps its tag, to be refused by name.
public enum OSCArgument: Sendable, Hashable {
    case int32(Int32)
    case float(Float)
    case int64(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    case other(tag: Character)

    /// The type tag it arrived with.
    public var tag: Character {
        switch self {
        case .int32: "i"
        case .float: "f"
        case .int64: "h"
        case .double: "d"
        case .string: "s"
        case .bool(let b): b ? "T" : "F"
        case .other(let tag): tag
        }
    }

    /// A number of any numeric type: a tablet sends floats for everything, a script ints.
    var number: Double? {
        switch self {
        case .int32(let v): Double(v)
        case .float(let v): Double(v)
        case .int64(let v): Double(v)
        case .double(let v): v
        case .bool(let b): b ? 1 : 0
        case .string, .other: nil
        }
    }
}
