import CLiblo
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// OSC messages to and from bytes, by liblo (`lo_message_deserialise`,
/// `lo_message_serialise`): liblo checks the padding, the type tags against
/// the data and the strings' terminators, so a malformed packet never reaches
/// `RemoteCommandParser`.
public enum OSCCodec {
    /// A packet liblo could not read: its path, when that much was readable
    /// (`lo_get_path` checks the string lies within the packet), and liblo's error code.
    public struct Malformed: Error {
        public var path: String?
        public var code: Int32
    }

    /// The path and arguments of one OSC message. A bundle, or bytes that are no
    /// message, are `Malformed` (Tactus takes messages, not bundles).
    public static func decode(_ bytes: UnsafeMutableRawBufferPointer) -> Result<(path: String, arguments: [OSCArgument]), Malformed> {
        guard let base = bytes.baseAddress, bytes.count >= 4 else { return .failure(Malformed(path: nil, code: 0)) }
        let pathStart = lo_get_path(base, bytes.count)
        let path = pathStart.map { String(cString: $0) }
        var result: Int32 = 0
        guard let message = lo_message_deserialise(base, bytes.count, &result) else {
            return .failure(Malformed(path: path?.hasPrefix("/") == true ? path : nil, code: result))
        }
        defer { lo_message_free(message) }
        let count = Int(lo_message_get_argc(message))
        var arguments: [OSCArgument] = []
        arguments.reserveCapacity(count)
        if count > 0, let tags = lo_message_get_types(message), let argv = lo_message_get_argv(message) {
            for i in 0..<count {
                guard let argument = argv[i] else { break }
                arguments.append(Self.argument(tag: UInt8(bitPattern: tags[i]), argument))
            }
        }
        return .success((path ?? "", arguments))
    }

    private static func argument(tag: UInt8, _ argument: UnsafeMutablePointer<lo_arg>) -> OSCArgument {
        switch tag {
        case UInt8(ascii: "i"): .int32(argument.pointee.i)
        case UInt8(ascii: "f"): .float(argument.pointee.f)
        case UInt8(ascii: "h"): .int64(argument.pointee.h)
        case UInt8(ascii: "d"): .double(argument.pointee.d)
        case UInt8(ascii: "s"), UInt8(ascii: "S"):
            // The union's `s` is the string's first byte; liblo checked its terminator.
            .string(String(cString: UnsafeRawPointer(argument).assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "T"): .bool(true)
        case UInt8(ascii: "F"): .bool(false)
        default: .other(tag: Character(UnicodeScalar(tag)))
        }
    }

    /// The bytes of a message of `int32`, `float` and `string` arguments (what Tactus sends).
    public static func encode(path: String, _ arguments: [OSCArgument]) -> [UInt8] {
        guard let message = lo_message_new() else { return [] }
        defer { lo_message_free(message) }
        for argument in arguments {
            switch argument {
            case .int32(let v): lo_message_add_int32(message, v)
            case .float(let v): lo_message_add_float(message, v)
            case .string(let s): lo_message_add_string(message, s)
            case .int64(let v): lo_message_add_int64(message, v)
            case .double(let v): lo_message_add_double(message, v)
            case .bool(let b): if b { lo_message_add_true(message) } else { lo_message_add_false(message) }
            case .other: break
            }
        }
        var size = 0
        guard let data = lo_message_serialise(message, path, nil, &size) else { return [] }
        defer { free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }
}
