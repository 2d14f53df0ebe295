import CJack
import Testing
import TactusCore
import TactusLink
@testable import TactusJACK

/// The sync ports through the real JACK cycle on the simulated process loop
/// (docs/DESIGN.md §14.7): the pulses follow a time source as the click and
/// the clock do, exact to the frame. Every sample of the lines is written
/// (an unwritten one would show as NaN).
@Suite struct SimulatedSyncTests {
    /// The rises of line `line` (0 `sync`, 1 `sync_run`) at JACK frames, and every
    /// level the line took.
    static func rises(_ loop: SimulatedProcessLoop, line: Int) -> [UInt32] {
        loop.syncChanges.filter { $0.line == line && $0.value != 0 }.map(\.jackFrame)
    }

    static func levels(_ loop: SimulatedProcessLoop) -> Set<Float> { Set(loop.syncChanges.map(\.value)) }

    /// Joining a running Link session (`SimulatedLinkTests`' scenario): a
    /// Pocket Operator's pulses on the session's 8th notes where they are heard,
    /// the first on the bar line Tactus starts on, each 15 ms (720 frames).
    @Test func pocketOperatorPulsesFollowALinkSession() throws {
        var options = SimulatedLinkTests.options()
        options.engine.sync = SyncSettings(kind: .pocketOperator)
        let session = SimulatedLinkTests.runningSession()
        let loop = try SimulatedProcessLoop(options: options, link: session, clickLatency: SimulatedLinkTests.latency)
        loop.run(cycles: 1_200)
        let line = session.barLine(atOrAfter: loop.microseconds(atJackFrame: 1_000_000 + UInt32(SimulatedLinkTests.latency)))
        let rises = Self.rises(loop, line: 0)
        let expected = (0..<rises.count).map { SimulatedLinkTests.sounding(line + Int64($0) * 250_000) }
        #expect(rises.count > 20 && rises == expected, "\(rises.prefix(4)) \(expected.prefix(4))")
        #expect(Self.levels(loop) == [0, 1], "\(Self.levels(loop))")
        let falls = loop.syncChanges.filter { $0.value == 0 }.map(\.jackFrame)
        #expect(zip(rises, falls).allSatisfy { $1 - $0 == 720 }, "\(zip(rises, falls).prefix(4).map { $1 - $0 })")
        // On the session's beats, as the clicks are.
        #expect(SimulatedLinkTests.clicks(loop).allSatisfy(rises.contains))
    }

    /// `--transport follow` (`SimulatedFollowTests`' master: 120 BPM, 133 from
    /// bar 5, 3/4 from bar 9, located near bar 13): a modular clock with its
    /// reset line, every pulse on a 0xF8's frame, every 6th tick from the start
    /// and from the locate, a reset on the start, on each of the master's bar
    /// lines and on the locate.
    @Test func aModularClockAndItsResetFollowAJACKTransportMaster() throws {
        var options = SimulatedFollowTests.followOptions()
        options.engine.sync = SyncSettings(kind: .ppqn(4), reset: .bar)
        let map = TestTempoMap([(0, 120, 4), (16, 133, 4), (32, 133, 3)])
        let loop = try SimulatedProcessLoop(options: options, mode: .follow, transport: ScriptedTransport(master: map.position))
        loop.run(cycles: 20)
        loop.transport.locate(0)
        loop.transport.start()
        while !(loop.transport.rolling && loop.transport.frame >= 792_000) { loop.cycle() }
        loop.transport.locate(990_315)
        while !(loop.transport.rolling && loop.transport.frame >= 1_056_000) { loop.cycle() }
        loop.transport.stop()
        loop.run(cycles: 20)

        #expect(Self.levels(loop) == [0, 1], "\(Self.levels(loop))")
        let ticks = loop.ticks
        let index = Dictionary(ticks.enumerated().map { ($1, $0) }) { a, _ in a }
        let rises = Self.rises(loop, line: 0)
        let messages = loop.transportMessages
        let start = try #require(messages.first { $0.bytes == [0xFA] }?.jackFrame)
        let locate = try #require(messages.first { $0.bytes == [0xFB] }?.jackFrame)
        #expect(rises.count > 100 && rises.allSatisfy { index[$0] != nil }, "rises off the ticks: \(rises.filter { index[$0] == nil }.prefix(5))")
        for (from, to) in [(start, locate), (locate, UInt32.max)] {
            let inSpan = rises.filter { $0 >= from && $0 < to }.compactMap { index[$0] }
            #expect(inSpan.first.map { ticks[$0] } == from && zip(inSpan, inSpan.dropFirst()).allSatisfy { $1 - $0 == 6 },
                    "from \(from): \(inSpan.prefix(8))")
        }
        let resets = Self.rises(loop, line: 1)
        // The accents are the master's bar lines (`SimulatedFollowTests`): a reset on each, and on the locate.
        let bars = loop.onsets.filter(\.accent).map(\.jackFrame)
        #expect(resets.first == start && resets.contains(locate) && Set(resets) == Set(bars + [locate]), "resets \(resets), bar lines \(bars)")
    }
}
