import Synchronization
import TactusCore

/// What the cycle shows of the incoming MIDI clock (`--clock-in`) to the
/// display's clock row, as atomics holding plain values (docs/DESIGN.md §2.3):
/// figures read as they are, not events. What happens to the clock (a lock,
/// Start, a dropout, a malformed byte) goes as `CycleEvent.clockIn` and
/// `CycleEvent.clockInError`, said once each.
public final class ClockInFigures: Sendable {
    /// `ClockFollowerState.rawValue`, stored by every cycle.
    public let state = Atomic<Int>(ClockFollowerState.idle.rawValue)
    /// The follower's filtered tempo in hundredths of a BPM (0: none yet),
    /// stored by every cycle: the two decimals of §9.1.
    public let tempoHundredths = Atomic<Int>(0)
    /// The meter's figures over the raw arrivals of the last
    /// `ClockInFollow.meterIntervals` intervals (`ClockJitter`), in
    /// microseconds, measured once a beat (every 24 ticks).
    public let spreadMicroseconds = Atomic<Int>(0)
    public let worstMicroseconds = Atomic<Int>(0)
    /// Ticks missing in those intervals, and every tick the follower found
    /// lost in transit and put back since the start (§9.1 "Dropout").
    public let missingTicks = Atomic<Int>(0)
    public let lostTicks = Atomic<Int>(0)
    /// Intervals measured so far (0: no figures yet).
    public let measuredIntervals = Atomic<Int>(0)

    public init() {}

    /// The follower's state as the cycle last stored it.
    public var followerState: ClockFollowerState {
        ClockFollowerState(rawValue: state.load(ordering: .relaxed)) ?? .idle
    }
}
