import Testing
import TactusCore

@Suite("The last tempo is kept once it has settled, not at every press")
struct SettledTempoTests {
    @Test func aTempoSettlesTwoSecondsAfterItWasSetAndIsDueOnce() {
        var s = SettledTempo()
        #expect(s.deadline == nil)
        s.set(BPM(121), at: .seconds(1))
        #expect(s.deadline == .seconds(3))
        #expect(s.due(at: ControlTime(microseconds: 2_999_999)) == nil)
        #expect(s.due(at: .seconds(3)) == BPM(121))
        #expect(s.due(at: .seconds(4)) == nil)
        #expect(s.deadline == nil)
        #expect(s.written == BPM(121))
    }

    @Test func eachNewTempoPushesTheDeadlineOn() {
        var s = SettledTempo()
        var writes: [BPM] = []
        // 50 tempos 50 ms apart, a look at each: nothing is due until the last one stood 2 s.
        for i in 0..<50 {
            let time = ControlTime.seconds(0.05 * Double(i))
            s.set(BPM(Double(100 + i)), at: time)
            if let t = s.due(at: time) { writes.append(t) }
        }
        #expect(s.deadline == .seconds(4.45))
        for ms in stride(from: 2450, through: 10_000, by: 50) {
            if let t = s.due(at: .seconds(Double(ms) / 1000)) { writes.append(t) }
        }
        #expect(writes == [BPM(149)])
    }

    @Test func flushWritesWhatIsPendingOnceAndNothingEqualToTheLastWrite() {
        var s = SettledTempo(written: BPM(90))
        s.set(BPM(90), at: .zero)
        #expect(s.flush() == nil, "the file holds it already")
        s.set(BPM(97.3), at: .seconds(5))
        #expect(s.flush() == BPM(97.3))
        #expect(s.flush() == nil)
    }
}
