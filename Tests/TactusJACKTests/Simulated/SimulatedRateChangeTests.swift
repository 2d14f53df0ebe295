import Testing
import TactusCore
@testable import TactusJACK

/// A server back at another sample rate through the real JACK cycle on the
/// simulated process loop: what `JackMetronome` does when the server goes
/// away and comes back (`SimulatedProcessLoop.restartServer`: the timeline
/// resumed where the last block ended, the engine rebuilt at the new rate,
/// `ProcessContext.rateChanged`, the sounding gate held until the
/// connections are made), docs/DESIGN.md §8.4.
@Suite struct SimulatedRateChangeTests {
    /// 120 BPM at 48 kHz for 2 s, then a server at 44.1 kHz with another
    /// frame time: the beat across the restart is half a second in time
    /// (within a frame at 44.1 kHz), and every click after it is 22 050
    /// frames from the last.
    @Test func aServerBackAtFortyFourOneKeepsTheBeatInTime() throws {
        let loop = try SimulatedProcessLoop(options: JackRunOptions())
        loop.run(cycles: 375)
        let before = loop.onsets.map(\.engineFrame)
        let end = loop.context.pointee.endFrame
        loop.restartServer(rate: 44_100, period: 256, startFrame: 7_777)
        loop.run(cycles: 345)
        let after = loop.onsets.map(\.engineFrame).dropFirst(before.count)
        guard let last = before.last, let next = after.first else { Issue.record("clicks \(before.count), then \(after.count)"); return }
        let seconds = Double(end - last) / 48_000 + Double(next - end) / 44_100
        let gaps = Set(zip(after.dropFirst(), after).map { $0 - $1 })
        print("simulated restart at 44.1 kHz: the beat across it \(seconds) s, then clicks \(gaps) frames apart, \(after.count) of them")
        #expect(zip(before.dropFirst(), before).allSatisfy { $0 - $1 == 24_000 })
        #expect(abs(seconds - 0.5) <= 1 / 44_100.0, "\(seconds)")
        #expect(gaps == [22_050] && after.count >= 3)
    }
}
