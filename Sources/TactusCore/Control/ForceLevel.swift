/// How hard the player presses, in the phone metronome's three zones (docs/DESIGN.md §5.2).
public enum ForceLevel: Int, Sendable, Hashable, Comparable, CaseIterable, BitwiseCopyable {
    /// Hardly touching: acceleration stops (the phone metronome: `level ≤ 0.03` → stop, docs/DESIGN.md §5.2).
    case rest
    /// A light press: ±1 BPM a step (the phone metronome's `taplevelSave = 1`, docs/DESIGN.md §5.4).
    case light
    /// A hard press: ±10 BPM a step, with a haptic click (the phone metronome's `level > 0.7`,
    /// `taplevelSave = 2`; docs/DESIGN.md §5.2).
    case strong

    public static func < (a: ForceLevel, b: ForceLevel) -> Bool { a.rawValue < b.rawValue }

    /// The level after reading force `f`, coming from `self`.
    ///
    /// Hysteresis, so that a 7-bit value wobbling by one step cannot chatter
    /// between two levels: a level is entered at its threshold but left only a
    /// little below it (docs/DESIGN.md §5.2: with 127 as the maximum, *strong* from
    /// v ≥ 89, back to *light* only at v ≤ 84; *light* from v ≥ 4, back to *rest*
    /// only at v ≤ 2).
    public func next(force f: Double, configuration c: PressureConfiguration) -> ForceLevel {
        switch self {
        case .rest:
            if f > c.strongThreshold { return .strong }
            return f >= c.lightThreshold ? .light : .rest
        case .light:
            if f > c.strongThreshold { return .strong }
            return f < c.lightRelease ? .rest : .light
        case .strong:
            if f > c.strongRelease { return .strong }
            return f < c.lightRelease ? .rest : .light
        }
    }
}
