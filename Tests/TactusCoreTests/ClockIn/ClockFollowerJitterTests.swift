import Testing
@testable import TactusCore

/// The follower against an incoming clock's jitter (docs/DESIGN.md §9.1): each
/// beat's frame as the follower predicted it before the beat's tick arrived,
/// against the sender's true beat. Judged from the 8th beat, when the fit has
/// reached its full width (192 ticks, 4 s at 120 BPM), over 192 beats.
@Suite("Clock follower: jitter and period-quantised arrival averaged out")
struct ClockFollowerJitterTests {
    static let beats = 8..<200

    /// USB MIDI's ±2 ms, uniform, on every tick at 120 BPM: σ 1.15 ms in, the
    /// beats' root mean square error (bias included) within 0.25 ms and the worst
    /// within 1 ms, for five different senders.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func uniformJitterOfTwoMillisecondsIsAveragedToAQuarterMillisecond(seed: UInt64) {
        let truth = ClockFeed.truth(count: 24 * Self.beats.upperBound) { _ in 120 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.jittered(truth, milliseconds: 2, seed: seed))
        let figures = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: Self.beats))
        let early = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: 1..<8))
        print("±2 ms jitter at 120 BPM, seed \(seed): \(figures); beats 1–7: \(early)")
        #expect(figures.count == Self.beats.count)
        #expect(figures.rootMeanSquare <= 0.25)
        #expect(figures.worst <= 1)
        #expect(follower.latticeStep == 0)
        #expect(abs(follower.tempo! - 120) < 0.05)
    }

    /// Every tick delivered at the first frame of the 256-frame period after it
    /// (a bridge that forwards a cycle's events at the next cycle's start): the
    /// lattice is found, and the beats land within the same bounds, at 120 BPM and
    /// at tempos whose ticks slide over the periods differently.
    @Test(arguments: [120.0, 100, 133, 97.3, 160])
    func ticksOnAPeriodLatticeAreRecognisedAndUnbiased(bpm: Double) {
        let truth = ClockFeed.truth(count: 24 * Self.beats.upperBound) { _ in bpm }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.quantised(truth))
        let figures = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: Self.beats))
        print("256-frame lattice at \(bpm) BPM: \(figures)")
        #expect(follower.latticeStep == 256)
        #expect(figures.count == Self.beats.count)
        #expect(figures.rootMeanSquare <= 0.25)
        #expect(figures.worst <= 1)
    }

    /// The same lattice read as independent jitter (no correction): the half
    /// period every tick is late by is 2.67 ms, far outside the bound, which is
    /// what recognising the lattice is for.
    @Test func withoutTheLatticeTheBeatsWouldBeHalfAPeriodLate() {
        let truth = ClockFeed.truth(count: 24 * Self.beats.upperBound) { _ in 120 }
        var settings = ClockFollowerSettings()
        settings.minimumLatticeStep = 1 << 40
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate, settings: settings)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.quantised(truth))
        let figures = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: Self.beats))
        #expect(follower.latticeStep == 0)
        #expect(figures.mean > 2)
    }

    /// A clock written to the frame at exactly 1000 frames a tick (120 BPM at 48 kHz)
    /// has every interval equal: no lattice, and every beat exact.
    @Test func aSteadyClockIsNoLatticeAndIsFollowedToTheFrame() {
        let truth = ClockFeed.truth(count: 24 * 40) { _ in 120 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: truth.map { Int64($0) })
        #expect(follower.latticeStep == 0)
        #expect(ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: 1..<40)).worst < 0.001)
        #expect(follower.bpm == BPM(120))
    }

    /// ±2 ms at the ends of a musician's range: at 300 BPM two arrivals' jitter is
    /// almost half an interval, yet no jump and no lost tick is seen (three intervals
    /// 20 % off one way would need one arrival 60 % of a period, 5 ms, late); at
    /// 40 BPM a tick is 62.5 ms. Both within the 120 BPM bounds.
    @Test(arguments: [40.0, 300])
    func jitterAtTheEndsOfTheRangeStaysWithinTheBounds(bpm: Double) {
        let beats = 8..<120
        let truth = ClockFeed.truth(count: 24 * beats.upperBound) { _ in bpm }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.jittered(truth, milliseconds: 2, seed: 17))
        let figures = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: beats))
        print("±2 ms jitter at \(bpm) BPM: \(figures)")
        #expect(!run.changes.contains { !$0.isDisjoint(with: [.jumped, .tickLost]) })
        #expect(follower.lostTicks == 0)
        #expect(figures.count == beats.count)
        #expect(figures.rootMeanSquare <= 0.25 && figures.worst <= 1)
        #expect(abs(follower.tempo! - bpm) < bpm * 0.0005)
    }
}
