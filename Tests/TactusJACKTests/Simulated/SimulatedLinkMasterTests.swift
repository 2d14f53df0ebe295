import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--link --transport master`: the Link session's timeline published as JACK
/// BBT (docs/DESIGN.md §11, §13.3), through the real cycle on the simulated
/// process loop and the scripted session. The live recording
/// (Tests/TactusJACKTests/LinkOnJACKTests.swift) judges the same from a
/// recorder on a loaded server; here each click and the BBT of its cycle are
/// exact, and the bound is the rounding of a click to its frame.
@Suite struct SimulatedLinkMasterTests {
    /// A beat the BBT of a cycle places, near a click: the cycle's first frame
    /// minus the ticks into the beat, or the next beat (frames per beat from
    /// the published tempo), whichever is nearer.
    static func beatFrame(of position: jack_position_t, cycleFrame: UInt32, near click: UInt32) -> (frame: Double, beat: Int32) {
        let framesPerBeat = 48_000 * 60 / position.beats_per_minute
        let into = position.tick_double / position.ticks_per_beat
        let candidates = [0.0, 1.0].map { Double(cycleFrame) + ($0 - into) * framesPerBeat }
        let next = abs(candidates[1] - Double(click)) < abs(candidates[0] - Double(click))
        let beat = next ? (position.beat % Int32(position.beats_per_bar)) + 1 : position.beat
        return (candidates[next ? 1 : 0], beat)
    }

    /// Two peers' tempo changes (120 → 133.7 → 151 BPM, as a pressure hold on
    /// the other peer gives): every click within half a frame of the beat its
    /// cycle's BBT places, the accent on beat 1, the tempo published the
    /// session's. The cycle in which a peer's tempo is heard was published
    /// before it was heard (the timebase callback writes the next cycle's BBT
    /// from this cycle's line): its clicks are left out, as live.
    @Test func linkAsMasterPublishesTheBeatOfEveryClick() throws {
        let session = SimulatedLinkTests.runningSession()
        let loop = try SimulatedProcessLoop(options: SimulatedLinkTests.options(), mode: .master, link: session,
                                            clickLatency: SimulatedLinkTests.latency)
        session.peerSetsTempo(133.7, at: loop.microseconds(atJackFrame: 1_000_000 + 4 * 48_000 + 77))
        session.peerSetsTempo(151, at: loop.microseconds(atJackFrame: 1_000_000 + 7 * 48_000 + 1_234))
        loop.run(untilJackFrame: 1_000_000 + 11 * 48_000)
        // JACK calls the timebase callback for rolling cycles (a stopped
        // transport's BBT is not refreshed): those are the ones published.
        let rolling = Set(loop.cycles.filter { $0.state.rawValue == JackTransportRolling.rawValue }.map(\.jackFrame))
        let published = loop.published.filter { rolling.contains($0.jackFrame) }
        let changes = Set(zip(published, published.dropFirst()).filter { $0.0.position.beats_per_minute != $0.1.position.beats_per_minute }.map(\.1.jackFrame))
        var worst = 0.0, judged = 0, wrongBeat: [String] = []
        for onset in loop.onsets {
            guard let cycle = published.last(where: { $0.jackFrame <= onset.jackFrame }),
                  onset.jackFrame < cycle.jackFrame + 256, !changes.contains(cycle.jackFrame) else { continue }
            let (frame, beat) = Self.beatFrame(of: cycle.position, cycleFrame: cycle.jackFrame, near: onset.jackFrame)
            worst = max(worst, abs(Double(onset.jackFrame) - frame))
            judged += 1
            if onset.accent != (beat == 1) { wrongBeat.append("\(onset.jackFrame): beat \(beat)\(onset.accent ? ", accent" : "")") }
        }
        let tempi = published.map(\.position.beats_per_minute)
        print("simulated Link as JACK BBT: \(loop.onsets.count) clicks, \(judged) judged (\(changes.count) tempo-change cycles left out), "
            + "worst |click − BBT beat| \(String(format: "%.3f", worst)) frames, published \(Set(tempi).sorted())")
        #expect(judged >= 20 && worst <= 0.5, "worst \(worst)")
        #expect(wrongBeat.isEmpty, "\(wrongBeat.prefix(5))")
        #expect(tempi.first == 120 && tempi.last.map { abs($0 - 151) < 0.01 } == true, "\(Set(tempi).sorted())")
        #expect(changes.count == 2)
    }
}
