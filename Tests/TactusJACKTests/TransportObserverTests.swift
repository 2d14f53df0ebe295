import CJack
import Testing
@testable import TactusJACK

/// JACK transport cycle by cycle as jack2 runs it (docs/DESIGN.md §13.1):
/// Starting between a stop and a roll, and between a locate while rolling and
/// the roll from the new frame; the frame moves by the period only while rolling.
@Suite struct TransportObserverTests {
    @Test func aStartFromAStopRollsFromItsFirstRollingCycle() {
        var o = TransportObserver()
        #expect(o.observe(JackTransportStopped, frame: 0, frames: 256) == (true, false))
        #expect(o.observe(JackTransportStopped, frame: 0, frames: 256) == (false, false))
        #expect(o.observe(JackTransportStarting, frame: 0, frames: 256) == (false, false))
        #expect(!o.rolling)
        #expect(o.observe(JackTransportRolling, frame: 0, frames: 256) == (true, false))
        #expect(o.observe(JackTransportRolling, frame: 256, frames: 256) == (false, false))
        #expect(o.rolling && !o.relocating)
    }

    @Test func aLocateWhileRollingIsAJumpHeldOneCycleAtTheNewFrame() {
        var o = TransportObserver()
        _ = o.observe(JackTransportRolling, frame: 1024, frames: 256)
        #expect(o.observe(JackTransportStarting, frame: 384_000, frames: 256) == (false, true))
        #expect(o.rolling && o.relocating)
        // The new frame again in the first rolling cycle: no second jump.
        #expect(o.observe(JackTransportRolling, frame: 384_000, frames: 256) == (false, false))
        #expect(!o.relocating)
        #expect(o.observe(JackTransportRolling, frame: 384_256, frames: 256) == (false, false))
    }

    @Test func aStopIsAChangeAndALocateWhileStoppedAJump() {
        var o = TransportObserver()
        _ = o.observe(JackTransportRolling, frame: 0, frames: 256)
        #expect(o.observe(JackTransportStopped, frame: 256, frames: 256) == (true, false))
        #expect(o.observe(JackTransportStopped, frame: 256, frames: 256) == (false, false))
        #expect(o.observe(JackTransportStopped, frame: 96_000, frames: 256) == (false, true))
    }

    /// A cycle this client missed: the clock moved 512 frames and the transport
    /// with it, a roll; the frame a whole period off the clock and back (PipeWire),
    /// a roll; any other jump from Rolling to Rolling, a locate.
    @Test func aCycleMissedWhileRollingIsNoLocateAJumpTheClockDidNotMakeIs() {
        var o = TransportObserver()
        _ = o.observe(JackTransportRolling, frame: 1024, frames: 256, cycleFrame: 10_000)
        #expect(o.observe(JackTransportRolling, frame: 1280, frames: 256, cycleFrame: 10_256) == (false, false))
        #expect(o.observe(JackTransportRolling, frame: 1792, frames: 256, cycleFrame: 10_768) == (false, false))
        // PipeWire: a period ahead of the clock for one cycle, and back.
        #expect(o.observe(JackTransportRolling, frame: 2304, frames: 256, cycleFrame: 11_024) == (false, false))
        #expect(o.clockFrame == 2048, "played from where the clock puts it")
        #expect(o.observe(JackTransportRolling, frame: 2304, frames: 256, cycleFrame: 11_280) == (false, false))
        #expect(o.clockFrame == nil)
        // A jump of no whole period, or of more than four, from Rolling to Rolling is a locate.
        #expect(o.observe(JackTransportRolling, frame: 2600, frames: 256, cycleFrame: 11_536) == (false, true))
        #expect(o.observe(JackTransportRolling, frame: 2856 + 5 * 256, frames: 256, cycleFrame: 11_792) == (false, true))
        // Across the wrap of the 32-bit frame counts.
        var w = TransportObserver()
        _ = w.observe(JackTransportRolling, frame: UInt32.max - 100, frames: 256, cycleFrame: UInt32.max - 200)
        #expect(w.observe(JackTransportRolling, frame: 411, frames: 256, cycleFrame: 311) == (false, false))
    }

    /// Without the cycle's clock frame (a caller that has none), a roll is the
    /// frame moved by exactly the period; anything else from Rolling to
    /// Rolling is a locate, as before the clock rule existed.
    @Test func withoutTheClockARollIsTheFrameMovedByThePeriod() {
        var o = TransportObserver()
        _ = o.observe(JackTransportRolling, frame: 1024, frames: 256)
        #expect(o.observe(JackTransportRolling, frame: 1280, frames: 256) == (false, false))
        #expect(o.observe(JackTransportRolling, frame: 1536, frames: 256) == (false, false))
        #expect(o.clockFrame == nil)
        #expect(o.observe(JackTransportRolling, frame: 2048, frames: 256) == (false, true))
        #expect(o.observe(JackTransportRolling, frame: 2304, frames: 256) == (false, false))
    }

    /// Not read while `off` (docs/DESIGN.md §13.5): the first reading after
    /// is the transport as it is, rolling or not, neither started nor located;
    /// from there on a roll or a jump is one again.
    @Test func theFirstReadingAfterForgettingTellsNoChange() {
        var o = TransportObserver()
        _ = o.observe(JackTransportStopped, frame: 0, frames: 256)
        o.forget()
        o.forget()
        #expect(o.observe(JackTransportRolling, frame: 96_000, frames: 256) == (false, false))
        #expect(o.rolling)
        #expect(o.observe(JackTransportRolling, frame: 96_256, frames: 256) == (false, false))
        #expect(o.observe(JackTransportStopped, frame: 96_512, frames: 256) == (true, false))
        // Never read before: the first reading is a change by its own count, as at start.
        var fresh = TransportObserver()
        #expect(fresh.observe(JackTransportRolling, frame: 96_000, frames: 256) == (true, false))
    }
}
