import Testing
@testable import TactusCore

/// Start, Stop, Continue, Song Position and a dropout (docs/DESIGN.md §9.1).
@Suite("Clock follower: the song's transport and a dropout")
struct ClockFollowerTransportTests {
    static let tick: Int64 = 1_000   // 120 BPM at 48 kHz

    /// Ticks at 120 BPM from `first`, each advancing the follower to its frame first.
    static func ticks(_ follower: inout ClockFollower, from first: Int64, count: Int) -> [ClockFollowerChanges] {
        (0..<count).map { n in
            let frame = first + Int64(n) * tick
            _ = follower.advance(toFrame: frame)
            return follower.receive(.tick, atFrame: frame)
        }
    }

    /// Clock while stopped, then Start: the next tick is the song's tick 0 (bar 1),
    /// and the follower's grid puts song tick 24 (beat 2) a beat later.
    @Test func startPlaysFromBarOneTickZero() {
        var follower = ClockFollower(sampleRate: 48_000)
        _ = Self.ticks(&follower, from: 0, count: 30)
        #expect(!follower.isRolling && follower.state == .locked && follower.newestSongTick == nil)
        #expect(follower.receive(.start, atFrame: 29_500) == [])
        let changes = Self.ticks(&follower, from: 30_000, count: 2)
        #expect(changes[0] == .started && changes[1] == [])
        #expect(follower.newestSongTick == 1 && follower.isPlaying)
        #expect(abs(follower.frame(ofSongTick: 0)! - 30_000) < 1e-6)
        #expect(abs(follower.frame(ofSongTick: 24)! - 54_000) < 1e-6)
        let position = follower.songPosition(atFrame: 31_500)!
        #expect(abs(position.songTick - 1.5) < 1e-9 && abs(position.framesPerTick - 1_000) < 1e-9)
    }

    /// Stop stops the song where it is; Song Position 8 (8 sixteenths, 48 ticks)
    /// and Continue play on from there, at the next tick.
    @Test func songPositionAndContinuePlayFromThatSixteenth() {
        var follower = ClockFollower(sampleRate: 48_000)
        _ = follower.receive(.start, atFrame: 0)
        _ = Self.ticks(&follower, from: 0, count: 10)
        #expect(follower.newestSongTick == 9)
        #expect(follower.receive(.stop, atFrame: 9_500) == .stopped)
        #expect(!follower.isRolling && follower.nextSongTick == 10)
        _ = Self.ticks(&follower, from: 10_000, count: 5)
        #expect(follower.newestSongTick == nil && follower.nextSongTick == 10)
        #expect(follower.receive(.songPosition(midiBeats: 8), atFrame: 14_500) == .located)
        #expect(follower.receive(.continue, atFrame: 14_600) == [])
        #expect(Self.ticks(&follower, from: 15_000, count: 1) == [.continued])
        #expect(follower.newestSongTick == 48)
        #expect(abs(follower.frame(ofSongTick: 54)! - 21_000) < 1e-6)
        // While the song plays, a Song Position is no MIDI 1.0 and is ignored.
        #expect(follower.receive(.songPosition(midiBeats: 2), atFrame: 15_500) == .songPositionIgnored)
        #expect(Self.ticks(&follower, from: 16_000, count: 1) == [[]])
        #expect(follower.newestSongTick == 49)
        // Start again: the song's first tick once more.
        _ = follower.receive(.start, atFrame: 16_500)
        #expect(Self.ticks(&follower, from: 17_000, count: 1) == [.started] && follower.newestSongTick == 0)
    }

    /// Ticks stop for 3 beats without a Stop: after 3 tick periods the tempo is
    /// held (said once), after 2 beats (1 s at 120 BPM) the follower drops out and
    /// the song stops (said once); the ticks coming back relock within 6 ticks and
    /// the song plays on where the sender is (the 72 missed ticks counted).
    @Test func aDropoutOfThreeBeatsIsHeldThenStoppedThenRelocked() {
        var follower = ClockFollower(sampleRate: 48_000)
        _ = follower.receive(.start, atFrame: 0)
        _ = Self.ticks(&follower, from: 0, count: 48)
        let last: Int64 = 47_000
        var seen: [(frame: Int64, changes: ClockFollowerChanges)] = []
        var states: [ClockFollowerState] = []
        for frame in stride(from: last + 256, to: last + 73 * Self.tick, by: 256) {
            let changes = follower.advance(toFrame: frame)
            if !changes.isEmpty { seen.append((frame, changes)) }
            states.append(follower.state)
        }
        #expect(seen.map(\.changes) == [.holding, .droppedOut])
        #expect(seen[0].frame > last + 3 * Self.tick && seen[0].frame <= last + 3 * Self.tick + 256)
        #expect(seen[1].frame > last + 48_000 && seen[1].frame <= last + 48_000 + 256)
        #expect(states.last == .droppedOut && !follower.isRolling && follower.tempo == nil)
        // The sender went on: its tick 48 + 72 + n arrives at last + (73 + n) ticks.
        let back = Self.ticks(&follower, from: last + 73 * Self.tick, count: 8)
        #expect(back[0].contains(.continued))
        let relock = back.firstIndex { $0.contains(.locked) }
        #expect(relock != nil && relock! <= 5)
        #expect(follower.state == .locked && follower.isPlaying)
        let songTick = follower.newestSongTick
        #expect(songTick == 127)   // 47, then 73 ticks later, then 7 more
        #expect(abs(follower.tempo! - 120) < 0.01)
    }

    /// A shorter gap (5 tick periods, under the hold time) holds the tempo and
    /// plays through: the song counts the missed ticks and the grid does not move.
    @Test func aShortGapIsHeldAndTheGridStays() {
        var follower = ClockFollower(sampleRate: 48_000)
        _ = follower.receive(.start, atFrame: 0)
        _ = Self.ticks(&follower, from: 0, count: 48)
        #expect(follower.advance(toFrame: 47_000 + 3_500) == .holding)
        #expect(follower.state == .holding && follower.isPlaying)
        #expect(abs(follower.frame(ofSongTick: 60)! - 60_000) < 1e-6)
        let back = Self.ticks(&follower, from: 53_000, count: 4)
        #expect(back[0] == [] && back[2] == [])
        let songTick = follower.newestSongTick
        #expect(follower.state == .locked && songTick == 56)
        #expect(abs(follower.frame(ofSongTick: 60)! - 60_000) < 1e-6)
    }
}
