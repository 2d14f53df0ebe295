/// What `/proc/asound/seq/timer` says about the timer that really drives a queue.
///
/// Asking for the high-resolution timer is not enough: when `snd-hrtimer` is not
/// loaded, the kernel's `snd_seq_timer_open` silently falls back to the system
/// timer (1/HZ, 4 ms on many distributions), and only this file tells. Its blocks read
///
///     Timer for queue 0 : HR timer
///       Period time : 0.000160000
///       Skew : 65536 / 65536
public struct SequencerTimerReport: Hashable, Sendable {
    /// The timer's name as the kernel gives it ("HR timer", "system timer").
    public var name: String
    /// Seconds between timer interrupts, when the file says.
    public var period: Double?

    /// The high-resolution timer's name in the kernel (sound/core/hrtimer.c).
    public static let highResolutionTimerName = "HR timer"

    public var isHighResolution: Bool { name == Self.highResolutionTimerName }

    /// The block of `queue` in the text of `/proc/asound/seq/timer`; nil when absent.
    public init?(procText text: String, queue: Int) {
        var found: String?
        var period: Double?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("Timer for queue ") {
                if found != nil { break }
                let rest = trimmed.dropFirst("Timer for queue ".count)
                guard let colon = rest.firstIndex(of: ":"),
                      Int(rest[..<colon].trimmingSpaces) == queue else { continue }
                found = String(rest[rest.index(after: colon)...].trimmingSpaces)
            } else if found != nil, trimmed.hasPrefix("Period time"), let colon = trimmed.firstIndex(of: ":") {
                period = Double(trimmed[trimmed.index(after: colon)...].trimmingSpaces)
            }
        }
        guard let found else { return nil }
        name = found
        self.period = period
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
