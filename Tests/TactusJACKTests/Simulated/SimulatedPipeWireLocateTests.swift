import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// The live PipeWire follow test's locate with cycles PipeWire skipped round
/// it, exact to the frame (docs/DESIGN.md §3.6, §13.6): the test master's map
/// (120 BPM 4/4, 133 from bar 5, 3/4 from bar 9), PipeWire's BBT a cycle late,
/// the locate at 16.5 s to transport frame 990 315 (0.79 frame before bar 13),
/// and this client missing `missed` cycles `after` cycles after the locate was
/// asked. Live, the recording cannot say which cycles Tactus missed, and a
/// block PipeWire labels with another cycle's frame time moves its Continue
/// whole periods there; here the claim is exact: one Stop, Song Position and
/// Continue, the Continue on bar 13's frame (990 316, Song Position 176) when
/// the cycle holding it ran, else on the next 16th (995 729, Song Position
/// 177); every click after the locate on the map's beat, or dropped when its
/// frame fell in the gap; 24 ticks a beat between the clicks after it.
@Suite struct SimulatedPipeWireLocateTests {
    static func run(after: Int, missed: Int) throws -> (continueAt: Int, gap: [Range<Int>], resumedAt: Int, words: [[UInt8]], off: [String], counts: [Int]) {
        let map = TestTempoMap([(0, 120, 4), (16, 133, 4), (32, 133, 3)])
        let loop = try SimulatedProcessLoop(options: SimulatedFollowTests.followOptions(), mode: .follow,
                                            transport: ScriptedTransport(master: map.position, lateBBT: true))
        loop.run(cycles: 20)
        loop.transport.locate(0)
        loop.transport.start()
        while !(loop.transport.rolling && loop.transport.frame >= 792_000) { loop.cycle() }
        loop.transport.locate(990_315)
        loop.run(cycles: after)
        // The transport frames of the cycles missed (those the transport stood in, state aside).
        var gap: [Range<Int>] = []
        for _ in 0..<missed {
            let at = Int(loop.transport.frame)
            if loop.transport.rolling { gap.append(at..<(at + loop.period)) }
            loop.skip(cycles: 1)
        }
        let gapEnd = loop.jackFrame
        loop.cycle()
        // The transport frame of the first block after the gap.
        let resumedAt = Int(loop.cycles.last { $0.jackFrame == gapEnd }?.transportFrame ?? 0)
        while !(loop.transport.rolling && loop.transport.frame >= 1_056_000) { loop.cycle() }
        loop.transport.stop()
        loop.run(cycles: 20)

        let words = loop.transportMessages.map(\.bytes)
        var continueAt = -1
        if let cont = loop.transportMessages.first(where: { $0.bytes == [0xFB] }),
           let row = loop.cycles.last(where: { $0.jackFrame <= cont.jackFrame }) {
            continueAt = Int(row.transportFrame) + Int(cont.jackFrame &- row.jackFrame)
        }
        let beats = map.beats(upTo: 1_056_000).filter { $0.frame >= 990_315 && $0.frame < 1_056_000 }
        let stop = loop.transportMessages.first { $0.bytes == [0xFC] }?.jackFrame ?? .max
        let after = loop.onsets.filter { $0.jackFrame >= stop }
        var off: [String] = []
        for b in beats {
            let inGap = gap.contains { $0 ~= Int(b.frame.rounded(.up)) }
            let sounded = after.contains { o in o.transportFrame.map { abs(Double($0) - b.frame) <= 0.5 } ?? false }
            if sounded == inGap { off.append("bar \(b.bar) beat \(b.beat) at \(b.frame): \(sounded ? "sounded in the gap" : "missing")") }
        }
        for o in after where !beats.contains(where: { b in o.transportFrame.map { abs(Double($0) - b.frame) <= 0.5 } ?? false }) {
            off.append("click at transport frame \(o.transportFrame.map(String.init) ?? "none") on no beat")
        }
        // Ticks between the clicks after the locate: 24 a beat.
        var counts: [Int] = []
        for (a, b) in zip(after, after.dropFirst()) { counts.append(loop.ticks.filter { $0 >= a.jackFrame && $0 < b.jackFrame }.count) }
        return (continueAt, gap, resumedAt, words, off, counts)
    }

    /// Gaps of 1 to 4 cycles from the cycle the locate is asked in to 6
    /// cycles after it (the Starting cycle, the cycle with the new frame and
    /// the old BBT, the first with the new BBT, and the bar line's own cycle).
    @Test func theLocatesContinueIsOnBarThirteenOrAtTheFirstFrameAfterCyclesMissed() throws {
        for after in 0...6 {
            for missed in 1...4 {
                let r = try Self.run(after: after, missed: missed)
                print("simulated PipeWire locate, missed \(missed) cycles \(after) after it: transport frames missed \(r.gap), Continue at \(r.continueAt), \(r.words)")
                let label = "missed \(missed) cycles \(after) after the locate, transport frames \(r.gap), resumed at \(r.resumedAt)"
                // Bar 13 at 990 315.8 (Song Position 176): the Continue on its frame
                // rounded up; when the cycle holding it was missed, on the next 16th
                // (Song Position 177, 995 729.3): Song Position counts 16ths, so the
                // locate (§4.5) goes out on the first 16th still ahead, not late.
                let missedBarLine = r.gap.contains { $0 ~= 990_316 }
                let position: [UInt8] = missedBarLine ? [0xF2, 0x31, 0x01] : [0xF2, 0x30, 0x01]
                #expect(r.words.count == 6 && Array(r.words.prefix(4)) == [[0xFA], [0xFC], position, [0xFB]]
                        && r.words[4] == [0xFC] && r.words[5].first == 0xF2, "\(label): \(r.words)")
                #expect(r.continueAt == (missedBarLine ? 995_729 : 990_316), "\(label): Continue at \(r.continueAt)")
                #expect(r.off.isEmpty, "\(label): \(r.off)")
                #expect(Set(r.counts).isSubset(of: [24]), "\(label): ticks between clicks \(r.counts)")
            }
        }
    }
}
