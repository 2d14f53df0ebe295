/// A moment on the control thread's clock, in whole microseconds.
///
/// In the application this is CLOCK_MONOTONIC (the clock `ControlInputEvent`s are
/// stamped with); in tests it is virtual time that the test moves by hand. Whole
/// microseconds make the pressure timeline exact: step k of a force hold falls at
/// exactly `320_000 + 160_000 × k` µs after the Note On, with no floating-point
/// drift between what the rules say and what a test asserts.
public struct ControlTime: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// `seconds` rounded to the nearest microsecond.
    public static func seconds(_ seconds: Double) -> ControlTime {
        ControlTime(microseconds: ControlTime.microseconds(seconds))
    }

    public static let zero = ControlTime(microseconds: 0)

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// A duration in seconds (as configurations give them) in whole microseconds.
    public static func microseconds(_ seconds: Double) -> Int64 {
        let scaled = (seconds * 1_000_000).rounded()
        guard scaled.isFinite else { return seconds > 0 ? Int64.max / 4 : 0 }
        return Int64(max(min(scaled, Double(Int64.max / 4)), Double(Int64.min / 4)))
    }

    public static func + (time: ControlTime, microseconds: Int64) -> ControlTime {
        ControlTime(microseconds: time.microseconds + microseconds)
    }

    public static func - (a: ControlTime, b: ControlTime) -> Int64 { a.microseconds - b.microseconds }

    public static func < (a: ControlTime, b: ControlTime) -> Bool { a.microseconds < b.microseconds }

    /// The earlier of two optional deadlines (nil: none).
    public static func earliest(_ a: ControlTime?, _ b: ControlTime?) -> ControlTime? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Seconds with six decimals: "0.320000 s".
    public var description: String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) s"
    }
}
