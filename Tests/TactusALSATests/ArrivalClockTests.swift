import CALSA
import CALSAShims
import Testing
@testable import TactusALSA
import TactusCore

/// How the kernel's stamp on a `control` event becomes its monotonic arrival time.
struct ArrivalClockTests {
    /// An event as the kernel delivers it to a port stamped with `queue` in real time.
    private func stamped(queue: Int32, microseconds: Int64) -> snd_seq_event_t {
        var e = snd_seq_event_t()
        tactus_seq_ev_clear(&e)
        var time = snd_seq_real_time_t(tv_sec: UInt32(microseconds / 1_000_000), tv_nsec: UInt32(microseconds % 1_000_000) * 1000)
        tactus_seq_ev_schedule_real(&e, queue, 0, &time)
        return e
    }

    /// Queue time 0 at monotonic 10 000 000 µs, measured exactly.
    private func calibrated(queue: Int32) -> ArrivalClock {
        var clock = ArrivalClock(queue: queue)
        clock.calibration.update(with: [.init(before: 10_000_000, queue: 0, after: 10_000_000)])
        return clock
    }

    @Test func aStampOnOurQueueIsItsArrivalWhenEverItIsRead() {
        var clock = calibrated(queue: 3)
        #expect(clock.microseconds(of: stamped(queue: 3, microseconds: 500_000), readAt: 10_900_000) == 10_500_000)
        #expect(clock.microseconds(of: stamped(queue: 3, microseconds: 1_000_000), readAt: 11_260_000) == 11_000_000)
    }

    @Test func anUnstampedEventAnotherQueuesStampOrNoCalibrationIsTimedByTheRead() {
        var clock = calibrated(queue: 3)
        var direct = snd_seq_event_t()
        tactus_seq_ev_clear(&direct)
        #expect(clock.microseconds(of: direct, readAt: 10_100_000) == 10_100_000)
        #expect(clock.microseconds(of: stamped(queue: 4, microseconds: 150_000), readAt: 10_200_000) == 10_200_000)
        var uncalibrated = ArrivalClock(queue: 3)
        #expect(uncalibrated.microseconds(of: stamped(queue: 3, microseconds: 150_000), readAt: 10_300_000) == 10_300_000)
    }

    @Test func aTimeIsNeverLaterThanItsReadNorEarlierThanTheOneBefore() {
        var clock = calibrated(queue: 3)
        // The calibration says 10.5 s, read at 10.4999 s: the read bounds it.
        #expect(clock.microseconds(of: stamped(queue: 3, microseconds: 500_000), readAt: 10_499_900) == 10_499_900)
        // A re-measurement moved the origin 50 µs earlier: the next message keeps the order.
        clock.calibration.update(with: [.init(before: 9_999_800, queue: 0, after: 9_999_800)])
        #expect(clock.calibration.origin == 9_999_950)
        #expect(clock.microseconds(of: stamped(queue: 3, microseconds: 499_900), readAt: 10_600_000) == 10_499_900)
        #expect(clock.microseconds(of: stamped(queue: 3, microseconds: 600_000), readAt: 10_700_000) == 10_599_950)
    }
}
