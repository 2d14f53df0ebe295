/// What a sync output carries (docs/DESIGN.md §14): the pulses a device that
/// does not read MIDI clock counts, placed on the engine's grid like a click.
public enum SyncKind: Sendable, Equatable, Hashable, BitwiseCopyable {
    /// Teenage Engineering Pocket Operators in a sync-in mode (SY2–SY5): a pulse on every 8th note (§14.1).
    case pocketOperator
    /// Korg volca SYNC IN: 2 pulses a quarter note, 15 ms wide (§14.1).
    case volca
    /// DIN sync, Roland's 24 pulses a quarter note, with a run line (§14.2).
    case din24
    /// DIN sync at Korg's 48 pulses a quarter note, with a run line (§14.2).
    case din48
    /// A modular clock of N pulses a quarter note, with an optional reset line (§14.3).
    case ppqn(Int)

    /// The rates `ppqn:N` takes: each a whole number of the grid's 96 pulses a quarter note apart.
    public static let modularRates = [1, 2, 4, 8, 24, 48]

    /// What `--sync-out` accepts, for an error message and the help.
    public static let spellings = ["po", "volca", "din24", "din48"] + modularRates.map { "ppqn:\($0)" }

    /// `po`, `volca`, `din24`, `din48` or `ppqn:N` (N one of `modularRates`); nil for anything else.
    public init?(parsing text: String) {
        switch text {
        case "po": self = .pocketOperator
        case "volca": self = .volca
        case "din24": self = .din24
        case "din48": self = .din48
        default:
            guard text.hasPrefix("ppqn:"), let n = Int(text.dropFirst("ppqn:".count)), Self.modularRates.contains(n) else { return nil }
            self = .ppqn(n)
        }
    }

    /// The spelling `init(parsing:)` reads.
    public var spelling: String {
        switch self {
        case .pocketOperator: "po"
        case .volca: "volca"
        case .din24: "din24"
        case .din48: "din48"
        case .ppqn(let n): "ppqn:\(n)"
        }
    }

    public var pulsesPerQuarterNote: Int64 {
        switch self {
        case .pocketOperator, .volca: 2
        case .din24: 24
        case .din48: 48
        case .ppqn(let n): Int64(n)
        }
    }

    /// DIN sync's second signal: high while the song plays (§14.2).
    public var hasRunLine: Bool {
        switch self {
        case .din24, .din48: true
        default: false
        }
    }

    /// Grid pulses between two sync pulses (the grid has 96 a quarter note, docs/DESIGN.md §3.2).
    var gridPulsesApart: Int64 { Grid.pulsesPerQuarterNote / pulsesPerQuarterNote }
}

/// Where a modular reset line pulses (`--sync-reset`, docs/DESIGN.md §14.3).
public enum SyncReset: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// On every bar line, and at a locate.
    case bar
    /// No reset line.
    case off
}

/// A sync output's settings: the kind, the pulse width, the reset line.
public struct SyncSettings: Sendable, Hashable, BitwiseCopyable {
    public var kind: SyncKind
    /// The pulse width in milliseconds; nil: the kind's own (`defaultWidthMilliseconds`).
    public var widthMilliseconds: Double?
    /// Only `ppqn:N` has a reset line; other kinds ignore it.
    public var reset: SyncReset

    /// The width of `--sync-width` is from 0.1 ms (5 frames at 48 kHz) to 100 ms.
    public static let widthRange = 0.1...100.0

    public init(kind: SyncKind, widthMilliseconds: Double? = nil, reset: SyncReset = .off) {
        self.kind = kind
        self.widthMilliseconds = widthMilliseconds
        self.reset = reset
    }

    /// The kind's own width: 15 ms for a volca or a Pocket Operator (Korg's
    /// SYNC OUT pulse, §14.1), 5 ms for a modular trigger (§14.3); nil for DIN
    /// sync, whose clock is a square wave: high for half of each pulse's
    /// interval (§14.2).
    public static func defaultWidthMilliseconds(_ kind: SyncKind) -> Double? {
        switch kind {
        case .pocketOperator, .volca: 15
        case .din24, .din48: nil
        case .ppqn: 5
        }
    }

    /// The second line: DIN sync's run line, or a modular reset line.
    public var hasSecondLine: Bool { kind.hasRunLine || (isModular && reset == .bar) }

    /// Audio channels (JACK ports) the output needs: `sync`, and `sync_run` for a second line.
    public var channels: Int { hasSecondLine ? 2 : 1 }

    /// `ppqn:N`: a modular clock, the one kind with a reset line (§14.3).
    public var isModular: Bool {
        if case .ppqn = kind { return true }
        return false
    }

    /// Resets on bar lines and at a locate.
    var resetsOnBars: Bool { isModular && reset == .bar }

    /// The pulse width in frames at `sampleRate`, at least one frame; nil: half of each pulse's interval.
    func widthFrames(sampleRate: Int) -> Int64? {
        guard let ms = widthMilliseconds ?? Self.defaultWidthMilliseconds(kind) else { return nil }
        return max(1, Int64((ms * Double(sampleRate) / 1000).rounded()))
    }
}
