/// Every sound the engine can play. Clicks go to the `click` output, cues of the
/// pressure controller (the source app's haptics made audible) to `feedback`.
public enum ClickSound: Int, Sendable, CaseIterable, BitwiseCopyable {
    /// The first beat of the bar (accent `X`).
    case accent
    /// Any other beat (accent `x`).
    case beat
    /// A click between the beats.
    case subdivision
    /// Force entered *strong* or left it for *light* (UIImpactFeedbackGenerator).
    case impact
    /// One strong step (UISelectionFeedbackGenerator).
    case selection
    /// The raw pressure reached the calibration maximum (the 0x1519 "peek" vibration of seed 001).
    case maximum
    /// A deep press committed the next preset.
    case commit

    public var isFeedback: Bool { rawValue >= ClickSound.impact.rawValue }
}
