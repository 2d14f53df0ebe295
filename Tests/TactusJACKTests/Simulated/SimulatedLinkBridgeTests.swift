import CJack
import Testing
import TactusCore
import TactusLink
@testable import TactusJACK

/// A followed position committed to the Link session (docs/DESIGN.md §9: MIDI
/// clock in with `--link`, `--link` with `--transport follow`), through the real
/// JACK cycle on the simulated process loop, a scripted session
/// (`ScriptedLinkSession`, Link 3's arithmetic) and the control thread's commit
/// as `JackMetronome` makes it (`SessionCommit.apply`). The session starts at
/// 100 BPM with another peer; the source is elsewhere. What the session holds
/// is read where each click is heard (1 024 frames after its frame): a peer
/// plays its beats there.
@Suite struct SimulatedLinkBridgeTests {
    static let latency = 1_024

    static func session(sharesStartStop: Bool = false) -> ScriptedLinkSession {
        ScriptedLinkSession(tempo: 100, beatZero: 4_998_766_000, peers: 1, sharesStartStop: sharesStartStop, beatMagnitude: 1.3)
    }

    /// How far (µs) the session's bar phase is from song beat `beat` at `time`,
    /// on the timeline the session had then: its beat there minus the song's,
    /// to the nearest bar (quantum 4), in time.
    static func offBar(_ session: ScriptedLinkSession, beat: Double, at time: Int64) -> Double {
        let inForce = session.sessionBeatInForce(at: time)
        let d = inForce.beat - beat
        let wrapped = d - 4 * (d / 4).rounded()
        return abs(wrapped) * 60_000_000 / inForce.bpm
    }

    static func commits(_ loop: SimulatedProcessLoop) -> [SessionCommit] {
        loop.events.compactMap { if case .sessionCommit(let c) = $0 { c } else { nil } }
    }

    /// The clock (120 BPM, `SimulatedClockInTests.script`) owns the session:
    /// from the first commit after the follower's lock every click is heard on
    /// the session's beat of its song beat, bar lines on bar lines (within
    /// 0.1 ms, `LinkBridge.beatTolerance`), at 120 BPM. A peer's 150 BPM at
    /// beat 24 is answered with the clock's tempo and beat from the first
    /// cycle that captures it; the player's 200 BPM is refused and never
    /// reaches the session; nothing goes into the pressure controller.
    @Test func theIncomingClockIsCommittedToTheSessionAndAPeersTempoAnswered() throws {
        var options = SimulatedClockInTests.options()
        options.link = LinkRunOptions()
        let session = Self.session()
        let loop = try SimulatedProcessLoop(options: options, link: session, clickLatency: Self.latency)
        loop.run(cycles: 20)
        let script = SimulatedClockInTests.script(first: loop.jackFrame + 1000, beatsAt120: 40, beatsAt140: 0)
        loop.clockInput = script.input
        let beatTick = { (beat: Int) in script.ticks[beat * 24] }
        let peerAt = loop.microseconds(atJackFrame: beatTick(24) + UInt32(Self.latency))
        session.peerSetsTempo(150, at: peerAt)
        loop.run(untilJackFrame: beatTick(30))
        loop.push(.setTempo(BPM(200)))
        loop.run(untilJackFrame: script.ticks.last! + 256)

        let commits = Self.commits(loop)
        let firstCommit = loop.events.firstIndex { if case .sessionCommit = $0 { true } else { false } }
        #expect(firstCommit != nil)
        // Each click (song beat k on the tick 24 k after the Start's first), where it is heard.
        var worst = 0.0, worstAfterAnswer = 0.0, offBeats: [String] = []
        let answer = session.commits.first { $0.at >= peerAt }
        // The player's 200 BPM at beat 30: refused, the session never hears of it.
        #expect(!session.commits.contains { $0.tempo > 121 })
        for o in loop.onsets {
            guard let k = (0..<40).first(where: { beatTick($0) == o.jackFrame }) else { offBeats.append("click at \(o.jackFrame) on no beat"); continue }
            let heard = loop.microseconds(atJackFrame: o.jackFrame + UInt32(Self.latency))
            guard let first = session.commits.first, heard > first.at + 1_000 else { continue }
            let off = Self.offBar(session, beat: Double(k), at: heard)
            if let answer, heard >= peerAt && heard < answer.at { continue }
            if let answer, heard > answer.at { worstAfterAnswer = max(worstAfterAnswer, off) }
            worst = max(worst, off)
            if o.accent != (k % 4 == 0) { offBeats.append("beat \(k) accent \(o.accent)") }
        }
        print("simulated Link bridge, clock in: \(commits.count) commits (tempi \(Set(commits.map { String(format: "%.4f", $0.tempo) }).sorted())), "
            + "peer's 150 BPM at \(peerAt) µs answered at \(answer.map { "\($0.at) µs with \($0.tempo)" } ?? "never"); "
            + "worst click off the session's beat \(String(format: "%.1f", worst)) µs (after the answer \(String(format: "%.1f", worstAfterAnswer))); "
            + "session \(session.session.bpm) BPM")
        #expect(offBeats.isEmpty, "\(offBeats)")
        #expect(worst <= LinkBridge.beatTolerance + 1)
        // The first on the filter's first rate (one period's µs per frame, 41 ppm off
        // here), corrected within a second; every commit places the beat (the clock rolls).
        #expect(commits.allSatisfy { abs($0.tempo - 120) < 0.01 && $0.beat != nil }, "\(commits)")
        // A commit only where the session disagrees: the lock, the filter's rate settling, the answer.
        #expect(commits.count <= 4, "\(commits.count) commits")
        #expect(commits.count >= 2 && commits.suffix(2).allSatisfy { abs($0.tempo - 120) < 0.001 }, "\(commits)")
        #expect(session.commits.allSatisfy { abs($0.tempo - 120) < 0.005 }, "\(session.commits.map(\.tempo))")
        #expect(answer != nil && answer!.at - peerAt < 6_000, "answered \(String(describing: answer)) after \(peerAt)")
        #expect(abs(session.session.bpm - 120) < 0.005)
        #expect(!loop.events.contains { if case .peerTempo = $0 { true } else { false } })
        #expect(loop.engineControl.pointee.status.tempoHundredths.load(ordering: .relaxed) == 12_000)
    }

    /// JACK transport follow (a 120 BPM 4/4 master, 133 from bar 5) with
    /// start/stop shared: the master's BBT is the session's beat where each
    /// click is heard (bar lines on bar lines, within 0.1 ms) at the master's
    /// tempo through its step; the session plays from the transport's start;
    /// a peer's stop and a peer's 90 BPM in bar 7 are answered (playing, 133
    /// BPM); the transport's stop stops the session.
    @Test func theMastersBBTIsCommittedToTheSessionWithStartAndStop() throws {
        var options = SimulatedFollowTests.followOptions()
        options.link = LinkRunOptions(sharesStartStop: true)
        let session = Self.session(sharesStartStop: true)
        let map = TestTempoMap([(0, 120, 4), (16, 133, 4)])
        let loop = try SimulatedProcessLoop(options: options, mode: .follow, transport: ScriptedTransport(master: map.position),
                                            link: session, clickLatency: Self.latency)
        loop.run(cycles: 20)
        loop.transport.locate(0)
        loop.transport.start()
        let rolledAt = loop.jackFrame
        let bar7 = UInt32(map.segments[1].startFrame) + UInt32(8 * 60 * 48000 / 133.0)
        var peerAt: Int64 = 0
        while !(loop.transport.rolling && loop.transport.frame >= 864_000) {
            loop.cycle()
            if peerAt == 0 && loop.transport.frame >= bar7 {
                peerAt = loop.microseconds(atJackFrame: loop.jackFrame)
                // Given 1 ms before this peer hears of it (the newer start/stop state wins, by its time).
                session.peerSetsTempo(90, at: peerAt - 1_000, heard: peerAt)
                session.peerSetsPlaying(false, atSessionBeat: session.sessionBeat(at: peerAt).rounded(.up), at: peerAt - 1_000, heard: peerAt)
            }
        }
        let stopAt = loop.microseconds(atJackFrame: loop.jackFrame)
        loop.transport.stop()
        loop.run(cycles: 20)

        let beats = map.beats(upTo: 864_000)
        var worst = 0.0, missed: [String] = [], worstClick = "", atStep = Double.infinity

        let answer = session.commits.first { $0.at >= peerAt }
        for o in loop.onsets {
            guard let t = o.transportFrame, let k = beats.firstIndex(where: { abs($0.frame - Double(t)) <= 0.5 }) else {
                missed.append("click at \(o.jackFrame) on no beat"); continue
            }
            let heard = loop.microseconds(atJackFrame: o.jackFrame + UInt32(Self.latency))
            guard let first = session.commits.first, heard > first.at + 1_000 else { continue }
            if let answer, heard >= peerAt && heard < answer.at { continue }
            let off = Self.offBar(session, beat: Double(k), at: heard)
            // The step's beat: the session's 133 BPM line is pivoted on the first block
            // after it, where the master's integer tick gives the phase to a tick, the
            // BBT follower taking the middle (§13.4): half a tick, 117.5 µs at 133 BPM.
            if k == 16 { atStep = off; continue }
            if off > worst { worstClick = "beat \(k) heard at \(heard) µs" }
            worst = max(worst, off)
        }
        let commits = Self.commits(loop)
        let playing = commits.compactMap(\.playing)
        print("simulated Link bridge, follow: rolled at JACK frame \(rolledAt), \(commits.count) commits "
            + "(tempi \(Set(commits.map { String(format: "%.3f", $0.tempo) }).sorted()), playing \(playing)), "
            + "peer's 90 BPM and stop at \(peerAt) µs answered at \(answer.map { "\($0.at) µs with \($0.tempo) BPM, playing \($0.startStop.playing)" } ?? "never"); "
            + "worst click off the session's beat \(String(format: "%.1f", worst)) µs (\(worstClick)), the step's beat \(String(format: "%.1f", atStep)) µs; session at the end \(session.session.bpm) BPM, "
            + "playing \(session.clientStartStop.playing) from \(session.clientStartStop.time) (stopped at \(stopAt))")
        #expect(missed.isEmpty, "\(missed)")
        #expect(worst <= LinkBridge.beatTolerance + 1)
        #expect(atStep <= 60_000_000 / 133 / 1920 / 2 + 1)
        #expect(commits.allSatisfy { abs($0.tempo - 120) < 0.01 || abs($0.tempo - 133) < 0.01 }, "\(commits.map(\.tempo))")
        #expect(commits.contains { abs($0.tempo - 133) < 0.01 })
        // The start, the filter's rate, the step and the master's phase, the answer, the stop: no flood.
        #expect(commits.count <= 8, "\(commits.count) commits")
        #expect(answer != nil && abs(answer!.tempo - 133) < 0.005 && answer!.startStop.playing && answer!.at - peerAt < 6_000,
                "\(String(describing: answer))")
        #expect(playing.first == true && playing.last == false)
        #expect(!session.clientStartStop.playing && session.clientStartStop.time >= stopAt)
        #expect(abs(session.session.bpm - 133) < 0.005)
        #expect(!loop.events.contains { if case .peerTempo = $0 { true } else { false } })
    }
}
