import CJack
import Testing
import TactusCore
import TactusLink
@testable import TactusJACK

/// Ableton Link through the real JACK cycle (`ProcessCycle.run`, `LinkTimeline`)
/// on the simulated process loop and a scripted session (`ScriptedLinkSession`,
/// Link 3's arithmetic): the Link scenarios the live recordings check
/// (Tests/TactusJACKTests/LinkOnJACKTests.swift), here exact to the frame.
///
/// The loop's clock: JACK frame 1 000 000 at 5 000 000 000 µs, 48 kHz, 256-frame
/// cycles. The session at 120 BPM, quantum 4: a bar is 2 s, 96 000 frames. The
/// `click` port is heard 1 024 frames after its cycle (its playback latency),
/// so the session's time t sounds from the frame whose heard time is t:
/// `F(t) − 1 024`, F the loop's frame of host time t, rounded half up as the
/// grid rounds a pulse's frame (docs/DESIGN.md §3.3, §11.2).
@Suite struct SimulatedLinkTests {
    static let latency = 1_024
    static let bar: Int64 = 2_000_000

    /// The loop's JACK frame of host time `t` (µs), unrounded.
    static func frame(of t: Int64) -> Double { 1_000_000 + Double(t - 5_000_000_000) * 48_000 / 1_000_000 }

    /// The frame the session's time `t` sounds on: heard `latency` later, rounded half up.
    static func sounding(_ t: Int64, latency: Int = latency) -> UInt32 { sounding(frame(of: t), latency: latency) }
    static func sounding(_ frame: Double, latency: Int = latency) -> UInt32 { UInt32((frame - Double(latency) + 0.5).rounded(.down)) }

    static func options(sharesStartStop: Bool = false, trainer: SpeedTrainer? = nil) -> JackRunOptions {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120), trainer: trainer)
        options.link = LinkRunOptions(sharesStartStop: sharesStartStop)
        return options
    }

    /// A session running since before the loop's start with one other peer,
    /// its bar lines at 4 998.766 s + n × 2 s (frames 940 768 + n × 96 000):
    /// the first after Tactus's first cycle is heard (5 000.021 s) is 5 000.766 s.
    static func runningSession(peers: Int = 1, sharesStartStop: Bool = false) -> ScriptedLinkSession {
        ScriptedLinkSession(tempo: 120, beatZero: 4_998_766_000, peers: peers, sharesStartStop: sharesStartStop, beatMagnitude: 1.3)
    }

    static func clicks(_ loop: SimulatedProcessLoop) -> [UInt32] { loop.onsets.map(\.jackFrame) }
    static func accents(_ loop: SimulatedProcessLoop) -> [UInt32] { loop.onsets.filter(\.accent).map(\.jackFrame) }

    @Test func aJoinStartsOnTheSessionsNextBarLineWhereItIsHeard() throws {
        let session = Self.runningSession()
        let loop = try SimulatedProcessLoop(options: Self.options(), link: session, clickLatency: Self.latency)
        loop.run(cycles: 1_200)
        let line = session.barLine(atOrAfter: loop.microseconds(atJackFrame: 1_000_000 + UInt32(Self.latency)))
        let start = Self.sounding(line)
        let words = loop.transportMessages
        print("simulated Link join: bar line \(line) µs (frame \(Self.frame(of: line))), Start at \(words.first.map { "\($0.jackFrame) \($0.bytes)" } ?? "none"), "
            + "expected \(start); clicks \(Self.clicks(loop).prefix(6)); accents \(Self.accents(loop))")
        #expect(line == 5_000_766_000)
        #expect(words.count == 1 && words.first?.bytes == [0xFA] && words.first?.jackFrame == start)
        // Every click on a session beat, every accent on a session bar line.
        let expected = (0..<Self.clicks(loop).count).map { Self.sounding(line + Int64($0) * 500_000) }
        #expect(!expected.isEmpty && Self.clicks(loop) == expected, "\(Self.clicks(loop)) \(expected)")
        #expect(Self.accents(loop) == (0..<Self.accents(loop).count).map { Self.sounding(line + Int64($0) * Self.bar) })
        #expect(session.commits.isEmpty, "joining commits nothing: \(session.commits)")

        // The same session heard at once (no latency): everything 1 024 frames later.
        let unheard = try SimulatedProcessLoop(options: Self.options(), link: Self.runningSession())
        unheard.run(cycles: 1_200)
        print("simulated Link join without latency: Start at \(unheard.transportMessages.first?.jackFrame ?? 0), clicks \(Self.clicks(unheard).prefix(3))")
        #expect(unheard.transportMessages.first?.jackFrame == Self.sounding(line, latency: 0))
        #expect(Array(Self.clicks(unheard).prefix(20)) == Self.clicks(loop).prefix(20).map { $0 + UInt32(Self.latency) })
    }

    /// A peer sets 150 BPM on the session's bar line at 5 003.632 s, and this
    /// peer hears of it at the wake-up of the cycle whose block is heard from
    /// that time (frame 1 173 312, the first frame of the 678th cycle). That
    /// block's first frame plays the bar line on the old grid's frame (the
    /// beat continuous), and from it every click and clock tick follows the new
    /// tempo (19 200 and 800 frames), none before: the session's times, each
    /// where it is heard.
    @Test func aPeersTempoBendsTheGridFromTheCycleThatSeesItTheBeatContinuous() throws {
        let session = ScriptedLinkSession(tempo: 120, beatZero: 4_997_632_000, peers: 1)
        let loop = try SimulatedProcessLoop(options: Self.options(), link: session, clickLatency: Self.latency)
        let change: Int64 = 5_003_632_000
        let seeing = Self.sounding(change)
        session.peerSetsTempo(150, at: change, heard: loop.microseconds(atJackFrame: seeing))
        // The session's beats: before the change on its old line, from it on the new.
        let start = session.barLine(atOrAfter: loop.microseconds(atJackFrame: 1_000_000 + UInt32(Self.latency)))
        let startBeat = session.sessionBeat(at: start), changeBeat = session.sessionBeat(at: change)
        loop.run(cycles: 1_200)
        let clicks = Self.clicks(loop)
        let expected = (0..<clicks.count).map { k in
            let beat = startBeat + Double(k)
            return beat < changeBeat ? Self.sounding(start + Int64(k) * 500_000) : Self.sounding(session.time(atSessionBeat: beat))
        }
        let ticks = loop.ticks
        let sessionTicks = (0..<ticks.count).map { i in
            let beat = startBeat + Double(i) / 24
            return beat < changeBeat ? Self.sounding(Self.frame(of: start) + Double(i) * 1_000)
                : Self.sounding(Self.frame(of: change) + (beat - changeBeat) * 19_200)
        }
        // Each tick's interval to the next, by whether it starts before the cycle that saw the change.
        let intervals = zip(ticks, ticks.dropFirst()).map { (before: $0.0 < seeing, length: $0.1 - $0.0) }
        print("simulated Link peer tempo: Start at \(loop.transportMessages.first?.jackFrame ?? 0), the change heard from frame \(seeing) "
            + "(session beat \(changeBeat)); clicks \(clicks.filter { $0 + 50_000 > seeing }.prefix(5)); tick intervals "
            + "\(Set(intervals.filter(\.before).map(\.length))) before, \(Set(intervals.filter { !$0.before }.map(\.length))) from it")
        #expect(seeing == 1_173_312 && (seeing - 1_000_000) % 256 == 0 && start == 5_001_632_000 && changeBeat == 12)
        #expect(loop.transportMessages.map(\.bytes) == [[0xFA]] && loop.transportMessages.first?.jackFrame == Self.sounding(start))
        #expect(clicks.count > 10 && clicks == expected, "\(clicks) \(expected)")
        #expect(ticks.count > 200 && ticks == sessionTicks)
        #expect(clicks.contains(seeing) && Self.accents(loop).contains(seeing), "the bar line on its old frame")
        #expect(intervals.allSatisfy { $0.length == ($0.before ? 1_000 : 800) } && intervals.contains { !$0.before })
        #expect(loop.events.contains(.peerTempo(BPM(150))), "\(loop.events)")
        #expect(session.commits.isEmpty)
    }

    /// `--link-start-stop`, both peers sharing: Tactus's Stop (the command a
    /// MIDI Stop on `control` becomes) in bar 3 is the session's 50 ms after
    /// the block it was taken in is heard, and ends the song on the next bar
    /// line: MIDI Stop on the first frame of the block holding the bar line
    /// (its last click the bar before's fourth beat). A peer's Start at
    /// session beat 24 (a bar line), given 1 s before it, starts Tactus on
    /// that bar line's frame.
    @Test func aSharedStopEndsOnTheBarLineAndAPeersStartStartsOnOne() throws {
        let session = Self.runningSession(sharesStartStop: true)
        let loop = try SimulatedProcessLoop(options: Self.options(sharesStartStop: true), link: session, clickLatency: Self.latency)
        let restart = session.time(atSessionBeat: 24)
        session.peerSetsPlaying(true, atSessionBeat: 24, at: restart - 1_000_000, heard: restart - 997_000)
        loop.run(untilJackFrame: 1_270_000)
        let stopCycle = loop.jackFrame
        loop.push(.stop)
        loop.run(untilJackFrame: 1_700_000)

        let heard = loop.microseconds(atJackFrame: 1_000_000 + UInt32(Self.latency))
        let start = session.barLine(atOrAfter: heard + 50_000)
        // The stop's time: its block heard, 50 ms on (`LinkTimeline.sharedLead`), as the session took it.
        let stopTime = session.commits.last { !$0.startStop.playing }?.startStop.time ?? 0
        let stopLine = session.barLine(atOrAfter: stopTime)
        let stopBlock = 1_000_000 + (Self.sounding(stopLine) - 1_000_000) / 256 * 256
        let words = loop.transportMessages
        let clicks = Self.clicks(loop)
        print("simulated Link shared stop: taken in the cycle at \(stopCycle), the session's from \(stopTime) µs, its bar line \(stopLine) "
            + "(frame \(Self.sounding(stopLine))); transport \(words.map { "\($0.bytes) at \($0.jackFrame)" }); "
            + "last click \(clicks.last { $0 < stopBlock } ?? 0); the peer's Start at \(restart) µs (frame \(Self.sounding(restart)))")
        // The stop cycle's heard time on the filter's line, to Link's µs, and 50 ms.
        #expect(abs(stopTime - (loop.microseconds(atJackFrame: stopCycle + UInt32(Self.latency)) + 50_000)) <= 1, "\(stopTime)")
        #expect(start == 5_000_766_000 && stopLine == 5_006_766_000 && restart == 5_010_766_000)
        // Stop and Song Position 48 (three bars of 16 sixteenths played, docs/DESIGN.md §4.3), then Start.
        #expect(words.map(\.bytes) == [[0xFA], [0xFC], [0xF2, 48, 0], [0xFA]], "\(words.map(\.bytes))")
        #expect(words.map(\.jackFrame) == [Self.sounding(start), stopBlock, stopBlock, Self.sounding(restart)])
        // The bar before the stop's bar line played to its fourth beat, nothing after until the restart.
        #expect(clicks.last { $0 < stopBlock } == Self.sounding(stopLine - 500_000))
        #expect(!clicks.contains { $0 >= stopBlock && $0 < Self.sounding(restart) })
        #expect(clicks.filter { $0 >= Self.sounding(restart) } == (0..<clicks.filter { $0 >= Self.sounding(restart) }.count).map {
            Self.sounding(restart + Int64($0) * 500_000) })
    }

    /// The speed trainer (`--trainer 120-140/2:10`): its steps are the
    /// engine's own tempo changes, which with Link go to the session. The
    /// engine takes a step where its grid reaches the bar line's pulse, in the
    /// block of the grid point before it (bar 2's last clock tick, docs/DESIGN.md
    /// §3.4); the next cycle commits it, once, set on the bar line's beat
    /// (docs/DESIGN.md §11.3): bar 3 sounds on the old line's bar line, every
    /// click after it on the session's new line (every peer's). Link's times are
    /// whole µs (0.048 frame), so a click is that line's frame rounded, within
    /// half a frame and a µs. Tactus says no peer's tempo.
    @Test func theTrainersStepIsCommittedToTheSessionOnItsBarLine() throws {
        let session = Self.runningSession()
        let trainer = SpeedTrainer(from: BPM(120), to: BPM(140), bars: 2, stepHundredths: 1_000)
        let loop = try SimulatedProcessLoop(options: Self.options(trainer: trainer), link: session, clickLatency: Self.latency)
        let bar1 = session.barLine(atOrAfter: loop.microseconds(atJackFrame: 1_000_000 + UInt32(Self.latency)))
        let bar3 = bar1 + 2 * Self.bar, bar3Beat = session.sessionBeat(at: bar3)
        // To 3.5 s after bar 3: the step at bar 5 (3.69 s after it at 130 BPM) not yet taken.
        loop.run(untilJackFrame: Self.sounding(bar3 + 3_500_000))
        // The cycle after the block holding bar 2's last tick (a 24th of a beat before bar 3).
        let lastTick = Self.sounding(bar3 - 500_000 / 24)
        let committing = 1_000_000 + (lastTick - 1_000_000) / 256 * 256 + 256
        // The trainer's FROM at bar 1, committed by the cycle after Start's.
        let started = 1_000_000 + (Self.sounding(bar1) - 1_000_000) / 256 * 256 + 256
        let clicks = Self.clicks(loop)
        let fromBar3 = clicks.filter { $0 > lastTick }
        // The session's line after the step, unrounded: beat n after bar 3, heard `latency` later.
        let line = (0..<fromBar3.count).map { Self.frame(of: session.time(atSessionBeat: bar3Beat + Double($0))) - Double(Self.latency) }
        let worst = zip(fromBar3, line).map { abs(Double($0) - $1) }.max() ?? .infinity
        print("simulated Link trainer step: bar 3 at \(bar3) µs (frame \(Self.sounding(bar3))), its last tick before at \(lastTick); "
            + "commits \(session.commits.map { "\($0.tempo) BPM at \($0.at) µs" }) (cycles at \(started), \(committing)); "
            + "clicks from bar 3 \(fromBar3.prefix(4)), the session's \(line.prefix(4).map { String(format: "%.2f", $0) }), worst \(String(format: "%.3f", worst)) frames")
        #expect(session.commits.map(\.tempo) == [120, 130], "\(session.commits)")
        #expect(session.commits.map(\.at) == [loop.microseconds(atJackFrame: started), loop.microseconds(atJackFrame: committing)])
        #expect(lastTick == 1_226_744 && committing == 1_226_816)
        #expect(session.session.bpm == 130)
        // The beat kept on the bar line, 130 BPM from there.
        #expect(abs(session.sessionBeat(at: bar3) - bar3Beat) < 0.000_01)
        #expect(abs(session.sessionBeat(at: bar3 + 461_538) - (bar3Beat + 1)) < 0.000_01)
        #expect(fromBar3.count > 4 && worst <= 0.5 + 0.048, "\(fromBar3) \(line)")
        #expect(fromBar3.first == Self.sounding(bar3) && fromBar3.first == 1_227_744 && Self.accents(loop).contains(1_227_744))
        #expect(clicks.filter { $0 <= lastTick } == (0..<clicks.filter { $0 <= lastTick }.count).map { Self.sounding(bar1 + Int64($0) * 500_000) })
        #expect(!loop.events.contains { if case .peerTempo = $0 { true } else { false } }, "\(loop.events)")
    }

    /// One cycle's wake-up timed 3 ms late and another's 4.5 ms late (jack2
    /// reports the time it woke): the `FrameTimeFilter` holds each out, so
    /// every click and tick is where an undisturbed run puts it.
    @Test func aLateWakeUpMovesNoBeat() throws {
        let reference = try SimulatedProcessLoop(options: Self.options(), link: Self.runningSession(), clickLatency: Self.latency)
        reference.run(cycles: 1_200)
        let loop = try SimulatedProcessLoop(options: Self.options(), link: Self.runningSession(), clickLatency: Self.latency)
        loop.lateWakeUps = [1_000_000 + 256 * 400: 3_000, 1_000_000 + 256 * 700: 4_500, 1_000_000 + 256 * 701: -1_500]
        loop.run(cycles: 1_200)
        print("simulated Link late wake-ups: \(loop.onsets.count) clicks, \(loop.ticks.count) ticks, "
            + "as undisturbed: \(Self.clicks(loop) == Self.clicks(reference) && loop.ticks == reference.ticks)")
        #expect(loop.onsets.count > 10 && Self.clicks(loop) == Self.clicks(reference))
        #expect(loop.ticks.count > 250 && loop.ticks == reference.ticks)
        #expect(loop.transportMessages.map(\.jackFrame) == reference.transportMessages.map(\.jackFrame))
    }

    /// jack2's timed driver after an xrun: two cycles missed and the frames
    /// 4 ms behind the host's clock from then on. The filter confirms the new
    /// line on its third cycle and starts there; the session's beats, in host
    /// time, then sound 192 frames (4 ms) earlier in JACK's frames, each on
    /// its frame; 0.77 pulse, a bend, not a locate.
    @Test func anXrunsReanchoringMovesTheGridOnceByItsLateness() throws {
        let session = Self.runningSession()
        let loop = try SimulatedProcessLoop(options: Self.options(), link: session, clickLatency: Self.latency)
        loop.run(untilJackFrame: 1_150_000)
        let xrun = loop.jackFrame
        loop.skip(cycles: 2)
        loop.reanchor(lateBy: 4_000)
        loop.run(cycles: 800)
        let line: Int64 = 5_000_766_000
        let clicks = Self.clicks(loop)
        let expected = (0..<clicks.count).map { k in
            let t = line + Int64(k) * 500_000, frame = Self.sounding(t)
            return frame < xrun ? frame : frame - 192
        }
        let ticks = loop.ticks
        let intervals = zip(ticks, ticks.dropFirst()).filter { $0.0 > xrun - 3_000 && $0.0 < xrun + 3_000 }.map { "\($0.0)+\($0.1 - $0.0)" }
        print("simulated Link xrun re-anchoring at \(xrun): clicks \(clicks.filter { $0 > xrun - 50_000 }.prefix(4)); ticks around it \(intervals); "
            + "transport \(loop.transportMessages.map(\.bytes))")
        #expect(clicks.count > 10 && clicks == expected, "\(clicks) \(expected)")
        // Once: one tick interval 192 frames short, every other one a 120 BPM tick's.
        #expect(zip(ticks, ticks.dropFirst()).map { $1 - $0 }.filter { $0 != 1_000 } == [808])
        #expect(loop.transportMessages.map(\.bytes) == [[0xFA]])
    }

    /// The server dies and comes back at 44.1 kHz with another frame time
    /// (`SimulatedProcessLoop.restartServer`, what `JackMetronome` does), the
    /// session running on: from the restart every click is on a session beat
    /// where it is heard at the new rate (`F(t) − 1 024` in 44.1 kHz frames,
    /// rounded as the grid rounds), 22 050 frames apart, accents on its bar
    /// lines. The live take (`aPeerWhoseServerComesBackAt44100...`) judges the
    /// same against a second peer in host time.
    @Test func aServerBackAtFortyFourOnePlaysOnTheSessionsBeatsInItsFrames() throws {
        let session = Self.runningSession()
        let loop = try SimulatedProcessLoop(options: Self.options(), link: session, clickLatency: Self.latency)
        loop.run(cycles: 1_200)
        let before = Self.clicks(loop).count
        let restart: UInt32 = 7_777
        loop.restartServer(rate: 44_100, period: 256, startFrame: restart)
        loop.run(cycles: 1_100)
        let clicks = Array(loop.onsets.dropFirst(before))
        // The new server's frame of host time t, unrounded; and the frame t sounds on.
        let origin = loop.microseconds(atJackFrame: restart)
        func sounding(_ t: Int64) -> UInt32 {
            let frame = Double(restart) + Double(t - origin) * 44_100 / 1_000_000
            return UInt32((frame - Double(Self.latency) + 0.5).rounded(.down))
        }
        guard let first = clicks.first else { Issue.record("no click after the restart"); return }
        let firstBeat = session.sessionBeat(at: loop.microseconds(atJackFrame: first.jackFrame + UInt32(Self.latency))).rounded()
        let beats = (0..<clicks.count).map { session.time(atSessionBeat: firstBeat + Double($0)) }
        let expected = beats.map(sounding)
        let accents = beats.map { session.barLine(atOrAfter: $0) == $0 }
        let gaps = Set(zip(clicks.dropFirst(), clicks).map { $0.jackFrame - $1.jackFrame })
        print("simulated Link restart at 44.1 kHz: \(clicks.count) clicks after it from session beat \(firstBeat), "
            + "first at \(first.jackFrame) (expected \(expected.first ?? 0)), \(gaps) frames apart, accents \(clicks.filter(\.accent).count)")
        #expect(clicks.count >= 10 && clicks.map(\.jackFrame) == expected, "\(clicks.map(\.jackFrame)) \(expected)")
        #expect(clicks.map(\.accent) == accents && accents.contains(true))
        #expect(gaps == [22_050])
    }
}
