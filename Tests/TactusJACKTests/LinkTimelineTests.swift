import Foundation
import Testing
import TactusCore
import TactusLink

/// `LinkTimeline`, Link as the engine's time source (docs/DESIGN.md §11.2),
/// on a Link instance that is never enabled (a session of one, no network):
/// 120 BPM, 48 kHz, 256-frame blocks of 5333.33 µs, quantum 4. Link's times
/// are whole µs, so a block's frames per pulse is exact to 0.05 (5333 µs
/// for 5333.33: 6 parts in 100 000, at each end).
@Suite("Link: the time source over a session of one")
struct LinkTimelineTests {
    static let microsecondsPerFrame = 1_000_000.0 / 48_000

    /// Runs blocks from `frame`, each with the host time on a straight line from `host`.
    struct Blocks {
        var timeline: LinkTimeline
        let link: LinkAudio
        var frame: Int64 = 0
        let host: Double
        var latency = 0

        mutating func next(_ requests: TimeSourceRequests = TimeSourceRequests(), alone: Bool = true) -> TimelinePosition {
            defer { frame += 256 }
            return timeline.position(of: link, frame: frame, frames: 256, hostMicroseconds: host + Double(frame) * LinkTimelineTests.microsecondsPerFrame,
                                     microsecondsPerFrame: LinkTimelineTests.microsecondsPerFrame, latencyFrames: latency,
                                     pulsesPerBeat: 96, alone: alone, requests: requests)
        }
    }

    func blocks(_ session: LinkSession) -> Blocks {
        Blocks(timeline: LinkTimeline(quantum: 4, sharesStartStop: false), link: session.audio, host: Double(session.clockMicroseconds))
    }

    @Test func aStartAloneRollsAtOnceFromSongPositionZero() throws {
        let session = try LinkSession(tempo: BPM(120))
        var b = blocks(session)
        #expect(!b.next().rolling)
        let first = b.next(TimeSourceRequests(running: true))
        #expect(first.rolling)
        #expect(abs(first.songPulse) < 0.01)
        #expect(abs(first.framesPerPulse - 250) < 0.05)
        #expect(b.timeline.commits == 1)
        let second = b.next()
        #expect(abs(second.songPulse - 256.0 / 250) < 0.01)
        #expect(b.timeline.commits == 1)
        #expect(b.timeline.peerTempoChanges == 0)
        // Stopped: standing still at once, without a commit.
        #expect(!b.next(TimeSourceRequests(running: false)).rolling)
        #expect(b.timeline.commits == 1)
    }

    @Test func thePlayersTempoIsCommittedFromItsCycleWithTheBeatContinuous() throws {
        let session = try LinkSession(tempo: BPM(120))
        var b = blocks(session)
        _ = b.next(TimeSourceRequests(running: true))
        let before = b.next()
        let changed = b.next(TimeSourceRequests(tempo: BPM(150)))
        // 150 BPM: a pulse is 200 frames from this cycle on; the song goes on from where it was.
        #expect(abs(changed.framesPerPulse - 200) < 0.05)
        #expect(abs(changed.songPulse - (before.songPulse + 256.0 / 250)) < 0.01)
        #expect(b.timeline.commits == 2)
        #expect(abs(b.timeline.tempo - 150) < 1e-9)
        // Link's thread takes the audio thread's commit into the application's state.
        var applied = false
        for _ in 0..<100 where !applied {
            applied = abs(session.snapshot(quantum: 4).tempo - 150) < 1e-9
            if !applied { usleep(10_000) }
        }
        #expect(applied)
        _ = b.next()
        #expect(b.timeline.peerTempoChanges == 0)
    }

    @Test func aTempoSetOnTheSessionElsewhereIsCountedAsAPeers() throws {
        let session = try LinkSession(tempo: BPM(120))
        var b = blocks(session)
        _ = b.next(TimeSourceRequests(running: true))
        _ = b.next()
        // Once Link's thread has taken the start's commit: processed later, it
        // would put the session back to the timeline it carried. Its thread may
        // miss the wake-up and take it at its fallback round, 500 ms.
        usleep(700_000)
        session.commitTempo(90)
        // Link hands the application thread's commit to the audio thread within its own round.
        var seen = false
        for _ in 0..<400 where !seen {
            let p = b.next()
            seen = abs(p.framesPerPulse - 1_000.0 / 3) < 0.05
            if !seen { usleep(5_000) }
        }
        #expect(seen, "timeline tempo \(b.timeline.tempo), application's \(session.snapshot(quantum: 4).tempo)")
        #expect(b.timeline.peerTempoChanges == 1)
        #expect(b.timeline.commits == 1)
    }

    @Test func joiningOthersWaitsForTheNextBarLineWithoutACommit() throws {
        let session = try LinkSession(tempo: BPM(120))
        var b = blocks(session)
        var position = b.next(TimeSourceRequests(running: true), alone: false)
        var blocksWaited = 0
        while !position.rolling && blocksWaited < 400 {
            position = b.next(alone: false)
            blocksWaited += 1
        }
        #expect(position.rolling)
        #expect(b.timeline.commits == 0)
        // The bar line lies inside the first rolling block: song position 0 ahead of its first frame.
        #expect(position.songPulse <= 0.01 && position.songPulse > -256.0 / 250)
        // The phase there is 0 over the quantum (within a frame: 1/250 pulse, 1/24000 beat).
        let barLine = b.timeline.startBeat ?? -1
        #expect(barLine.truncatingRemainder(dividingBy: 4) == 0)
        #expect(blocksWaited <= 375)
    }

    @Test func theBeatIsReadWhereTheBlockIsHeard() throws {
        let session = try LinkSession(tempo: BPM(120))
        var plain = blocks(session), late = blocks(session)
        late.latency = 480
        // Both read the one session at the same frames; the late one 480 frames
        // (10 ms, 0.02 beat at 120 BPM) later in time.
        _ = plain.next(TimeSourceRequests(running: true))
        _ = late.next()
        _ = plain.next()
        _ = late.next()
        #expect(abs(plain.timeline.phase - 256.0 / 24_000) < 1e-4)
        #expect(abs(late.timeline.phase - plain.timeline.phase - 480.0 / 24_000) < 1e-4)
    }
}
