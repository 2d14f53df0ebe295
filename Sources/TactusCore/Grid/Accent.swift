/// How one beat of the bar sounds.
public enum Accent: UInt8, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case silent = 0
    case normal = 1
    case accent = 2
    /// Between silent and normal: the beat sound at `Accent.softGain` (klick has no such level).
    case soft = 3

    /// A soft beat's gain against a normal one (−6 dB).
    public static let softGain: Float = 0.5

    /// The notation of `--accents`, presets and tempo maps: `X` accent, `x` normal, `o` soft, `.` silent
    /// (klick's `X`, `x` and `.` keep their meaning).
    public var symbol: Character {
        switch self {
        case .silent: "."
        case .normal: "x"
        case .accent: "X"
        case .soft: "o"
        }
    }

    public init?(symbol: Character) {
        switch symbol {
        case "X": self = .accent
        case "x": self = .normal
        case ".": self = .silent
        case "o": self = .soft
        default: return nil
        }
    }
}

/// The accent of every beat of a bar, packed two bits a beat so the pattern is
/// plain data the real-time thread can copy (up to `Meter.maximumBeats` beats).
public struct AccentPattern: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public private(set) var count: Int
    private var bits: UInt64

    /// First beat accented, the others normal: the usual metronome bar.
    public static func standard(beats: Int) -> AccentPattern {
        var p = AccentPattern(count: beats, bits: 0)
        for i in 0..<beats { p[i] = i == 0 ? .accent : .normal }
        return p
    }

    private init(count: Int, bits: UInt64) {
        self.count = count
        self.bits = bits
    }

    /// Parses "X.x.x..": one symbol a beat. Nil on an unknown symbol, empty or too long.
    public init?(_ text: String) {
        guard !text.isEmpty, text.count <= Meter.maximumBeats else { return nil }
        self.init(count: text.count, bits: 0)
        for (i, c) in text.enumerated() {
            guard let a = Accent(symbol: c) else { return nil }
            self[i] = a
        }
    }

    /// Beat `index` of the bar; a bar longer than the pattern repeats it.
    public subscript(index: Int) -> Accent {
        get { Accent(rawValue: UInt8((bits >> UInt64(2 * (index % count))) & 3)) ?? .normal }
        set {
            let shift = UInt64(2 * index)
            bits = (bits & ~(3 << shift)) | (UInt64(newValue.rawValue) << shift)
        }
    }

    public var description: String { String((0..<count).map { self[$0].symbol }) }
}
