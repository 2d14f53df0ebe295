/// The DSP load as the display shows it: whole percent, moved only when the
/// reading is a full point away from the number shown. `jack_cpu_load` of an
/// idle server wobbles around a value like 0.9 ↔ 1.3 %; plain rounding would
/// flip the digit and redraw the screen on its own, and the rule "no redraw
/// when nothing changes" would not hold.
public struct DSPLoadReading: Sendable {
    public private(set) var shown: Int?

    public init() {}

    /// The percent to show after reading `load` (percent).
    public mutating func update(_ load: Double) -> Int {
        let load = load.isFinite ? max(0, load) : 0
        if let shown, abs(load - Double(shown)) < 1 { return shown }
        let rounded = Int(load.rounded())
        shown = rounded
        return rounded
    }
}
