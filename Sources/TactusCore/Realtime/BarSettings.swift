/// What a bar sounds like: meter, accents and subdivision. Plain data, so a preset
/// switch can travel to the render thread in one `EngineCommand`.
public struct BarSettings: Hashable, Sendable, BitwiseCopyable {
    public var meter: Meter
    public var accents: AccentPattern
    public var subdivision: Subdivision

    public init(meter: Meter = .fourFour, accents: AccentPattern? = nil, subdivision: Subdivision = .none) {
        self.meter = meter
        self.accents = accents ?? .standard(beats: meter.beatsPerBar)
        self.subdivision = subdivision
    }
}

/// Output gains, linear, per kind of sound.
public struct SoundGains: Hashable, Sendable, BitwiseCopyable {
    public var accent: Float = 1
    public var beat: Float = 1
    public var subdivision: Float = 1
    public var feedback: Float = 1
    /// Applies to the click output as a whole (`--gain`).
    public var master: Float = 1

    public init(accent: Float = 1, beat: Float = 1, subdivision: Float = 1, feedback: Float = 1, master: Float = 1) {
        self.accent = accent
        self.beat = beat
        self.subdivision = subdivision
        self.feedback = feedback
        self.master = master
    }

    func gain(for sound: ClickSound) -> Float {
        switch sound {
        case .accent: accent * master
        case .beat: beat * master
        case .subdivision: subdivision * master
        default: feedback
        }
    }
}

/// Where a bar change (preset switch) takes effect.
public enum SwitchPoint: Sendable, BitwiseCopyable {
    /// The next bar line: the musician hears a whole bar of the old setting.
    case nextBar
    /// The next beat (`--switch now`).
    case nextBeat
}
