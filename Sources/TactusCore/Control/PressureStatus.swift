/// A snapshot of the pressure controller for the status display (force bar,
/// level, what the held key is doing).
public struct PressureStatus: Hashable, Sendable {
    /// How an up/down hold is accelerating.
    public enum HoldMode: String, Sendable, Hashable, BitwiseCopyable {
        /// Pressure at light or above arrived during this hold: force steps.
        case force
        /// No pressure yet (a controller without aftertouch): long-press steps.
        case longPress
    }

    /// The tempo the controller steers.
    public var tempo: BPM
    /// Calibrated force of the held control key, 0…1; 0 when no key is held.
    public var force: Double
    public var level: ForceLevel
    /// The control key in charge, if any.
    public var key: ControlKey?
    /// Current rate of change of the tempo in BPM per second, negative when slowing down.
    public var acceleration: Double
    /// Deep press on the preset key: force over the commit threshold, 0…1.
    public var deepPressProgress: Double
    public var mode: HoldMode

    public init(tempo: BPM, force: Double = 0, level: ForceLevel = .rest, key: ControlKey? = nil,
                acceleration: Double = 0, deepPressProgress: Double = 0, mode: HoldMode = .longPress) {
        self.tempo = tempo
        self.force = force
        self.level = level
        self.key = key
        self.acceleration = acceleration
        self.deepPressProgress = deepPressProgress
        self.mode = mode
    }
}
