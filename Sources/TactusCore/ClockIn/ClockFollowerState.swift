/// Where a followed clock stands, for the engine and the display.
/// Its raw value crosses the real-time boundary in an atomic (the display's clock row).
public enum ClockFollowerState: Int, Hashable, Sendable, BitwiseCopyable {
    /// No tick yet.
    case idle
    /// Ticks are coming, too few to give a tempo (fewer than `lockTicks`).
    case acquiring
    /// The tempo and the tick grid are known.
    case locked
    /// Locked, but no tick for `holdingAfterTicks` periods: the tempo is held.
    case holding
    /// No tick for the hold time: the clock is gone and the transport stopped.
    case droppedOut
}

/// What one input changed, as a set (a tick can both lock and be a song's first).
public struct ClockFollowerChanges: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Computed, not stored: a static stored property is a lazy global, and an
    // array literal (`[]`) builds an array; the real-time check refuses both.

    /// Nothing changed.
    public static var nothing: ClockFollowerChanges { ClockFollowerChanges(rawValue: 0) }

    /// Locked: the first time, or again after a dropout.
    public static var locked: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 0) }
    /// Intervals moved past `jumpRatio`: the tempo jumped straight to the new one.
    public static var jumped: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 1) }
    /// The fit narrowed to the ticks after a tempo change.
    public static var narrowed: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 2) }
    /// The first tick after Start: the song's tick 0, bar 1.
    public static var started: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 3) }
    /// The first tick after Continue (or after a dropout's ticks came back).
    public static var continued: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 4) }
    /// Stop.
    public static var stopped: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 5) }
    /// Song Position set while stopped.
    public static var located: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 6) }
    /// No tick for a while: the tempo is held.
    public static var holding: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 7) }
    /// No tick for the hold time: stopped, said once.
    public static var droppedOut: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 8) }
    /// One interval of about two periods between steady ones: a tick was lost in
    /// transit, and counted (undone if the next interval is as long: a new tempo).
    public static var tickLost: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 10) }
    /// Song Position while the song plays, which MIDI 1.0 sends only while stopped: ignored.
    public static var songPositionIgnored: ClockFollowerChanges { ClockFollowerChanges(rawValue: 1 << 9) }
}
