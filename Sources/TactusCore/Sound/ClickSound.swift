/// Every sound the engine can play. Clicks go to the `click` output, cues of the
/// pressure controller (the phone metronome's haptics made audible, docs/DESIGN.md §5.6) to `feedback`.
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
    /// The raw pressure reached the calibration maximum (the scales article's system sound 1519, docs/DESIGN.md §5.6).
    case maximum
    /// A deep press committed the next preset.
    case commit

    public var isFeedback: Bool { rawValue >= ClickSound.impact.rawValue }
}
