import Testing
@testable import TactusCLI

@Suite("DSP load shown in whole percent, moved only by a full point")
struct DSPLoadReadingTests {
    @Test func anIdleWobbleAroundOneDigitKeepsTheDigit() {
        var dsp = DSPLoadReading()
        #expect([0.9, 1.3, 0.6, 1.49, 1.51, 0.01].map { dsp.update($0) } == [1, 1, 1, 1, 1, 1])
    }

    @Test func aRealChangeShowsAtOnce() {
        var dsp = DSPLoadReading()
        #expect([1.2, 2.2, 2.6, 7.4, 3.0, 2.1].map { dsp.update($0) } == [1, 2, 2, 7, 3, 3])
    }

    @Test func nonsenseReadsAsZero() {
        var dsp = DSPLoadReading()
        #expect(dsp.update(.nan) == 0)
        #expect(dsp.update(-4) == 0)
    }
}
