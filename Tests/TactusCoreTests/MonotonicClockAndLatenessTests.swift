import Testing
@testable import TactusCore

/// The one lateness limit (docs/DESIGN.md §3.6, §7) in both of its units.
@Suite struct MaximumLatenessTests {
    @Test func aQuarterSecondInMicrosecondsAndInFramesRoundedDown() {
        #expect(MaximumLateness.milliseconds == 250)
        #expect(MaximumLateness.microseconds == 250_000)
        #expect(MaximumLateness.frames(atSampleRate: 48_000) == 12_000)
        #expect(MaximumLateness.frames(atSampleRate: 44_100) == 11_025)
        #expect(MaximumLateness.frames(atSampleRate: 22_050) == 5_512)
        #expect(MaximumLateness.frames(atSampleRate: 192_000) == 48_000)
    }
}

/// The one clock of the threads around the real-time one (docs/DESIGN.md §2.4).
@Suite struct MonotonicClockTests {
    @Test func anAbsoluteSleepEndsAtItsDeadlineNotBefore() {
        let deadline = MonotonicClock.microseconds() + 20_000
        MonotonicClock.sleep(until: deadline)
        let woke = MonotonicClock().now().microseconds
        #expect(woke >= deadline)
        // A deadline already past returns at once.
        let before = MonotonicClock.microseconds()
        MonotonicClock.sleep(until: before - 1_000_000)
        #expect(MonotonicClock.microseconds() - before < 500_000)
    }

    @Test func theInstanceAndTheStaticReadingAreOneClock() {
        let a = MonotonicClock.microseconds()
        let b = MonotonicClock().now().microseconds
        let c = MonotonicClock.microseconds()
        #expect(a <= b && b <= c)
    }
}
