import Testing
@testable import TactusALSA
@testable import TactusCore

/// The ALSA clock thread's rules without a sequencer (these run on any machine):
/// a late tick goes out at once, nothing is dropped under the maximum lateness,
/// the order holds, no tick can go out twice, and a disturbed JACK cycle mis-times nothing.
@Suite("ALSA clock dispatch: late, dropped, held, in order, once")
struct ClockDispatcherTests {
    static let rate = 1_000_000.0 / 48_000
    static let lookAhead = 5_000.0
    /// Monotonic µs of the queue's time 0.
    static let origin = 1_000_000.0

    /// A dispatcher that saw steady cycles of 256 frames up to cycle `cycles`, frame 0 at monotonic 2 s.
    static func dispatcher(cycles: Int64 = 100) -> ClockDispatcher {
        var d = ClockDispatcher(lookAheadMicroseconds: lookAhead)
        for k in 0...cycles { d.observe(point(k * 256), now: Int64(time(k * 256))) }
        return d
    }

    static func time(_ frame: Int64) -> Double { 2_000_000 + Double(frame) * rate }

    static func point(_ frame: Int64, off: Double = 0) -> FrameClockReference.Point {
        .init(frame: frame, microseconds: Int64((time(frame) + off).rounded()), microsecondsPerFrame: rate)
    }

    /// The queue stamp of `frame` on the true line.
    static func stamp(_ frame: Int64) -> Int64 { Int64((time(frame) + lookAhead - origin).rounded()) }

    @Test func aTickOnTimeIsStampedWithItsFramesTimePlusTheLookAhead() {
        let d = Self.dispatcher()
        let now = Int64(Self.time(100 * 256))
        #expect(d.action(forFrame: 100 * 256 + 40, now: now, origin: Self.origin) == .schedule(queueMicroseconds: Self.stamp(100 * 256 + 40), late: false))
    }

    /// A tick that reaches the thread 200 ms after its time is written at once with
    /// its own (past) stamp, which the kernel delivers immediately: late, not lost.
    @Test func aTickTwoHundredMillisecondsLateIsSentAtOnce() {
        let d = Self.dispatcher()
        let frame: Int64 = 100 * 256
        let now = Int64(Self.time(frame) + Self.lookAhead) + 200_000
        #expect(d.action(forFrame: frame, now: now, origin: Self.origin) == .schedule(queueMicroseconds: Self.stamp(frame), late: true))
    }

    /// The limit is 250 ms of the server's time (12 000 frames at 48 kHz) between the
    /// tick's frame and the latest cycle's: 10 frames inside it, sent (late); 10 beyond,
    /// dropped. Transport messages are never dropped.
    @Test func onlyTicksMoreThanTheMaximumLatenessOfAQuarterSecondAreDropped() {
        var d = Self.dispatcher()
        #expect(ClockDispatcher.maximumLateness == 250_000)
        let latest: Int64 = 200 * 256
        d.observe(Self.point(latest), now: Int64(Self.time(latest)))
        let now = Int64(Self.time(latest)) + 1_000
        #expect(d.action(forFrame: latest - 11_990, now: now, origin: Self.origin) == .schedule(queueMicroseconds: Self.stamp(latest - 11_990), late: true))
        #expect(d.action(forFrame: latest - 12_010, now: now, origin: Self.origin) == .drop)
        // A Start (or Stop, Continue, Song Position) a second old still goes out.
        // (To 10 µs: the filter's rate comes from points in whole µs, 48 000 frames back.)
        guard case .schedule(let stamp, late: true) = d.action(forFrame: latest - 48_000, isClockTick: false, now: now, origin: Self.origin) else {
            Issue.record("a Start a second old was not sent")
            return
        }
        #expect(abs(stamp - Self.stamp(latest - 48_000)) <= 10)
    }

    /// A server whose reported times lag its cycles by 400 ms (jack2 overloaded): the
    /// ticks of the cycle that just ran map 400 ms into the past, and go out at once.
    @Test func ticksOfACycleThatJustRanAreSentEvenWhenTheirTimesLagByFourHundredMilliseconds() {
        let d = Self.dispatcher()
        let frame: Int64 = 100 * 256
        let now = Int64(Self.time(frame)) + 400_000
        #expect(d.action(forFrame: frame + 10, now: now, origin: Self.origin) == .schedule(queueMicroseconds: Self.stamp(frame + 10), late: true))
    }

    /// An event whose frame maps before the last stamp written (Stop then Song
    /// Position at one frame; a clock offset change) leaves at that stamp, not before.
    @Test func stampsNeverGoBackSoTheOrderIsKept() {
        var d = Self.dispatcher()
        let now = Int64(Self.time(100 * 256))
        d.scheduled(Self.stamp(100 * 256 + 200))
        #expect(d.action(forFrame: 100 * 256 + 10, now: now, origin: Self.origin)
                == .schedule(queueMicroseconds: Self.stamp(100 * 256 + 200), late: false))
    }

    /// Runs the clock thread's loop over `events` (frames) as the scheduler does:
    /// an event leaves the ring only when written or dropped. Returns what was written.
    static func drain(_ d: inout ClockDispatcher, _ ring: inout [Int64], now: Int64) -> (written: [Int64], dropped: Int) {
        var written: [Int64] = [], dropped = 0
        while let frame = ring.first {
            switch d.action(forFrame: frame, now: now, origin: origin) {
            case .hold: return (written, dropped)
            case .drop: ring.removeFirst(); dropped += 1
            case .schedule(let stamp, _): ring.removeFirst(); d.scheduled(stamp); written.append(stamp)
            }
        }
        return (written, dropped)
    }

    /// After a 68 ms stall the engine sends the ticks that fell in it at the next
    /// cycle's first frame, then the grid goes on: every one is written once, in order,
    /// none dropped; the late ones at the stall's end, the rest on their frames' times.
    @Test func ticksAfterAStallAreAllWrittenOnceInOrder() {
        var d = Self.dispatcher()
        // 4 ticks (at 133 BPM, 902 frames apart) came late at cycle 113's first frame,
        // then 3 on the grid (frames 25 600 + 5, 6, 7 × 902); the ALSA thread itself woke 68 ms late.
        let cycle113: Int64 = 113 * 256
        d.observe(Self.point(cycle113), now: Int64(Self.time(cycle113)))
        var ring: [Int64] = [cycle113, cycle113, cycle113, cycle113, 30_110, 31_012, 31_914]
        let (written, dropped) = Self.drain(&d, &ring, now: Int64(Self.time(cycle113)) + 68_000)
        #expect(dropped == 0)
        #expect(ring.isEmpty)
        let expected: [Int64] = [cycle113, cycle113, cycle113, cycle113, 30_110, 31_012, 31_914].map(Self.stamp)
        // To the µs: the published points carry whole µs.
        #expect(written.count == expected.count)
        #expect(zip(written, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(written) against \(expected)")
        #expect(zip(written, written.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// jack2 after an xrun: one cycle 6 ms off. Its ticks wait for the next cycle,
    /// which shows it was a stray; they then leave on the true line, not 6 ms off.
    @Test func ticksOfADisturbedCycleWaitForTheNextAndLeaveOnTheTrueLine() {
        var d = Self.dispatcher()
        let disturbed: Int64 = 101 * 256
        d.observe(Self.point(disturbed, off: 6_000), now: Int64(Self.time(disturbed)))
        var ring: [Int64] = [disturbed + 30, disturbed + 200]
        let held = Self.drain(&d, &ring, now: Int64(Self.time(disturbed)) + 1_000)
        #expect(held.written.isEmpty)
        #expect(ring.count == 2)
        d.observe(Self.point(disturbed + 256), now: Int64(Self.time(disturbed + 256)))
        let after = Self.drain(&d, &ring, now: Int64(Self.time(disturbed + 256)) + 1_000)
        #expect(after.written == [Self.stamp(disturbed + 30), Self.stamp(disturbed + 200)])
        #expect(ring.isEmpty)
    }

    /// When no cycle follows a suspect one (the server stalled for good), the held
    /// ticks go out after the hold limit, on the line the filter still has.
    @Test func heldTicksLeaveAfterTheHoldLimitOfAHundredMilliseconds() {
        var d = Self.dispatcher()
        let disturbed: Int64 = 101 * 256
        let seen = Int64(Self.time(disturbed))
        d.observe(Self.point(disturbed, off: 6_000), now: seen)
        #expect(ClockDispatcher.holdLimit == 100_000)
        #expect(d.action(forFrame: disturbed, now: seen + 99_999, origin: Self.origin) == .hold)
        #expect(d.action(forFrame: disturbed, now: seen + 100_000, origin: Self.origin) == .schedule(queueMicroseconds: Self.stamp(disturbed), late: true))
    }

    @Test func nothingIsScheduledBeforeTheFirstCycle() {
        let d = ClockDispatcher(lookAheadMicroseconds: Self.lookAhead)
        #expect(d.action(forFrame: 0, now: 0, origin: Self.origin) == .hold)
    }
}

extension ClockDispatcherTests {
    /// A server that never settles (two resets within a second): events are mapped by
    /// the latest cycle's own numbers, as before the filter, until a second without a reset.
    @Test func aSourceThatKeepsResettingIsTakenAsItComesUntilItHoldsForASecond() {
        var d = Self.dispatcher()
        var now = Int64(Self.time(100 * 256))
        // Two jumps of 50 ms, each confirmed by three cycles: two resets 16 ms apart.
        var frame: Int64 = 100 * 256
        for jump in 1...2 {
            for _ in 0..<3 {
                frame += 256
                now += 5_333
                d.observe(Self.point(frame, off: Double(jump) * 50_000), now: now)
            }
        }
        #expect(d.filter.resets == 2)
        #expect(d.isUnlocked(now: now))
        let raw = Self.point(frame, off: 100_000)
        #expect(d.action(forFrame: frame + 100, now: now, origin: Self.origin)
                == .schedule(queueMicroseconds: Int64((raw.microseconds(atFrame: frame + 100) + Self.lookAhead - Self.origin).rounded()), late: false))
        #expect(!d.isUnlocked(now: now + ClockDispatcher.relockTime))
    }
}
