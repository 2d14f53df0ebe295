/// What the pressure controller holds while keys are down (docs/DESIGN.md §5):
/// the tempo key held, the preset key on its way to a deep press, and the
/// held key's pressure as last received.

/// An up/down key being held.
struct TempoHold: Sendable {
    var key: ControlKey
    var note: UInt7
    var channel: MIDIChannel
    /// The Note On: t = 0 of the timeline.
    var start: ControlTime
    var mode = PressureStatus.HoldMode.longPress
    /// Index k of the next force step (at start + holdDelay + k × stepPeriod).
    var nextForceStep = 0
    /// Index k of the next long-press step (at start + longPressDelay + k × interval).
    var nextLongPressStep = 0
    /// Last Note On or pressure of this hold, for the stuck-key timeout.
    var lastActivity: ControlTime
    /// Continuous mode: the tempo has moved for the time up to here.
    var integratedUntil: ControlTime

    init(key: ControlKey, note: UInt7, channel: MIDIChannel, start: ControlTime) {
        self.key = key
        self.note = note
        self.channel = channel
        self.start = start
        lastActivity = start
        integratedUntil = start
    }
}

/// The preset key being held, on its way to a deep press.
struct DeepPress: Sendable {
    var note: UInt7
    var channel: MIDIChannel
    var start: ControlTime
    var lastActivity: ControlTime
    var holdReached = false
    var committed = false
}

/// The held key's pressure, as last received.
struct PressureReading: Sendable {
    var raw = 0
    var force = 0.0
    var level = ForceLevel.rest
    /// The max cue may sound (re-armed once the value drops below the maximum).
    var maximumArmed = true
}
