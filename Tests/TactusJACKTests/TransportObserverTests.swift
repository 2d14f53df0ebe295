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
}
