import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// One tick of an incoming clock delivered late, or lost, around a beat,
/// through the real JACK cycle on the simulated process loop (docs/DESIGN.md
/// §9.1, the late-tick rule of `ClockFollower.inferLostTick`): judged on what
/// the cycle plays (the clicks, the clock out) over the whole take, not on the
/// follower's predictions. A tick late by more than half a period makes the
/// long interval of a lost one; the follower puts a tick back at the line's
/// frame and only the next tick says which it was, so the click of a beat
/// next to it, and every clock tick out, is where the song stands in between.
@Suite struct SimulatedClockInLateTickTests {
    static let rate = 48_000.0
    /// The beat whose tick before, own tick or tick after is disturbed (the fit
    /// is about 137 ticks wide by then, `fitTicks`), and the take: Start, then
    /// this many beats of ticks (song ticks 0 … 24 × beats − 1).
    static let disturbedBeat = 6
    static let beats = 8

    enum Delivery: Equatable, CustomStringConvertible {
        /// Late by so many periods; from one period on the next tick is handed on
        /// with it, in the same instant (a stalled delivery: MIDI keeps the order).
        case late(periods: Double)
        /// Never delivered.
        case lost

        var description: String {
            switch self {
            case .late(let periods): "late by \(periods) periods"
            case .lost: "lost"
            }
        }
    }

    static let deliveries: [Delivery] = [.late(periods: 0.55), .late(periods: 0.7), .late(periods: 0.95),
                                         .late(periods: 1.2), .late(periods: 1.45), .lost]

    /// What a take played, against the sender's true ticks.
    struct Take {
        /// Every song tick's true frame (the sender's), song tick 0 first.
        var truth: [Double]
        var clicks: [Double]
        var clockOut: [Double]
        var lostTicks: Int
        var newestSongTick: Int64?
    }

    /// The sender's clock at `bpm` into `clock_in`, 2000 frames after 20 cycles,
    /// each tick on its frame (rounded) or, `quantised`, at the first frame of
    /// the period after the one it fell in (a bridge forwarding a cycle's events
    /// at the next cycle's start); song tick `disturbed` delivered as `delivery` says.
    static func take(bpm: Double, disturbed: Int?, delivery: Delivery = .lost, quantised: Bool = false) throws -> Take {
        let loop = try SimulatedProcessLoop(options: SimulatedClockInJitterTests.options())
        loop.run(cycles: 20)
        let first = loop.jackFrame + 2000
        let period = rate * 60 / (24 * bpm)
        let truth = (0..<(24 * beats)).map { Double(first) + Double($0) * period }
        // The loop's periods start at `first` - 2000 + k·256.
        let base = Double(first) - 2000
        func delivered(_ frame: Double) -> UInt32 {
            quantised ? UInt32(base + ((frame - base) / 256).rounded(.down) * 256 + 256) : UInt32(frame.rounded())
        }
        var arrivals: [UInt32?] = truth.map(delivered)
        if let n = disturbed {
            switch delivery {
            case .lost:
                arrivals[n] = nil
            case .late(let periods):
                arrivals[n] = delivered(truth[n] + periods * period)
                if periods >= 1 { arrivals[n + 1] = arrivals[n] }
            }
        }
        let ticks = arrivals.compactMap { $0 }
        loop.clockInput = [(ticks[0] - 1000, [0xFA])] + ticks.map { ($0, [0xF8]) }
        loop.run(untilJackFrame: ticks.last! + 256)
        return Take(truth: truth, clicks: loop.onsets.map { Double($0.jackFrame) }, clockOut: loop.ticks.map(Double.init),
                    lostTicks: loop.context.pointee.clockIn.follower.lostTicks,
                    newestSongTick: loop.context.pointee.clockIn.follower.newestSongTick)
    }

    /// What is wrong with a take: each beat from the first (the song starts at
    /// the lock, on the Start's third tick) clicked exactly once, within `bound`
    /// frames of `beat(k)`; a clock tick out for every song tick from the 6th
    /// (where the clock out joins, `SimulatedClockInTests`), none twice, none
    /// dropped, each within `bound` of `tick(n)`; the song at the sender's last tick.
    static func judge(_ take: Take, bound: Double, beat: (Int) -> Double, tick: (Int) -> Double) -> (worstClick: Double, worstTick: Double, wrong: [String]) {
        var wrong: [String] = []
        let beatNumbers = 1..<beats
        var worstClick = 0.0
        for k in beatNumbers {
            let near = take.clicks.filter { abs($0 - take.truth[24 * k]) < 12 * (take.truth[1] - take.truth[0]) }
            if near.count != 1 { wrong.append("beat \(k): \(near.count) clicks \(near.map { $0 - beat(k) })") }
            for click in near { worstClick = max(worstClick, abs(click - beat(k))) }
        }
        if take.clicks.count != beatNumbers.count { wrong.append("\(take.clicks.count) clicks for \(beatNumbers.count) beats") }
        if worstClick > bound { wrong.append("a click \(worstClick) frames off") }
        let songTicks = 6..<(24 * beats)
        var worstTick = 0.0
        if take.clockOut.count != songTicks.count {
            wrong.append("\(take.clockOut.count) clock ticks out for \(songTicks.count) song ticks")
        } else {
            for (n, frame) in zip(songTicks, take.clockOut) { worstTick = max(worstTick, abs(frame - tick(n))) }
            if worstTick > bound { wrong.append("a clock tick out \(worstTick) frames off") }
        }
        if take.newestSongTick != Int64(24 * beats - 1) { wrong.append("the song at tick \(take.newestSongTick.map(String.init) ?? "none")") }
        return (worstClick, worstTick, wrong)
    }

    /// Ticks on their frames at 120 and 140 BPM, one delivered late by 0.55 to
    /// 1.45 periods or lost, at the tick before beat 6, its own, or the tick
    /// after: every beat clicked once, every song tick sent once on the clock
    /// out, each within a frame of the sender's (the tick and the click are each
    /// rounded to a frame, as on steady ticks): neither the tick put back nor
    /// its undoing moves the song.
    @Test(arguments: [120.0, 140])
    func aLateOrLostTickAroundABeatMovesNoClickAndNoClockTick(bpm: Double) throws {
        var failures: [String] = []
        for delivery in Self.deliveries {
            for offset in [-1, 0, 1] {
                let disturbed = 24 * Self.disturbedBeat + offset
                let take = try Self.take(bpm: bpm, disturbed: disturbed, delivery: delivery)
                let judged = Self.judge(take, bound: 1, beat: { take.truth[24 * $0] }, tick: { take.truth[$0] })
                print("simulated clock in at \(bpm) BPM, song tick \(disturbed) \(delivery): clicks worst \(judged.worstClick) frames, "
                      + "clock out worst \(judged.worstTick) frames, \(take.clockOut.count) ticks out, lost ticks \(take.lostTicks)")
                failures += judged.wrong.map { "song tick \(disturbed) \(delivery): \($0)" }
                #expect(take.lostTicks == (delivery == .lost ? 1 : 0), "song tick \(disturbed) \(delivery): \(take.lostTicks) ticks taken for lost")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The same with every tick on a 256-frame period boundary (a bridge), the
    /// beat's own tick disturbed: every beat clicked once and every song tick sent
    /// once; each click and clock tick within 16 frames (0.33 ms) of where the
    /// same clock undisturbed puts them (that take's own error from the true
    /// beats is the lattice's, `SimulatedClockInJitterTests`). The bound: two
    /// ticks at most (the one put back, the one after a late one) are fitted at
    /// a lattice frame other than their undisturbed arrival's, each at most a
    /// step (256) off, and one tick weighs at most 4/n in the line's next tick
    /// (n the fit's width, 137 here): 2 × 256 × 4 / 137 + 1 frame of rounding.
    /// Late by 0.55 periods at 140 BPM the lattice's step (0.3 period) puts the
    /// arrival 1.49 periods after the tick before, under the lost-tick range:
    /// it is fitted as it came, a tick late by under half a period, which the
    /// line weighs as a measurement (docs/DESIGN.md §9.1); within the same bound.
    @Test(arguments: [120.0, 140])
    func aLateOrLostBeatTickOnPeriodBoundariesMovesNoClickAndNoClockTickBeyondTheLattice(bpm: Double) throws {
        let steady = try Self.take(bpm: bpm, disturbed: nil, quantised: true)
        let clean = Self.judge(steady, bound: .infinity, beat: { steady.truth[24 * $0] }, tick: { steady.truth[$0] })
        try #require(clean.wrong.isEmpty, "\(clean.wrong)")
        print("simulated clock in at \(bpm) BPM on period boundaries, undisturbed: clicks worst \(clean.worstClick) frames from the true beats, clock out worst \(clean.worstTick)")
        var failures: [String] = []
        for delivery in Self.deliveries {
            let disturbed = 24 * Self.disturbedBeat
            let take = try Self.take(bpm: bpm, disturbed: disturbed, delivery: delivery, quantised: true)
            let judged = Self.judge(take, bound: 16, beat: { steady.clicks[$0 - 1] }, tick: { steady.clockOut[$0 - 6] })
            print("simulated clock in at \(bpm) BPM on period boundaries, song tick \(disturbed) \(delivery): clicks worst \(judged.worstClick) frames "
                  + "from the undisturbed take's, clock out worst \(judged.worstTick) frames, lost ticks \(take.lostTicks)")
            failures += judged.wrong.map { "song tick \(disturbed) \(delivery): \($0)" }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
