import Testing
@testable import TactusCLI
import TactusCore

@Suite("Redraw limiter: only on change, at most 30 a second, in virtual time")
struct RedrawLimiterTests {
    /// Offers `frameAt(k)` every `step` µs for `duration` µs; the times drawn.
    func run(step: Int64, duration: Int64, _ frameAt: (Int64) -> Int) -> [Int64] {
        var limiter = RedrawLimiter<Int>()
        var drawn: [Int64] = []
        var t: Int64 = 0
        while t < duration {
            if limiter.frame(frameAt(t), at: ControlTime(microseconds: t)) != nil { drawn.append(t) }
            t += step
        }
        return drawn
    }

    @Test func aFloodOf1000ChangesASecondDrawsAtMost30TimesASecond() {
        // A new frame every millisecond for 10 s: 1000 changes a second.
        let drawn = run(step: 1_000, duration: 10_000_000) { Int($0 / 1_000) }
        // Asked every 1 ms, the limiter draws every 34 ms (33.334 ms rounded up to the next poll).
        #expect(drawn.count == 295)
        for second in 0..<10 {
            let start = Int64(second) * 1_000_000
            #expect(drawn.filter { $0 >= start && $0 < start + 1_000_000 }.count <= 30)
        }
        // Any one-second window, not only whole seconds.
        for (i, t) in drawn.enumerated() where i + 30 < drawn.count {
            #expect(drawn[i + 30] - t >= 1_000_000, "31 redraws within a second from \(t)")
        }
    }

    @Test func askedAtExactlyTheIntervalItDrawsThirtyASecond() {
        // Polled every 33.334 ms with a change each time: 30 in the first second, none lost.
        let drawn = run(step: 33_334, duration: 1_000_000) { Int($0) }
        #expect(drawn.count == 30)
        #expect(drawn.last ?? 0 == Int64(29 * 33_334))
    }

    @Test func nothingChangingDrawsNothingAfterTheFirstFrame() {
        let drawn = run(step: 1_000, duration: 5_000_000) { _ in 7 }
        #expect(drawn == [0])
    }

    @Test func aChangeTooSoonIsDrawnOnceTheIntervalHasPassed() {
        var limiter = RedrawLimiter<Int>()
        #expect(limiter.frame(1, at: .zero) == 1)
        #expect(limiter.frame(2, at: ControlTime(microseconds: 10_000)) == nil)
        #expect(limiter.nextAllowed == ControlTime(microseconds: 33_334))
        #expect(limiter.frame(3, at: ControlTime(microseconds: 33_333)) == nil)
        // The newest state is what gets drawn.
        #expect(limiter.frame(3, at: ControlTime(microseconds: 33_334)) == 3)
        #expect(limiter.frame(3, at: ControlTime(microseconds: 100_000)) == nil)
    }

    @Test func aChangeBackToWhatIsShownNeedsNoRedraw() {
        var limiter = RedrawLimiter<Int>()
        #expect(limiter.frame(1, at: .zero) == 1)
        #expect(limiter.frame(2, at: ControlTime(microseconds: 1_000)) == nil)
        #expect(limiter.frame(1, at: ControlTime(microseconds: 50_000)) == nil)
    }

    @Test func invalidateRedrawsTheSameFrameOnceNoSoonerThanTheInterval() {
        var limiter = RedrawLimiter<Int>()
        #expect(limiter.frame(1, at: .zero) == 1)
        limiter.invalidate()
        #expect(limiter.frame(1, at: ControlTime(microseconds: 20_000)) == nil)
        #expect(limiter.frame(1, at: ControlTime(microseconds: 40_000)) == 1)
        #expect(limiter.frame(1, at: ControlTime(microseconds: 80_000)) == nil)
    }
}
