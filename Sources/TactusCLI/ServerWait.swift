import TactusCore

/// A run's wait for its first JACK server: a reminder in the log now and then
/// while none answered (the live display's JACK row says it by itself), and
/// `--wait`'s limit, after which the run gives up with status 1.
final class ServerWait {
    private let start: ControlTime
    private let limit: Double?
    private let reminds: Bool
    /// Seconds of waiting at which the next reminder is due; doubled each time,
    /// so a service left waiting for hours writes a few lines, not thousands.
    private var nextReminder: Double = 10
    /// The limit passed with no server: said once, the run is ending.
    private(set) var gaveUp = false

    init(limit: Double?, reminds: Bool, now: ControlTime) {
        start = now
        self.limit = limit
        self.reminds = reminds
    }

    /// One round of the control thread: says what is due, returns when the
    /// next round is needed (nil once a server answered or the wait gave up).
    func round(connected: Bool, now: ControlTime, say: (String) -> Void) -> ControlTime? {
        guard !connected, !gaveUp else { return nil }
        let waited = Double(now - start) / 1_000_000
        if let limit, waited >= limit {
            gaveUp = true
            say("tactus: no JACK server answered within \(Self.seconds(limit)) s (--wait): giving up")
            return nil
        }
        if reminds && waited >= nextReminder {
            say("tactus: still waiting for a JACK server (\(Self.seconds(nextReminder)) s so far; Ctrl-C to quit)")
            nextReminder *= 2
        }
        let next = min(limit ?? .infinity, reminds ? nextReminder : .infinity)
        return next.isFinite ? start + ControlTime.microseconds(next) : nil
    }

    /// `2` or `2.5`: as the player wrote it.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
