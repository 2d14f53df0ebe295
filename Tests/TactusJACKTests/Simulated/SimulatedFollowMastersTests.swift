import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// Following masters other than the tests' own, through the real JACK cycle
/// on the simulated process loop: klick's BBT, PipeWire's a cycle late, and
/// quitting while a master rolls.
@Suite struct SimulatedFollowMastersTests {
    /// Tactus following `transport` rolled from frame 0 for `frames`: the loop.
    static func follow(_ transport: ScriptedTransport, frames: UInt32) throws -> SimulatedProcessLoop {
        let loop = try SimulatedProcessLoop(options: SimulatedFollowTests.followOptions(), mode: .follow, transport: transport)
        loop.run(cycles: 8)
        loop.transport.locate(0)
        loop.transport.start()
        while !(loop.transport.rolling && loop.transport.frame >= frames) { loop.cycle() }
        return loop
    }

    /// klick `-T` playing 2 bars 4/4 at 120, 3 bars 3/4 at 133, 3 bars 4/4 at
    /// 133, rolled from frame 0: every one of its 29 beats has Tactus's click
    /// within 1 frame, downbeats included (at bar 2 and 3 klick's BBT says
    /// beat 5 of 4 on the cycle's first frame), the accent on klick's bar
    /// lines and nowhere else, one click a beat, and no locate answered (the
    /// only transport message is the Start).
    @Test func followingKlickEveryBeatHasItsClickAndEveryBarLineItsAccent() throws {
        let klick = KlickTempoMap.barLinesOnCycleStarts
        let end = klick.beats.last!.frame + 1000
        let loop = try Self.follow(ScriptedTransport(master: klick.position), frames: UInt32(end))
        let clicks = loop.onsets.compactMap { o in o.transportFrame.map { (frame: Double($0), accent: o.accent) } }
        var missing: [String] = []
        for b in klick.beats {
            let near = clicks.filter { abs($0.frame - b.frame) <= 1 }
            if near.count != 1 || near[0].accent != (b.beat == 1) {
                missing.append("bar \(b.bar) beat \(b.beat) at \(b.frame): \(near.map { "\($0.frame)\($0.accent ? " accent" : "")" })")
            }
        }
        let words = loop.transportMessages.map(\.bytes)
        print("simulated follow of klick: \(loop.onsets.count) clicks for \(klick.beats.count) beats, \(missing.count) without their click or accent, transport \(words)")
        #expect(missing.isEmpty, "\(missing)")
        #expect(loop.onsets.count == klick.beats.count, "\(loop.onsets.map(\.transportFrame))")
        #expect(words == [[0xFA]], "\(words)")
    }

    /// PipeWire's JACK: every cycle's BBT is the one the master wrote for the
    /// cycle before, read with this cycle's frame (docs/DESIGN.md §13.6). The
    /// tests' master at 120 BPM 4/4 then 133 from bar 5: every click within
    /// ±0.5 frame of the master's beat, none a period late, the accent on its
    /// bar lines; Start and no locate.
    @Test func followOnPipeWireClicksOnTheMastersBeatsThroughItsStaleBBT() throws {
        let map = TestTempoMap([(0, 120, 4), (16, 133, 4)])
        let loop = try Self.follow(ScriptedTransport(master: map.position, lateBBT: true), frames: 800_000)
        let beats = map.beats(upTo: 800_000)
        var off: [String] = []
        for o in loop.onsets {
            guard let t = o.transportFrame.map(Double.init), let b = beats.min(by: { abs($0.frame - t) < abs($1.frame - t) }) else {
                off.append("\(o.jackFrame) not rolling"); continue
            }
            if abs(t - b.frame) > 0.5 || o.accent != (b.beat == 1) { off.append("\(t): bar \(b.bar) beat \(b.beat) at \(b.frame)") }
        }
        let words = loop.transportMessages.map(\.bytes)
        print("simulated follow on PipeWire's late BBT: \(loop.onsets.count) clicks for \(beats.count) beats, \(off.count) off, transport \(words), stale readings \(loop.context.pointee.follower.staleReadings)")
        #expect(off.isEmpty, "\(off)")
        #expect(loop.onsets.count == beats.count)
        #expect(words == [[0xFA]], "\(words)")
    }

    /// Quitting while following a rolling master: Tactus's own Stop is the
    /// last byte its clock sends (the engine plays it; it is not handed to the
    /// source as a transport request), and no tick comes after it.
    @Test func quittingWhileFollowingARollingMasterSendsStopLast() throws {
        let map = TestTempoMap([(0, 120, 4)])
        let loop = try Self.follow(ScriptedTransport(master: map.position), frames: 144_000)
        loop.quit()
        loop.run(cycles: 10)
        let words = loop.transportMessages.map(\.bytes)
        let stop = loop.transportMessages.last
        print("simulated follow, quit while rolling: \(loop.ticks.count) ticks, then \(words)")
        #expect(words == [[0xFA], [0xFC]], "\(words)")
        // A tick every 1000 frames (120 BPM) from transport frame 0 to transport
        // frame 144 000, where the loop quits: 145, none missing, none doubled.
        #expect(loop.ticks.count == 145 && zip(loop.ticks, loop.ticks.dropFirst()).allSatisfy { $1 &- $0 == 1000 }, "\(loop.ticks)")
        if let stop { #expect(loop.ticks.allSatisfy { $0 < stop.jackFrame }) }
        #expect(!loop.events.contains { if case .transportRequested = $0 { true } else { false } }, "the Stop is not asked of the transport: \(loop.events)")
    }

    /// A locate past a meter change the follower never saw (the live test's):
    /// the tests' master (120 BPM, 4/4 to bar 5, 3/4 from there) rolls from
    /// frame 0 and, in bar 2, is located to transport frame 671 999, one frame
    /// before bar 9 (4 bars of 4 beats and 4 of 3: 28 beats of 24 000 frames).
    /// Publishing `bar_start_tick`, the master says bar 8 starts 25 beats in:
    /// Stop, Song Position 112 (28 beats in 16ths) and Continue on bar 9, and
    /// from there every click on a beat of the map, the accent every third
    /// from 672 000. Without it (0, as most masters publish) Tactus counts the
    /// bars before bar 8 in the 4/4 it saw last: Song Position 124.
    @Test(arguments: [(true, 112), (false, 124)])
    func followCountsBarsPastAMeterChangeItNeverSawFromBarStartTick(publishes: Bool, songPosition: Int) throws {
        var map = TestTempoMap([(0, 120, 4), (16, 120, 3)])
        map.barStartTick = publishes
        let loop = try Self.follow(ScriptedTransport(master: map.position), frames: 120_000)
        loop.transport.locate(671_999)
        while !(loop.transport.rolling && loop.transport.frame >= 800_000) { loop.cycle() }
        let words = loop.transportMessages.map(\.bytes)
        let position = [0xF2, UInt8(songPosition & 0x7F), UInt8(songPosition >> 7)]
        let after = loop.onsets.compactMap { o in o.transportFrame.map { (t: Int64($0), accent: o.accent) } }.filter { $0.t >= 671_000 }
        print("simulated follow, locate past an unseen meter change (bar_start_tick \(publishes ? "published" : "0")): \(words), clicks after it \(after.prefix(4).map { "\($0.t)\($0.accent ? " accent" : "")" })")
        #expect(words == [[0xFA], [0xFC], position, [0xFB]], "\(words)")
        guard publishes else { return }
        #expect(after.count == 6, "\(after)")
        for (k, click) in after.enumerated() {
            #expect(click.t == 672_000 + Int64(k) * 24_000 && click.accent == (k % 3 == 0), "click \(k) at \(click.t)")
        }
    }
}
