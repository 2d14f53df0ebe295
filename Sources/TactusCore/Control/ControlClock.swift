/// Where the control thread reads the time: the monotonic clock in the
/// application, a hand-moved clock in tests, so every timing rule of the
/// pressure controller is tested without sleeping.
public protocol ControlClock {
    func now() -> ControlTime
}

/// Virtual time for tests: stands still until the test moves it.
public final class VirtualClock: ControlClock, @unchecked Sendable {
    public var time: ControlTime

    public init(_ time: ControlTime = .zero) { self.time = time }

    public func now() -> ControlTime { time }
}
