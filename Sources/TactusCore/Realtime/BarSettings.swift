/// What a bar sounds like: meter, accents and subdivision. Plain data, so a preset
/// switch can travel to the render thread in one `EngineCommand`.
public struct BarSettings: Hashable, Sendable, BitwiseCopyable {
    public var meter: Meter
    public var accents: AccentPattern
    public var subdivision: Subdivision
    /// `--pulse`: the beat of the meter, or the dotted quarter of 6/8, 9/8 and 12/8.
    public var pulse: Pulse
    /// `--swing RATIO`: with eighths, the off-beat eighth at this fraction of
    /// the beat (0.5 straight, 2/3 the triplet shuffle); 0 when not given.
    public var swingRatio: Double = 0

    public init(meter: Meter = .fourFour, accents: AccentPattern? = nil, subdivision: Subdivision = .none, pulse: Pulse = .beat) {
        self.meter = meter
        self.accents = accents ?? .standard(beats: meter.beatsPerBar)
        self.subdivision = subdivision
        self.pulse = pulse
    }
}

/// What the beat sound marks in a bar (`--pulse`).
public enum Pulse: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// Every beat of the meter (its lower number).
    case beat
    /// In 6/8, 9/8 and 12/8, the dotted quarter: eighths 1, 4, 7 and 10 are
    /// the beats (with their accents), the eighths between them sound as
    /// subdivisions. Other meters click every beat.
    case dotted

    /// Whether a meter is grouped in dotted quarters: N/8 with N 6, 9 or 12.
    public static func isCompound(_ meter: Meter) -> Bool {
        // A switch, not an Array literal: this runs in `Engine.render` (no allocation).
        guard meter.beatUnit == 8 else { return false }
        switch meter.beatsPerBar {
        case 6, 9, 12: return true
        default: return false
        }
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
