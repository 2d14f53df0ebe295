import Testing
@testable import TactusJACK

@Suite struct FrameTimelineTests {
    @Test func firstCycleIsTheOrigin() {
        var timeline = FrameTimeline(origin: 256)
        #expect(timeline.frame(forJackFrame: 123_456) == 256)
        #expect(timeline.frame(forJackFrame: 123_712) == 512)
    }

    @Test func jackFrameTimeWrappingAt2To32ContinuesIn64Bits() {
        var timeline = FrameTimeline(origin: 0)
        let beforeWrap = UInt32.max - 99          // 100 frames before the wrap
        #expect(timeline.frame(forJackFrame: beforeWrap) == 0)
        #expect(timeline.frame(forJackFrame: beforeWrap &+ 256) == 256)
        #expect(timeline.frame(forJackFrame: beforeWrap &+ 512) == 512)
        // Far past the wrap: 5 × 2^32 frames (about 5 days at 48 kHz), a period at a time.
        var jack = beforeWrap &+ 512
        var expected: Int64 = 512
        for _ in 0..<3 {
            jack = jack &+ 1_000_000_000
            expected += 1_000_000_000
            #expect(timeline.frame(forJackFrame: jack) == expected)
        }
    }

    @Test func skippedCyclesMoveTheEngineAsFarAsJackTime() {
        var timeline = FrameTimeline(origin: 0)
        _ = timeline.frame(forJackFrame: 1000)
        _ = timeline.frame(forJackFrame: 1256)
        // Two periods skipped (an xrun): the next cycle is 768 frames later, not 256.
        #expect(timeline.frame(forJackFrame: 2024) == 1024)
    }

    @Test func aNewServerContinuesWhereTheLastCycleEnded() {
        var timeline = FrameTimeline(origin: 0)
        _ = timeline.frame(forJackFrame: 900_000)
        #expect(timeline.frame(forJackFrame: 900_256) == 256)
        timeline.resume(at: 512)
        // The new server counts from its own zero.
        #expect(timeline.frame(forJackFrame: 17) == 512)
        #expect(timeline.frame(forJackFrame: 17 + 64) == 576)
    }
}
