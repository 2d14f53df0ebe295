@testable import TactusCore

/// A test's clock sender: the true frame of every tick (a tempo that may step or
/// ramp), what arrives of it (jittered, or snapped to a period lattice), and the
/// follower fed as the JACK cycle will feed it: every 256-frame cycle `advance`s
/// it, and each tick arrives in its cycle.
struct ClockFeed {
    static let sampleRate = 48_000
    static let period: Int64 = 256

    /// Frames a tick lasts at `bpm` (24 ticks a quarter note).
    static func framesPerTick(_ bpm: Double) -> Double { 60 * Double(sampleRate) / (24 * bpm) }

    /// The true frames of `count` ticks from frame `first`, the n-th tick's interval
    /// at the tempo `bpm(n)`, so a tempo change takes effect at a tick.
    static func truth(count: Int, first: Double = 10_000, bpm: (Int) -> Double) -> [Double] {
        var frames: [Double] = []
        frames.reserveCapacity(count)
        var t = first
        for n in 0..<count {
            frames.append(t)
            t += framesPerTick(bpm(n))
        }
        return frames
    }

    /// Uniform ±`milliseconds` jitter on every tick, the same every run.
    static func jittered(_ truth: [Double], milliseconds: Double, seed: UInt64) -> [Int64] {
        var random = SplitMix64(state: seed)
        let span = milliseconds * Double(sampleRate) / 1_000
        return truth.map { t in
            let u = Double(random.next() >> 11) / Double(1 << 53)
            return Int64((t + (2 * u - 1) * span).rounded())
        }
    }

    /// Each tick delivered at the first frame of the period after the one it fell in.
    static func quantised(_ truth: [Double], step: Int64 = period) -> [Int64] {
        truth.map { t in (Int64(t.rounded(.down)) / step + 1) * step }
    }

    /// What the follower made of each tick before it arrived: its predicted frame
    /// of the song tick it is (nil before a lock), and what each arrival changed.
    struct Run {
        var predicted: [Double?] = []
        var changes: [ClockFollowerChanges] = []
        var statesAfter: [ClockFollowerState] = []
        var tempoAfter: [Double?] = []
    }

    /// Sends Start, then `arrivals` as ticks (song ticks 0, 1, …), advancing the
    /// follower every cycle as the JACK cycle does.
    static func run(_ follower: inout ClockFollower, arrivals: [Int64]) -> Run {
        var run = Run()
        _ = follower.receive(.start, atFrame: arrivals[0] - 100)
        var cycle = (arrivals[0] - 100) / period * period
        for (n, arrival) in arrivals.enumerated() {
            while cycle + period <= arrival {
                cycle += period
                _ = follower.advance(toFrame: cycle)
            }
            run.predicted.append(follower.frame(ofSongTick: Int64(n)))
            run.changes.append(follower.receive(.tick, atFrame: arrival))
            run.statesAfter.append(follower.state)
            run.tempoAfter.append(follower.tempo)
        }
        return run
    }

    /// Errors (ms) of the predicted frames of the beats (every 24th tick) in `beats`.
    static func beatErrors(_ run: Run, truth: [Double], beats: Range<Int>) -> [Double] {
        beats.compactMap { beat in
            let n = beat * 24
            guard n < truth.count, let p = run.predicted[n] else { return nil }
            return (p - truth[n]) * 1_000 / Double(sampleRate)
        }
    }

    struct Figures: CustomStringConvertible {
        /// Beats judged; their mean error, spread around the mean, root mean square
        /// around zero (the spread with the bias in it) and worst error, in ms.
        var count: Int, mean: Double, standardDeviation: Double, rootMeanSquare: Double, worst: Double
        init(_ errors: [Double]) {
            count = errors.count
            let n = Double(max(count, 1))
            mean = errors.reduce(0, +) / n
            let m = mean
            standardDeviation = (errors.map { ($0 - m) * ($0 - m) }.reduce(0, +) / n).squareRoot()
            rootMeanSquare = (errors.map { $0 * $0 }.reduce(0, +) / n).squareRoot()
            worst = errors.map(abs).max() ?? .infinity
        }
        var description: String {
            func f(_ x: Double) -> String { String(Int((x * 1000).rounded())) + " µs" }
            return "\(count) beats: mean \(f(mean)), σ \(f(standardDeviation)), rms \(f(rootMeanSquare)), worst \(f(worst))"
        }
    }
}
