/// A tempo in beats per minute, held in hundredths so that the engine's 0.01 BPM
/// resolution is exact and a tempo fits one atomic word.
///
/// The beat is the meter's denominator note: 7/8 at 133 BPM means 133 eighth notes
/// a minute, as on a printed metronome marking. The range 1–999 BPM is the one
/// docs/DESIGN.md §3.1 gives, limits included.
public struct BPM: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public static let minimum = BPM(hundredths: 100)
    public static let maximum = BPM(hundredths: 99_900)
    public static let range: ClosedRange<BPM> = minimum...maximum

    /// Tempo × 100, always within 100...99 900.
    public let hundredths: Int32

    /// Clamps to 1–999 BPM: the controller's steps saturate at the range limits.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public init(hundredths: Int32) {
        self.hundredths = min(max(hundredths, 100), 99_900)
    }

    /// Rounds to the nearest 0.01 BPM and clamps to 1–999.
    public init(_ value: Double) {
        let scaled = (value * 100).rounded()
        self.init(hundredths: scaled.isFinite ? Int32(max(min(scaled, 1e9), -1e9)) : 100)
    }

    /// Nil when `value` is outside 1–999 or not finite: for validating user input.
    public init?(exactly value: Double) {
        guard value.isFinite, value >= 1, value <= 999 else { return nil }
        self.init(value)
    }

    @inlinable public var value: Double { Double(hundredths) / 100 }

    /// Whole BPM when integral, else two decimals: "120", "97.30".
    public var description: String {
        if hundredths % 100 == 0 { return String(hundredths / 100) }
        let cents = hundredths % 100
        return "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// Moves by `delta` BPM, clamped to the range.
    public func adding(_ delta: Double) -> BPM {
        BPM(hundredths: Int32(clamping: Int(hundredths) + Int((delta * 100).rounded())))
    }

    public static func < (a: BPM, b: BPM) -> Bool { a.hundredths < b.hundredths }
}
