import Testing
import TactusCore
import TactusLink
@testable import TactusJACK

/// A peer leaving the Link session and coming back, as the live session's B
/// is killed and started again (`LinkOnJACK.aPeerKilledAndStartedAgain…`):
/// through the real cycle on the simulated process loop, the other peer's
/// count going 1 → 0 → 1 (Link's peer count, which the cycle reads as
/// `alone`) changes nothing this peer plays, exact to the frame. The one who
/// comes back is a new join: `SimulatedLinkTests.aJoinStartsOnTheSessionsNextBarLine…`.
@Suite struct SimulatedLinkRejoinTests {
    @Test func aPeerLeavingAndComingBackMovesNoClickOrTick() throws {
        let reference = try SimulatedProcessLoop(options: SimulatedLinkTests.options(), link: SimulatedLinkTests.runningSession(),
                                                 clickLatency: SimulatedLinkTests.latency)
        reference.run(cycles: 2_400)
        let session = SimulatedLinkTests.runningSession()
        let loop = try SimulatedProcessLoop(options: SimulatedLinkTests.options(), link: session, clickLatency: SimulatedLinkTests.latency)
        loop.run(cycles: 1_000)
        session.peers = 0
        loop.run(cycles: 600)
        session.peers = 1
        loop.run(cycles: 800)
        let accents = SimulatedLinkTests.accents(loop)
        let bars = zip(accents, accents.dropFirst()).map { a, b in loop.ticks.filter { $0 >= a && $0 < b }.count }
        print("simulated Link rejoin: \(loop.onsets.count) clicks, \(loop.ticks.count) ticks, as with the peer there all along: "
            + "\(SimulatedLinkTests.clicks(loop) == SimulatedLinkTests.clicks(reference) && loop.ticks == reference.ticks); ticks a bar \(Set(bars))")
        #expect(loop.onsets.count > 20 && SimulatedLinkTests.clicks(loop) == SimulatedLinkTests.clicks(reference))
        #expect(loop.onsets.map(\.accent) == reference.onsets.map(\.accent))
        #expect(loop.ticks.count > 500 && loop.ticks == reference.ticks)
        // The live test's count: every whole bar 96 ticks (24 a beat, docs/DESIGN.md §4).
        #expect(bars.count >= 5 && bars.allSatisfy { $0 == 96 }, "\(bars)")
        #expect(loop.transportMessages.map(\.bytes) == [[0xFA]])
        #expect(session.commits.isEmpty, "\(session.commits)")
    }
}
