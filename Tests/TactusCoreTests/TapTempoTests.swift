import Testing
@testable import TactusCore

@Suite("Tap tempo: average interval of the last taps within 3 s, at least two")
struct TapTempoTests {
    func taps(_ seconds: [Double], into tapTempo: inout TapTempo) -> [BPM?] {
        seconds.map { tapTempo.tap(at: .seconds($0)) }
    }

    @Test func oneTapGivesNoTempoTwoTapsGiveOne() {
        var t = TapTempo()
        #expect(taps([0, 0.5], into: &t) == [nil, BPM(120)])
    }

    @Test func theTempoIsTheAverageIntervalOverAllTapsInTheWindow() {
        var t = TapTempo()
        // Intervals 0.50, 0.52, 0.48, 0.50: span 2.00 s over 4 intervals = 0.5 s = 120 BPM,
        // although the single intervals say 115.38 and 125.
        let result = taps([0, 0.50, 1.02, 1.50, 2.00], into: &t)
        #expect(result == [nil, BPM(120), BPM(118), BPM(120), BPM(120)])
    }

    @Test func theResultIsRoundedToTheWholeBPM() {
        var t = TapTempo()
        // 0.51 s: 117.647 BPM → 118; 0.6 s: 100; 0.333333 s: 180.0002 → 180.
        #expect(taps([0, 0.51], into: &t).last == BPM(118))
        t.reset()
        #expect(taps([10, 10.6], into: &t).last == BPM(100))
        t.reset()
        #expect(taps([20, 20.333333], into: &t).last == BPM(180))
    }

    @Test func tapsOlderThanThreeSecondsBeforeTheNewestNoLongerCount() {
        var t = TapTempo()
        // Slow taps at 0 and 1 (60 BPM), then 0.5 s taps from 3.5: at 3.5 the tap
        // at 0 is 3.5 s old and drops; 1 → 3.5 is one interval of 2.5 s (24 BPM);
        // at 4.0, taps 1, 3.5, 4.0: 2 intervals over 3.0 s (exactly the window, kept) = 40 BPM;
        // at 4.5, the tap at 1 is 3.5 s old: 3.5, 4.0, 4.5 → 120 BPM.
        let result = taps([0, 1, 3.5, 4.0, 4.5], into: &t)
        #expect(result == [nil, BPM(60), BPM(24), BPM(40), BPM(120)])
    }

    @Test func aPauseLongerThanThreeSecondsStartsAgainFromOneTap() {
        var t = TapTempo()
        #expect(taps([0, 0.5, 3.500001], into: &t) == [nil, BPM(120), nil])
        #expect(t.count == 1)
        #expect(t.tap(at: .seconds(4.0)) == BPM(120))
    }

    @Test func twoTapsAtTheSameMicrosecondGiveNoTempo() {
        var t = TapTempo()
        #expect(taps([1, 1], into: &t) == [nil, nil])
    }

    @Test func aTapEarlierThanThePreviousStartsAfresh() {
        var t = TapTempo()
        #expect(taps([5, 5.5, 4], into: &t) == [nil, BPM(120), nil])
        #expect(t.count == 1)
    }

    @Test func veryFastTapsClampAt999AndOnlyTheNewest16Count() {
        var t = TapTempo()
        // 30 ms apart: 2000 BPM, clamped to 999.
        #expect(taps([0, 0.03], into: &t).last == BPM(999))
        t.reset()
        // 20 taps within 3 s: four 0.2 s apart, then sixteen 0.1 s apart from 1.0 s.
        // The newest 16 span 1.5 s: 600 BPM (with a 17th, 0.6 → 2.5 s, it would be 505).
        let times = [0.0, 0.2, 0.4, 0.6] + (0..<16).map { 1.0 + 0.1 * Double($0) }
        #expect(taps(times, into: &t).last == BPM(600))
        #expect(t.count == 16)
    }
}
