import Testing
@testable import TactusCore

/// Lock, tempo steps, a jump and a ramp (docs/DESIGN.md §9.1): the follower's
/// prediction of each tick before it arrives, against the sender's true tick.
@Suite("Clock follower: lock, steps, jumps and ramps followed")
struct ClockFollowerTempoTests {
    /// Errors (ms) of the predicted ticks in `ticks`.
    static func tickErrors(_ run: ClockFeed.Run, truth: [Double], ticks: Range<Int>) -> [Double] {
        ticks.map { n in ((run.predicted[n] ?? .infinity) - truth[n]) * 1_000 / Double(ClockFeed.sampleRate) }
    }

    /// Locked by the 6th tick (the 3rd, as the reference follower), said once; on
    /// ticks written to the frame (±0.5 frame of rounding) the tempo is within
    /// 0.1 BPM from then on and each next tick within 0.05 ms.
    @Test(arguments: [120.0, 97.3, 240])
    func lockComesWithinSixTicksOfTheFirst(bpm: Double) {
        let truth = ClockFeed.truth(count: 48) { _ in bpm }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: truth.map { Int64($0.rounded()) })
        let lockedAt = run.statesAfter.firstIndex(of: .locked)
        #expect(lockedAt != nil && lockedAt! <= 5)
        #expect(run.changes.filter { $0.contains(.locked) }.count == 1)
        #expect(run.statesAfter[lockedAt!...].allSatisfy { $0 == .locked })
        #expect(run.tempoAfter[lockedAt!...].allSatisfy { abs($0! - bpm) < 0.1 })
        #expect(Self.tickErrors(run, truth: truth, ticks: (lockedAt! + 1)..<48).allSatisfy { abs($0) < 0.05 })
    }

    /// With ±2 ms of jitter the lock still comes by the 6th tick.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func jitteredTicksLockWithinSixTicks(seed: UInt64) {
        let truth = ClockFeed.truth(count: 48) { _ in 120 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.jittered(truth, milliseconds: 2, seed: seed))
        #expect((run.statesAfter.firstIndex(of: .locked) ?? 99) <= 5)
        #expect(abs(follower.tempo! - 120) < 1)
    }

    /// 120 → 140 BPM at beat 16 (intervals 14 % shorter, under the jump ratio): every
    /// beat from the second after the step within 1 ms of the sender's.
    @Test func aStepFrom120To140IsFollowedFromTheSecondBeat() {
        let stepBeat = 16
        let truth = ClockFeed.truth(count: 24 * 40) { $0 < 24 * stepBeat ? 120 : 140 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: truth.map { Int64($0.rounded()) })
        let errors = ClockFeed.beatErrors(run, truth: truth, beats: (stepBeat + 2)..<40)
        print("step 120 → 140, beats from the second after: \(ClockFeed.Figures(errors))")
        #expect(errors.count == 40 - stepBeat - 2)
        #expect(errors.allSatisfy { abs($0) <= 1 })
        #expect(!run.changes.contains { $0.contains(.jumped) })
        #expect(run.changes[(24 * stepBeat)...].contains { $0.contains(.narrowed) })
        #expect(abs(follower.tempo! - 140) < 0.01)
    }

    /// The same step under ±2 ms of jitter: seen and followed within 2 ms from the
    /// fourth beat after it (the new tempo's fit has 3 beats of ticks by then).
    @Test func aStepUnderJitterIsFollowedWithinTwoMilliseconds() {
        let stepBeat = 16
        let truth = ClockFeed.truth(count: 24 * 40) { $0 < 24 * stepBeat ? 120 : 140 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.jittered(truth, milliseconds: 2, seed: 7))
        let errors = ClockFeed.beatErrors(run, truth: truth, beats: (stepBeat + 4)..<40)
        print("step 120 → 140 under ±2 ms jitter, from the fourth beat after: \(ClockFeed.Figures(errors))")
        #expect(errors.allSatisfy { abs($0) <= 2 })
        #expect(abs(follower.tempo! - 140) < 0.2)
    }

    /// Half the tempo at once: followed by the third interval at the new tempo
    /// (the narrower fits see it first on ticks written to the frame), the beats
    /// exact from the second after.
    @Test func halfTheTempoAtOnceIsFollowedWithinThreeIntervals() {
        let truth = ClockFeed.truth(count: 24 * 24) { $0 < 24 * 8 ? 120 : 60 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: truth.map { Int64($0.rounded()) })
        #expect(abs(run.tempoAfter[24 * 8 + 3]! - 60) < 0.01)
        #expect(run.changes[(24 * 8)...(24 * 8 + 3)].contains { !$0.isDisjoint(with: [.narrowed, .jumped]) })
        #expect(ClockFeed.beatErrors(run, truth: truth, beats: 10..<24).allSatisfy { abs($0) <= 1 })
    }

    /// On a period lattice the fit is not narrowed below 48 ticks, so halving the
    /// tempo is the jump's to see: three intervals over 20 % longer, a jump straight
    /// to the new tempo, said once, on the third.
    @Test func onALatticeAChangeOverTwentyPercentJumpsStraightToTheNewTempo() {
        let truth = ClockFeed.truth(count: 24 * 24) { $0 < 24 * 8 ? 120 : 60 }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: ClockFeed.quantised(truth))
        let jumps = run.changes.indices.filter { run.changes[$0].contains(.jumped) }
        #expect(jumps == [24 * 8 + 3])
        #expect(abs(run.tempoAfter[24 * 8 + 3]! - 60) < 60 * 0.1)
        let errors = ClockFeed.beatErrors(run, truth: truth, beats: 12..<24)
        print("lattice, 120 → 60 BPM, from the fourth beat after: \(ClockFeed.Figures(errors))")
        #expect(errors.allSatisfy { abs($0) <= 1 })
    }

    /// 100 → 160 BPM over 8 bars of 4/4 (the tempo rising evenly with every tick),
    /// between 2 bars at each end: every tick from the lock on within 2 ms of the
    /// sender's, and no error growing along the ramp (its second half no worse
    /// than twice its first).
    @Test func aRampFrom100To160Over8BarsIsFollowedWithinTwoMilliseconds() {
        let truth = ClockFeed.truth(count: 24 * 48) { n in
            let beat = Double(n) / 24
            return beat < 8 ? 100 : (beat < 40 ? 100 + 60 * (beat - 8) / 32 : 160)
        }
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: truth.map { Int64($0.rounded()) })
        let errors = Self.tickErrors(run, truth: truth, ticks: 6..<truth.count)
        let firstHalf = Self.tickErrors(run, truth: truth, ticks: (24 * 8)..<(24 * 24)).map(abs).max()!
        let secondHalf = Self.tickErrors(run, truth: truth, ticks: (24 * 24)..<(24 * 40)).map(abs).max()!
        print("ramp 100 → 160 over 8 bars: worst tick \(errors.map(abs).max()!) ms; halves \(firstHalf), \(secondHalf) ms")
        #expect(errors.allSatisfy { abs($0) <= 2 })
        #expect(secondHalf <= 2 * max(firstHalf, 0.05))
        #expect(abs(follower.tempo! - 160) < 0.01)
    }

    /// The same ramp under ±2 ms of jitter, for three senders. Inside the ramp
    /// (from its 4th beat to its end) the parabola knows the beats better than a
    /// line alone, which lags a ramp by the sixth of its curvature times its
    /// window squared: root mean square error at most three quarters of the
    /// line's. The ramp's first beat is the limit of any filter that averages
    /// the jitter: its first ticks cannot be told from jitter (printed, not bounded).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func insideARampUnderJitterTheParabolaBeatsTheLine(seed: UInt64) {
        let truth = ClockFeed.truth(count: 24 * 48) { n in
            let beat = Double(n) / 24
            return beat < 8 ? 100 : (beat < 40 ? 100 + 60 * (beat - 8) / 32 : 160)
        }
        let arrivals = ClockFeed.jittered(truth, milliseconds: 2, seed: seed)
        var follower = ClockFollower(sampleRate: ClockFeed.sampleRate)
        let run = ClockFeed.run(&follower, arrivals: arrivals)
        var lineOnly = ClockFollowerSettings()
        lineOnly.followsRamps = false
        var lineFollower = ClockFollower(sampleRate: ClockFeed.sampleRate, settings: lineOnly)
        let lineRun = ClockFeed.run(&lineFollower, arrivals: arrivals)
        let inside = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: 12..<40))
        let lineInside = ClockFeed.Figures(ClockFeed.beatErrors(lineRun, truth: truth, beats: 12..<40))
        let whole = ClockFeed.Figures(ClockFeed.beatErrors(run, truth: truth, beats: 2..<48))
        print("ramp 100 → 160 under ±2 ms jitter, seed \(seed), inside: \(inside); a line alone: \(lineInside); beats 2–47: \(whole)")
        #expect(inside.count == 28 && lineInside.count == 28)
        #expect(inside.rootMeanSquare <= 0.6 * lineInside.rootMeanSquare)
        #expect(inside.worst <= lineInside.worst)
    }
}
