/// Turns the bytes a terminal in raw mode sends into `KeyAction`s.
///
/// Arrow keys arrive as escape sequences: CSI `ESC [ A`…`D` in the normal cursor
/// mode, SS3 `ESC O A`…`D` in application mode (ECMA-48 / xterm "PC-style"
/// cursor keys), possibly with parameters for modifiers (`ESC [ 1 ; 2 A` is
/// Shift+↑, taken as ↑). Any other sequence (function keys, Home, mouse) is
/// read to its final byte and ignored, so its letters are never taken for
/// keys. A sequence may be split across reads: the decoder keeps its state.
/// Ctrl-C is byte 0x03 because raw mode turns off the terminal's signals.
public struct KeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        /// ESC seen.
        case escape
        /// ESC [ or ESC O seen, then parameter bytes.
        case sequence(introducer: UInt8)
    }

    private var state = State.ground
    /// After `=`: digits, `.` and Backspace edit a tempo until Enter; after `w`, a name.
    private enum Entry: Sendable { case tempo, name }
    private var entry: Entry?

    public init() {}

    /// Whether an escape sequence is incomplete (the reader flushes it after a pause).
    public var isInsideSequence: Bool {
        if case .ground = state { return false }
        return true
    }

    /// The actions in `bytes`, in order.
    public mutating func decode<Bytes: Sequence>(_ bytes: Bytes) -> [KeyAction] where Bytes.Element == UInt8 {
        var actions: [KeyAction] = []
        for byte in bytes {
            if let action = decode(byte) { actions.append(action) }
        }
        return actions
    }

    /// One byte; the action it completes, if any.
    public mutating func decode(_ byte: UInt8) -> KeyAction? {
        switch state {
        case .ground:
            return plain(byte)
        case .escape:
            if byte == ASCII.leftBracket || byte == ASCII.capitalO {
                state = .sequence(introducer: byte)
                return nil
            }
            // A lone ESC (the Escape key, or Alt+key): dropped, the byte is itself.
            state = .ground
            return byte == ASCII.escape ? enterEscape() : plain(byte)
        case .sequence:
            // Parameter and intermediate bytes 0x20–0x3F; the final byte 0x40–0x7E ends it.
            if (0x20...0x3F).contains(byte) { return nil }
            state = .ground
            switch byte {
            case UInt8(ascii: "A"): return .tempoStep(10)
            case UInt8(ascii: "B"): return .tempoStep(-10)
            case UInt8(ascii: "C"): return .tempoStep(1)
            case UInt8(ascii: "D"): return .tempoStep(-1)
            case ASCII.escape: return enterEscape()
            default: return nil
            }
        }
    }

    /// Ends an incomplete escape sequence (no more bytes came): nothing comes of it.
    public mutating func flush() {
        state = .ground
    }

    private mutating func enterEscape() -> KeyAction? {
        state = .escape
        return nil
    }

    private mutating func plain(_ byte: UInt8) -> KeyAction? {
        if let entry { return typing(byte, entry) }
        switch byte {
        case ASCII.escape: return enterEscape()
        case UInt8(ascii: " "): return .startStop
        case UInt8(ascii: "t"), UInt8(ascii: "T"): return .tap
        case UInt8(ascii: "["): return .previousPreset
        case UInt8(ascii: "]"): return .nextPreset
        case UInt8(ascii: "m"), UInt8(ascii: "M"): return .toggleMute
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), ASCII.endOfText: return .quit
        case UInt8(ascii: "1")...UInt8(ascii: "9"): return .beatsPerBar(Int(byte - UInt8(ascii: "0")))
        case UInt8(ascii: "0"): return .beatsPerBar(10)
        case UInt8(ascii: "="):
            entry = .tempo
            return .beginTempoEntry
        case UInt8(ascii: "w"), UInt8(ascii: "W"):
            entry = .name
            return .beginNameEntry
        case UInt8(ascii: "s"), UInt8(ascii: "S"): return .cycleSubdivision
        case UInt8(ascii: "+"): return .volumeStep(1)
        case UInt8(ascii: "-"): return .volumeStep(-1)
        case UInt8(ascii: "<"), UInt8(ascii: ","): return .moveBeatCursor(-1)
        case UInt8(ascii: ">"), UInt8(ascii: "."): return .moveBeatCursor(1)
        case UInt8(ascii: "a"), UInt8(ascii: "A"): return .cycleAccent
        default: return nil
        }
    }

    /// A byte while a tempo is typed. Enter is CR in raw mode (ICRNL is off), LF from a pipe.
    private mutating func typing(_ byte: UInt8, _ kind: Entry) -> KeyAction? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."): return .entryCharacter(byte)
        case 0x20...0x7E where kind == .name: return .entryCharacter(byte)
        case 0x7F, 0x08: return .entryBackspace
        case 0x0D, 0x0A:
            entry = nil
            return .entryDone
        case ASCII.endOfText:
            entry = nil
            return .quit
        default:
            entry = nil
            return .entryCancel
        }
    }
}

enum ASCII {
    static let escape: UInt8 = 0x1B
    /// Ctrl-C.
    static let endOfText: UInt8 = 0x03
    static let leftBracket = UInt8(ascii: "[")
    static let capitalO = UInt8(ascii: "O")
}
