/// Every setting of the pressure controller (docs/DESIGN.md §5), with the phone metronome's
/// defaults. Times in seconds, forces as fractions of the calibrated maximum.
///
/// Shared by the controller (Control/), presets (`pressure` object of a preset
/// file) and the command line; owned by the pressure-control work.
public struct PressureConfiguration: Hashable, Sendable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Two force levels, light and strong, stepping ±1 / ±10 (the phone metronome, docs/DESIGN.md §5.4).
        case levels
        /// The force sets a rate in BPM per second along `continuousCurve`.
        case continuous
    }

    public enum Curve: String, Sendable, Hashable, CaseIterable {
        case linear, exponential, logarithmic
    }

    public var mode: Mode = .levels
    /// nil: omni, every channel counts.
    public var channel: MIDIChannel? = nil
    /// Control keys, reachable on a 25-key controller in its default octave (C3–C5 with C4 = 60).
    public var upKey = UInt7(72)!
    public var downKey = UInt7(71)!
    public var presetKey = UInt7(70)!

    /// Tempo change of a tap (Note On), BPM.
    public var tapStep: Double = 1
    /// Enter *light* at f ≥ lightThreshold; fall back to *rest* only at f < lightRelease
    /// (of 127: light from 4, rest again only at 2 or below).
    public var lightThreshold: Double = 0.03
    public var lightRelease: Double = 0.02
    /// Enter *strong* at f > strongThreshold; fall back to *light* only at f ≤ strongRelease
    /// (of 127: strong from 89, light again only at 84 or below).
    public var strongThreshold: Double = 0.70
    public var strongRelease: Double = 0.665
    /// Nothing happens for this long after Note On: the phone metronome's 4 ignored ticks
    /// of 80 ms (it stepped first at 0.24 s; docs/DESIGN.md §5.4).
    public var holdDelay: Double = 0.32
    /// The phone metronome's force timer period (docs/DESIGN.md §5.4).
    public var stepTimer: Double = 0.08
    /// A force step every this many timer ticks (the phone metronome's `buttonCounter % 2 == 0`,
    /// docs/DESIGN.md §5.4).
    public var ticksPerStep: Int = 2
    public var lightStep: Double = 1
    public var strongStep: Double = 10

    /// Long press (no aftertouch): from `longPressDelay`, a step every `longPressInterval`.
    public var longPressDelay: Double = 0.5
    public var longPressInterval: Double = 0.1
    /// ±1 for steps 0..<20, ±2 for 20..<65, ±5 after (docs/DESIGN.md §5.5).
    public var longPressSlowSteps: Int = 20
    public var longPressMediumSteps: Int = 65
    public var longPressSlowAmount: Double = 1
    public var longPressMediumAmount: Double = 2
    public var longPressFastAmount: Double = 5

    /// Continuous mode: rate at the light threshold and at full force, BPM per second.
    public var continuousMinimumRate: Double = 2
    public var continuousMaximumRate: Double = 60
    public var continuousCurve: Curve = .linear

    /// Deep press on the preset key (docs/DESIGN.md §5.8): hold ≥ this, then pass `deepPressThreshold`.
    public var deepPressMinimumHold: Double = 0.2
    public var deepPressThreshold: Double = 0.75

    /// Calibration of the controller's pressure sensor.
    public var calibration = Calibration()

    /// A control key with no Note Off is released after this long (seconds) without
    /// any message from it (Note On or pressure); 0 or less: never.
    public var stuckKeyTimeout: Double = 10

    public struct Calibration: Hashable, Sendable {
        /// Raw values at or below this read as zero force.
        public var deadZone: Int = 0
        /// The highest raw value the controller sends (many never reach 127).
        public var maximum: Int = 127
        public var curve: Curve = .linear
        public init(deadZone: Int = 0, maximum: Int = 127, curve: Curve = .linear) {
            self.deadZone = deadZone
            self.maximum = maximum
            self.curve = curve
        }
    }

    public init() {}
}
