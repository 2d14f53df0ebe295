import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--clock-while-stopped` (docs/DESIGN.md §4.1): the clock runs while
/// stopped so a slave shows the tempo before it starts: from the first cycle,
/// with or without a time source, and on through a source's stop.
@Suite struct SimulatedClockWhileStoppedTests {
    static func options(link: LinkRunOptions? = nil) -> JackRunOptions {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120), clockWhileStopped: true)
        options.startStopped = true
        options.link = link
        return options
    }

    static func ticks(_ loop: SimulatedProcessLoop, from: UInt32 = 0, to: UInt32 = .max) -> [UInt32] {
        loop.midi.filter { $0.bytes == [0xF8] && $0.jackFrame >= from && $0.jackFrame < to }.map(\.jackFrame)
    }

    /// Every tick a 24th of a beat at 120 BPM (1 000 frames) after the last.
    static func evenlySpaced(_ ticks: [UInt32]) -> Bool { zip(ticks, ticks.dropFirst()).allSatisfy { $1 &- $0 == 1_000 } }

    @Test func startedStoppedTheClockRunsFromTheFirstCycleAndStartLandsOnATick() throws {
        let loop = try SimulatedProcessLoop(options: Self.options())
        loop.run(cycles: 100)
        let stopped = Self.ticks(loop)
        print("simulated clock while stopped, started stopped: \(stopped.count) ticks from \(stopped.first ?? 0), clicks \(loop.onsets.count)")
        #expect(stopped.first == 1_000_000 && stopped.count == 26 && Self.evenlySpaced(stopped), "\(stopped)")
        #expect(loop.onsets.isEmpty && loop.transportMessages.isEmpty)
        loop.push(.start)
        loop.run(cycles: 100)
        let start = loop.transportMessages.first
        #expect(start?.bytes == [0xFA] && start.map { Self.ticks(loop).contains($0.jackFrame) } == true, "\(loop.transportMessages.map(\.bytes))")
        #expect(loop.onsets.first?.jackFrame == start?.jackFrame && Self.evenlySpaced(Self.ticks(loop)))
    }

    /// Following JACK transport without a master: stopped, the clock runs at
    /// Tactus's own tempo; the transport's roll starts the song on its first
    /// rolling cycle; its stop is Stop and Song Position, the clock going on.
    @Test func followingTheClockRunsWhileTheTransportStandsStill() throws {
        let loop = try SimulatedProcessLoop(options: Self.options(), mode: .follow)
        loop.run(cycles: 50)
        let before = Self.ticks(loop)
        loop.transport.start()
        loop.run(cycles: 200)
        loop.transport.stop()
        loop.run(cycles: 100)
        let words = loop.transportMessages
        print("simulated clock while stopped, following: \(before.count) ticks before the roll, transport \(words.map { "\($0.bytes) at \($0.jackFrame)" }), "
              + "\(Self.ticks(loop, from: words.last?.jackFrame ?? 0).count) ticks after the stop")
        #expect(before.first == 1_000_000 && before.count >= 12 && Self.evenlySpaced(before), "\(before)")
        #expect(words.count == 3 && words[0].bytes == [0xFA] && words[1].bytes == [0xFC] && words[2].bytes.first == 0xF2, "\(words.map(\.bytes))")
        guard words.count == 3 else { return }
        let afterStop = Self.ticks(loop, from: words[1].jackFrame)
        #expect(afterStop.count >= 24 && Self.evenlySpaced(afterStop), "\(afterStop)")
        #expect(!loop.onsets.contains { $0.jackFrame > words[1].jackFrame })
    }

    /// `--link-start-stop` in a session nobody plays: the clock runs at the
    /// session's tempo, and a peer's Start starts Tactus on that bar line.
    @Test func inALinkSessionNobodyPlaysTheClockRunsUntilAPeerStarts() throws {
        let session = SimulatedLinkTests.runningSession(sharesStartStop: true)
        let loop = try SimulatedProcessLoop(options: Self.options(link: LinkRunOptions(sharesStartStop: true)), link: session)
        let start = session.time(atSessionBeat: 8)
        session.peerSetsPlaying(true, atSessionBeat: 8, at: start - 1_000_000, heard: start - 997_000)
        loop.run(untilJackFrame: 1_300_000)
        let words = loop.transportMessages
        let startFrame = SimulatedLinkTests.sounding(start, latency: 0)
        let stopped = Self.ticks(loop, to: startFrame)
        print("simulated clock while stopped, Link: \(stopped.count) ticks before the peer's Start, Start \(words.map { "\($0.bytes) at \($0.jackFrame)" }) (its bar line \(startFrame))")
        #expect(stopped.count >= 24 && Self.evenlySpaced(stopped), "\(stopped)")
        #expect(words.first?.bytes == [0xFA] && words.first?.jackFrame == startFrame)
    }
}
