import Testing
@testable import TactusJACK

/// The gate that keeps a newly activated client silent until its connections
/// carry what it plays (48 kHz, period 256: the margin is 50 ms = 2400 frames).
@Suite struct SoundingGateTests {
    /// Whether each cycle, in turn, is held.
    func held(_ gate: borrowing SoundingGate, _ cycleFrames: [UInt32]) -> [Bool] {
        cycleFrames.map { gate.holds(cycleFrame: $0) }
    }

    @Test func closedHoldsEveryCycle() {
        let gate = SoundingGate()
        gate.close()
        let frames = (0..<100).map { UInt32($0 * 256) }
        #expect(held(gate, frames) == Array(repeating: true, count: 100))
    }

    @Test func openedItHoldsUntilTheFrame50MillisecondsPastTheConnectionsThenNeverAgain() {
        #expect(SoundingGate.margin(sampleRate: 48000, period: 256) == 2400)
        let gate = SoundingGate()
        gate.close()
        gate.open(now: 10_000, sampleRate: 48000, period: 256)
        // 12 544 is the first cycle at or past 10 000 + 2400; then open whatever the frame.
        #expect(held(gate, [9_984, 12_288, 12_544, 0]) == [true, true, false, false])
    }

    @Test func aPeriodLongerThanTheMarginWaitsOnePeriod() {
        #expect(SoundingGate.margin(sampleRate: 48000, period: 4096) == 4096)
        let gate = SoundingGate()
        gate.close()
        gate.open(now: 100, sampleRate: 48000, period: 4096)
        #expect(held(gate, [0, 4196]) == [true, false])
    }

    @Test func theFrameIsComparedAcrossTheWrapOfJackTime() {
        let gate = SoundingGate()
        gate.close()
        gate.open(now: UInt32.max - 1000, sampleRate: 48000, period: 256)
        // 1000 is 2001 frames past `now` (inside the margin), 1400 is 2401.
        #expect(held(gate, [UInt32.max - 256, 1000, 1400]) == [true, true, false])
    }

    /// A frame time that steps back (PipeWire) never holds it for more than the
    /// margin's cycles plus 4: 2400 / 256 + 4 = 13.
    @Test func aFrameTimeThatNeverReachesTheFrameHoldsAtMost13Cycles() {
        let gate = SoundingGate()
        gate.close()
        gate.open(now: 50_000, sampleRate: 48000, period: 256)
        #expect(held(gate, Array(repeating: 1_000, count: 15)) == Array(repeating: true, count: 13) + [false, false])
    }

    @Test func aNewGateSoundsAndClosingHoldsAgain() {
        let gate = SoundingGate()
        #expect(held(gate, [0]) == [false])          // the dry cycle before activation
        gate.close()
        #expect(held(gate, [256]) == [true])
    }
}
