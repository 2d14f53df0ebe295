import CJack
import Testing
@testable import TactusJACK

/// `BBTFollower` against PipeWire's stale BBT (docs/DESIGN.md §13.6): a master
/// at 120 BPM 4/4 (250 frames a pulse, a tick 12.5 frames), integer ticks, and
/// readings that carry this cycle's frame with the BBT of a cycle or more before.
@Suite struct BBTFollowerTests {
    static let period: UInt32 = 256

    /// The master's BBT of frame `bbtFrame`, read at transport frame `frame`.
    static func reading(frame: UInt32, bbtFrame: UInt32) -> jack_position_t {
        var p = jack_position_t()
        let beats = Double(bbtFrame) / 24000
        let bar = (beats / 4).rounded(.down)
        let inBar = beats - bar * 4
        let beat = inBar.rounded(.down)
        p.frame = frame
        p.valid = JackPositionBBT
        p.bar = Int32(bar) + 1
        p.beat = Int32(beat) + 1
        p.ticks_per_beat = 1920
        p.tick = Int32(((inBar - beat) * 1920).rounded(.down))
        p.beats_per_bar = 4
        p.beat_type = 4
        p.beats_per_minute = 120
        return p
    }

    /// Feeds cycle k (from cycle `first`) at frame 256 k the BBT `age(k)` periods old;
    /// returns each cycle's error in frames against the master's line, and whether it said `corrected`.
    static func follow(cycles: Int, from first: Int = 0, age: (Int) -> UInt32) -> [(error: Double, corrected: Bool)] {
        var follower = BBTFollower(sampleRate: 48000)
        var out: [(Double, Bool)] = []
        for k in first..<cycles {
            let frame = UInt32(k) * period
            let p = reading(frame: frame, bbtFrame: frame - min(frame, age(k) * period))
            guard let t = follower.position(p, frames: period, located: false) else { return out }
            out.append((t.songPulse * t.framesPerPulse - Double(frame), t.corrected))
        }
        return out
    }

    @Test func readingsAPeriodOldAfterAFreshOneStayOnTheFreshLine() {
        // The first rolling cycle at frame 0 reads 1.1.0 (frame 0's), then a period old.
        let run = Self.follow(cycles: 400, age: { $0 == 0 ? 0 : 1 })
        #expect(run.count == 400)
        #expect(run.allSatisfy { abs($0.error) < 12.5 && !$0.corrected }, "\(run.map(\.error))")
        #expect(run.dropFirst(100).allSatisfy { abs($0.error) <= 1 }, "\(run.dropFirst(100).map(\.error))")
    }

    @Test func aLineDrawnFromStaleReadingsMovesAheadOnceToAFreshOne() {
        // A period old from the first cycle read (frame 256), on time at cycle 200 and
        // every tenth after, else a period old again.
        let run = Self.follow(cycles: 400, from: 1, age: { $0 >= 200 && $0 % 10 == 0 ? 0 : 1 })
        #expect(run.prefix(199).allSatisfy { abs($0.error + 256) < 12.5 && !$0.corrected }, "\(run.prefix(199).map(\.error))")
        #expect(run[199].corrected)
        #expect(run.dropFirst(200).allSatisfy { abs($0.error) < 12.5 && !$0.corrected }, "\(run.dropFirst(201).map(\.error))")
        #expect(run.filter(\.corrected).count == 1)
    }

    @Test func readingsSeveralPeriodsOldUnderLoadStayOnTheLine() {
        // Cycles whose BBT is 2 to 11 periods old (missed cycles), among ones a period old.
        let ages: [Int: UInt32] = [50: 2, 51: 3, 90: 11, 91: 5, 150: 4]
        let run = Self.follow(cycles: 200, age: { $0 == 0 ? 0 : ages[$0] ?? 1 })
        #expect(run.allSatisfy { abs($0.error) < 12.5 && !$0.corrected }, "\(run.map(\.error))")
    }

    /// On PipeWire under load the recorder read BBT 5–10 periods old and 15–18
    /// frames off the whole periods, in the cycles where Tactus
    /// answered a locate nobody made (its own readings are not recorded): three
    /// cycles here, 6 periods and 40 frames old (3.2 ticks, past the slack of the
    /// whole-period rule), are held off the line, not taken as a locate.
    @Test func readingsOffTheWholePeriodsUnderLoadAreHeldOff() {
        var follower = BBTFollower(sampleRate: 48000)
        var errors: [Double] = []
        for k in 0..<200 {
            let frame = UInt32(k) * Self.period
            let age: UInt32 = k == 0 ? 0 : (100...102).contains(k) ? 6 * Self.period + 40 : Self.period
            let p = Self.reading(frame: frame, bbtFrame: frame - min(frame, age))
            guard let t = follower.position(p, frames: Self.period, located: false) else { break }
            errors.append(t.songPulse * t.framesPerPulse - Double(frame))
        }
        #expect(errors.count == 200)
        #expect(errors.allSatisfy { abs($0) < 12.5 }, "\(errors.enumerated().filter { abs($0.element) >= 12.5 }.prefix(5))")
        #expect(follower.readingsHeldOff == 3)
    }

    /// A master that moved its map 700 frames back at the same tempo, the frame
    /// going on: held off for 7 cycles, followed from the 8th.
    @Test func aMapMovedBackAtTheSameTempoIsTakenOnTheEighthCycle() {
        var follower = BBTFollower(sampleRate: 48000)
        var errors: [Double] = []
        for k in 0..<200 {
            let frame = UInt32(k) * Self.period
            let moved: UInt32 = k >= 100 ? 700 : 0
            let p = Self.reading(frame: frame, bbtFrame: frame - min(frame, moved))
            guard let t = follower.position(p, frames: Self.period, located: false) else { break }
            errors.append(t.songPulse * t.framesPerPulse - (Double(frame) - Double(moved)))
        }
        #expect(errors.count == 200)
        #expect(errors[100..<107].allSatisfy { abs($0 - 700) < 12.5 }, "\(errors[100..<107])")
        #expect(errors[107...].allSatisfy { abs($0) < 12.5 }, "\(errors[107...].prefix(5))")
        #expect(follower.readingsHeldOff == 7)
    }

    @Test func aLocateWhoseBBTIsFromBeforeItGoesOnFromTheLastLine() {
        var follower = BBTFollower(sampleRate: 48000)
        var last = 0.0
        for k in 0..<20 {
            let frame = UInt32(k) * Self.period
            last = follower.position(Self.reading(frame: frame, bbtFrame: frame), frames: Self.period, located: false)?.songPulse ?? -1
        }
        // Located to frame 990 315 while the BBT is still the previous cycle's.
        let held = follower.position(Self.reading(frame: 990_315, bbtFrame: 19 * Self.period), frames: Self.period, located: true)
        #expect(follower.heldOver)
        #expect(held?.songPulse == last + 256.0 / 250)
        // The next cycle, at the new frame with its BBT: the new position.
        let moved = follower.position(Self.reading(frame: 990_315, bbtFrame: 990_315), frames: Self.period, located: false)
        #expect(!follower.heldOver)
        #expect(abs((moved?.songPulse ?? 0) * 250 - 990_315) < 12.5)
    }
}
