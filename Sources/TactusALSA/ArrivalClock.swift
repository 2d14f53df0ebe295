import CALSA
import TactusCore

/// When a message reached Tactus's `control` port, on the monotonic clock.
///
/// The kernel stamps each event delivered to the port with the clock queue's
/// real time as it delivers it (`Sequencer.stampArrivals`), so a tap is timed
/// by its arrival, not by when the input thread woke up to read it. The stamp
/// goes onto the monotonic clock through a `QueueClockCalibration` of the same
/// queue, measured by the input thread itself (it runs without the clock thread
/// too).
///
/// Two guards keep the times usable for tap tempo and the pressure timeline:
/// a time is never later than the read that found it (the calibration is good
/// only to half its round trip), and never earlier than the time handed on
/// before it (a re-measurement between two messages must not reorder them).
/// An event without our queue's real-time stamp, or one read before the first
/// calibration, is timed by the read.
struct ArrivalClock {
    let queue: Int32
    var calibration = QueueClockCalibration()
    private var last = Int64.min

    init(queue: Int32) { self.queue = queue }

    /// The monotonic µs `event` arrived at; `now` is the monotonic µs it was read at.
    mutating func microseconds(of event: snd_seq_event_t, readAt now: Int64) -> Int64 {
        var time = now
        if Int32(event.queue) == queue, Int32(event.flags) & SND_SEQ_TIME_STAMP_MASK == SND_SEQ_TIME_STAMP_REAL,
           let monotonic = calibration.monotonicMicroseconds(atQueue: event.time.time.microseconds) {
            time = min(Int64(monotonic.rounded()), now)
        }
        time = max(time, last)
        last = time
        return time
    }
}

extension snd_seq_real_time_t {
    /// A queue's real time (seconds and nanoseconds since it started) in µs.
    var microseconds: Int64 { Int64(tv_sec) * 1_000_000 + Int64(tv_nsec) / 1000 }
}
