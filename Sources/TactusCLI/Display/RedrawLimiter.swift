import TactusCore

/// Decides when the display may redraw: only when what it shows changed, and at
/// most 30 times a second (docs/DESIGN.md §5.10; the scales article rate-limits its
/// force label because touch events arrive hundreds of times a second, as
/// aftertouch does).
///
/// A change that comes too soon is not lost: it stays pending, and the caller,
/// which asks again every control round, draws the newest state once the
/// interval has passed. In time: `frame(_:at:)` is asked with the control
/// clock's reading, so tests drive it in virtual time.
public struct RedrawLimiter<Frame: Equatable>: Sendable where Frame: Sendable {
    /// 1/30 s rounded up to the microsecond, so any one-second window holds at most 30 redraws.
    public static var thirtyPerSecond: Int64 { 33_334 }

    public let minimumInterval: Int64
    private var shown: Frame?
    private var lastDrawn: ControlTime?
    private var forced = false

    public init(minimumInterval: Int64 = RedrawLimiter.thirtyPerSecond) {
        self.minimumInterval = minimumInterval
    }

    /// `frame` when it should be drawn now (it differs from the last one drawn,
    /// or a redraw was forced, and the interval has passed); nil otherwise.
    public mutating func frame(_ frame: Frame, at now: ControlTime) -> Frame? {
        guard forced || shown != frame else { return nil }
        if let lastDrawn, now - lastDrawn < minimumInterval { return nil }
        shown = frame
        lastDrawn = now
        forced = false
        return frame
    }

    /// The earliest moment a pending change may be drawn (nil: nothing drawn yet, no wait).
    public var nextAllowed: ControlTime? { lastDrawn.map { $0 + minimumInterval } }

    /// Draw the next frame even if unchanged (the terminal was resized or cleared);
    /// still no sooner than the interval allows.
    public mutating func invalidate() {
        forced = true
    }
}
