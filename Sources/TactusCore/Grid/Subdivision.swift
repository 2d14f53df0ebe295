/// Clicks between the beats.
public enum Subdivision: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case none
    case eighths
    case triplets
    case sixteenths
    /// Swung eighths: the off-beat click on the last third of the beat (a triplet shuffle).
    case swing

    /// Subdivision clicks stop from 300 BPM up and return below: the phone metronome
    /// switches its divide setting back to 1 when the tempo reaches 300 (docs/DESIGN.md §3.5).
    public static var cutoff: BPM { BPM(hundredths: 30_000) }

    /// The equal parts a beat is cut into (swing: thirds, of which only the last
    /// clicks); a click falls on every part `clicks(atPart:)` admits, always on a
    /// whole pulse: a beat of a D-th note is 384 / D pulses, divisible by 2, 3 and
    /// 4 for every D up to 32.
    public var divisions: Int {
        switch self {
        case .none: 1
        case .eighths: 2
        case .triplets, .swing: 3
        case .sixteenths: 4
        }
    }

    /// Whether the k-th of `divisions` equal parts of a beat (k ≥ 1) gets a click.
    public func clicks(atPart part: Int) -> Bool {
        switch self {
        case .swing: part == 2
        default: part > 0 && part < divisions
        }
    }
}
