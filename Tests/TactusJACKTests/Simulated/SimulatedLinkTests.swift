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
}
