import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--transport follow` through the real JACK cycle on a simulated process
/// loop (`SimulatedProcessLoop`): the live recordings' scenarios, exact to the
/// frame and the same every run, no server.
@Suite struct SimulatedFollowTests {
    static let rate = 48000.0

    static func followOptions(bpm: Double = 100) -> JackRunOptions {
        var o = JackRunOptions()
        o.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(bpm))
        o.startStopped = true
        return o
    }

    /// The live follow test's run (the test master: 120 BPM 4/4, 133 from
    /// bar 5, 3/4 from bar 9, integer ticks; the transport rolled from frame 0,
    /// located at 16.5 s, bar 10, to transport frame 990 315, 0.79 frame before
    /// bar 13; stopped at 22 s), Tactus following at its own 100 BPM: every
    /// click on the map's beat, the first after the start, the tempo step and
    /// the locate included (the live test leaves those out); the accent on
    /// the map's bar lines only; 24 clock ticks a beat; Start; Stop, Song
    /// Position 176 and Continue for the locate, on bar 13's frame; Stop and
    /// Song Position at the end, nothing else.
    @Test func followClicksOnTheMastersBeatsThroughATempoStepAMeterChangeAndALocate() throws {
        let map = TestTempoMap([(0, 120, 4), (16, 133, 4), (32, 133, 3)])
        let loop = try SimulatedProcessLoop(options: Self.followOptions(), mode: .follow,
                                            transport: ScriptedTransport(master: map.position))
        loop.run(cycles: 20)
        loop.transport.locate(0)
        loop.transport.start()
        while !(loop.transport.rolling && loop.transport.frame >= 792_000) { loop.cycle() }
        loop.transport.locate(990_315)
        while !(loop.transport.rolling && loop.transport.frame >= 1_056_000) { loop.cycle() }
        loop.transport.stop()
        loop.run(cycles: 20)

        var beats = map.beats(upTo: 792_000).filter { $0.frame < 792_000 }
        beats += map.beats(upTo: 1_056_000).filter { $0.frame >= 990_315 && $0.frame < 1_056_000 }
        var off: [String] = []
        var worst = 0.0
        let clicks = loop.onsets
        for o in clicks {
            guard let t = o.transportFrame else { off.append("click at JACK frame \(o.jackFrame) in a cycle not rolling"); continue }
            guard let b = beats.min(by: { abs($0.frame - Double(t)) < abs($1.frame - Double(t)) }) else { continue }
            let error = Double(t) - b.frame
            worst = max(worst, abs(error))
            if abs(error) > 0.5 || o.accent != (b.beat == 1) {
                off.append("click at transport frame \(t)\(o.accent ? " accent" : ""): bar \(b.bar) beat \(b.beat) at \(b.frame)")
            }
        }
        let words = loop.transportMessages.map(\.bytes)
        print("simulated follow: \(clicks.count) clicks for \(beats.count) beats, worst \(worst) frames from the master's beat, transport \(words)")
        #expect(off.isEmpty, "\(off)")
        #expect(clicks.count == beats.count, "\(clicks.count) clicks, \(beats.count) beats")
        #expect(words == [[0xFA], [0xFC], [0xF2, 0x30, 0x01], [0xFB], [0xFC], words.count > 5 ? words[5] : []], "\(words)")
        #expect(words.count == 6 && words[5].first == 0xF2, "\(words)")
        // The Continue of the locate on bar 13's first beat (990 315.8): the frame rounded.
        let cont = loop.transportMessages.first { $0.bytes == [0xFB] }
        let row = cont.flatMap { c in loop.cycles.last { $0.jackFrame <= c.jackFrame } }
        if let cont, let row {
            let t = Int(row.transportFrame) + Int(cont.jackFrame &- row.jackFrame)
            print("simulated follow: Continue at transport frame \(t), bar 13 at 990315.8")
            #expect(t == 990_316)
        }
        // 24 ticks from each click to the next, before the locate and after it.
        let ticks = loop.ticks
        let stop = loop.transportMessages.first { $0.bytes == [0xFC] }?.jackFrame ?? .max
        var counts: [Int] = []
        for (a, b) in zip(clicks, clicks.dropFirst()) where !(a.jackFrame < stop && b.jackFrame >= stop) {
            counts.append(ticks.filter { $0 >= a.jackFrame && $0 < b.jackFrame }.count)
        }
        #expect(Set(counts) == [24], "\(counts)")
    }
}
