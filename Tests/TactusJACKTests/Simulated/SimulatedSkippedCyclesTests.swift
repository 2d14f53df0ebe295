import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// Skipped cycles and a forced xrun through the real JACK cycle on the
/// simulated process loop (docs/DESIGN.md §3.6): the server's frame time moves
/// on without this client, and the grid stays where it was in time. Each run
/// is compared with the same run without the gaps, frame by frame: every
/// tick of the undisturbed run comes exactly once, on its frame, or, when its
/// frame fell in a gap, at the first frame of the first cycle after it (a
/// tick up to 250 ms late is sent there); every click on its frame, and a
/// click whose frame fell in a gap is dropped (a late click is no beat).
/// The JACK frame time starts 2 s before its 32-bit wrap, so the runs cross it.
@Suite struct SimulatedSkippedCyclesTests {
    /// A run at `bpm` for `cycles` played cycles, `gaps` (cycle index → cycles
    /// missed before it): ticks, clicks and the first frames of the cycles played.
    static func run(bpm: Double, cycles: Int, gaps: [Int: Int]) throws -> (ticks: [Int64], clicks: [Int64], starts: [Int64], skipped: [Int64]) {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(bpm))
        let loop = try SimulatedProcessLoop(options: options, startFrame: UInt32.max - 96_000)
        for k in 0..<cycles {
            if let missed = gaps[k] { loop.skip(cycles: missed) }
            loop.cycle()
        }
        let skipped = loop.events.compactMap { if case .cyclesSkipped(_, let frames) = $0 { frames } else { nil } }
        return (loop.tickFrames, loop.onsets.map(\.engineFrame), loop.cycles.map(\.engineFrame), skipped)
    }

    /// The disturbed run against the undisturbed one: (ticks on their frame,
    /// ticks late at a cycle's first frame, what is wrong).
    static func compare(_ run: (ticks: [Int64], clicks: [Int64], starts: [Int64], skipped: [Int64]),
                        with reference: (ticks: [Int64], clicks: [Int64], starts: [Int64], skipped: [Int64]),
                        period: Int64 = 256) -> (onFrame: Int, late: Int, droppedClicks: Int, wrong: [String]) {
        let end = run.starts.last! + period
        let played = { (f: Int64) in run.starts.contains { f >= $0 && f < $0 + period } }
        var expected: [Int64] = []
        var late = 0
        for f in reference.ticks where f < end {
            if played(f) { expected.append(f); continue }
            guard let next = run.starts.first(where: { $0 > f }) else { continue }
            expected.append(next)
            late += 1
        }
        var wrong: [String] = []
        if run.ticks != expected {
            let i = Array(zip(run.ticks, expected)).firstIndex { $0.0 != $0.1 } ?? min(run.ticks.count, expected.count)
            wrong.append("ticks differ from tick \(i): \(run.ticks.dropFirst(i).prefix(3)) against \(expected.dropFirst(i).prefix(3)) (\(run.ticks.count) against \(expected.count))")
        }
        let expectedClicks = reference.clicks.filter { $0 < end && played($0) }
        if run.clicks != expectedClicks { wrong.append("clicks \(run.clicks.prefix(40)) against \(expectedClicks.prefix(40))") }
        let dropped = reference.clicks.filter { $0 < end && !played($0) }.count
        return (run.ticks.count - late, late, dropped, wrong)
    }

    /// The live test's stalls: a client upstream stalling 10 ms four times a
    /// second from 0.5 s to 7.5 s, 97.3 BPM, period 256: two cycles missed
    /// every 47 (0.25 s), 28 times.
    @Test func skippedCyclesNeverShiftTheGrid() throws {
        var gaps: [Int: Int] = [:]
        for k in stride(from: 94, to: 1410, by: 47) { gaps[k] = 2 }
        let played = 1690 - 2 * gaps.count
        let disturbed = try Self.run(bpm: 97.3, cycles: played, gaps: gaps)
        let reference = try Self.run(bpm: 97.3, cycles: 1690, gaps: [:])
        let c = Self.compare(disturbed, with: reference)
        print("simulated skipped cycles at 97.3 BPM: \(gaps.count) gaps of 2 cycles, \(c.onFrame) ticks on their frame, \(c.late) late at the next cycle's first frame, \(c.droppedClicks) clicks dropped in the gaps")
        #expect(c.wrong.isEmpty, "\(c.wrong)")
        // 28 gaps of 512 frames against ticks 1233.3 frames apart: 12 fell in one, and a click.
        #expect(c.late == 12 && c.droppedClicks == 1 && c.onFrame > 300, "some ticks and a click fell in the gaps")
        // Each gap told to the control thread once, with its length; none without gaps.
        #expect(disturbed.skipped == Array(repeating: 512, count: gaps.count) && reference.skipped.isEmpty,
                "\(disturbed.skipped) \(reference.skipped)")
    }

    /// One forced xrun: 68 ms (13 cycles of 256) missed 1.5 s in, 133 BPM:
    /// no tick lost or doubled, those of the gap late at the first cycle after
    /// it, every other tick and click on its frame; the grid after the gap is
    /// the grid before it.
    @Test func aForcedXrunLosesNoJACKClockTickAndDoublesNone() throws {
        let disturbed = try Self.run(bpm: 133, cycles: 925, gaps: [281: 13])
        let reference = try Self.run(bpm: 133, cycles: 938, gaps: [:])
        let c = Self.compare(disturbed, with: reference)
        print("simulated forced xrun at 133 BPM: 13 cycles missed, \(c.onFrame) ticks on their frame, \(c.late) late at the next cycle's first frame, \(c.droppedClicks) clicks dropped in the gap")
        #expect(c.wrong.isEmpty, "\(c.wrong)")
        #expect(c.late == 4 && c.onFrame > 250, "the gap of 3328 frames held 4 ticks (902.3 frames apart)")
        #expect(disturbed.skipped == [3328] && reference.skipped.isEmpty, "\(disturbed.skipped)")
    }

    /// Tactus as timebase master, the transport rolling: two cycles missed
    /// every 47 for 6 s are no locate (`TransportObserver`: the transport
    /// moved by what the clock moved): Start only, every click played 24 000
    /// frames from the first, none seen as a locate.
    @Test func cyclesMissedAsMasterAreNoLocate() throws {
        let loop = try Self.missingCycles(mode: .master)
        let words = loop.transportMessages.map(\.bytes)
        let first = loop.onsets.first?.engineFrame ?? 0
        let off = loop.onsets.filter { ($0.engineFrame - first) % 24_000 != 0 }
        print("simulated master with missed cycles: \(loop.onsets.count) clicks, \(off.count) off the beat, transport \(words)")
        #expect(words == [[0xFA]], "\(words) \(loop.events.prefix(8))")
        #expect(off.isEmpty && loop.onsets.count >= 10, "\(off.map(\.engineFrame))")
        #expect(!loop.events.contains { if case .transportLocated = $0 { true } else { false } }, "\(loop.events)")
    }

    /// Following the tests' master at 120 BPM, the same missed cycles: no
    /// locate (Start only), and against the same run without the gaps every
    /// tick on its frame or, fallen in a gap, at the first frame of the cycle
    /// after it, every click on its frame and a click fallen in a gap dropped
    /// (§3.6, as in the engine's own time). Before `Engine.follow` judged the
    /// next cycle against the source's line, a tick more than a pulse late was
    /// answered with Stop, Song Position and Continue on the next 16th, and
    /// the ticks up to it were lost (5 times in this run); and a click fallen
    /// in a gap sounded late at the first frame after it.
    @Test func cyclesMissedWhileFollowingAreNoLocate() throws {
        let loop = try Self.missingCycles(mode: .follow)
        let reference = try Self.missingCycles(mode: .follow, gaps: false, cycles: 1200)
        let words = loop.transportMessages.map(\.bytes)
        let skipped = { (l: SimulatedProcessLoop) in l.events.compactMap { if case .cyclesSkipped(_, let frames) = $0 { frames } else { nil } } }
        let c = Self.compare((loop.tickFrames, loop.onsets.map(\.engineFrame), loop.cycles.map(\.engineFrame), skipped(loop)),
                             with: (reference.tickFrames, reference.onsets.map(\.engineFrame), reference.cycles.map(\.engineFrame), skipped(reference)))
        print("simulated follow with missed cycles: \(loop.onsets.count) clicks, transport \(words), \(c.onFrame) ticks on their frame, \(c.late) late at the next cycle's first frame")
        #expect(!loop.events.contains { if case .transportLocated = $0 { true } else { false } }, "\(loop.events)")
        #expect(words == [[0xFA]], "\(words)")
        #expect(c.wrong.isEmpty && c.late >= 5, "\(c.wrong)")
        #expect(!skipped(loop).isEmpty && skipped(loop).allSatisfy { $0 == 512 } && skipped(reference).isEmpty, "\(skipped(loop))")
    }

    /// 6 s with two cycles missed every 47 while the transport rolls, as
    /// timebase master or following the tests' master at 120 BPM (Tactus at
    /// its own 100).
    static func missingCycles(mode: JackTransportMode, gaps: Bool = true, cycles: Int = 1125) throws -> SimulatedProcessLoop {
        let map = TestTempoMap([(0, 120, 4)])
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(mode == .follow ? 100 : 120))
        options.startStopped = mode == .follow
        var transport = ScriptedTransport()
        if mode == .follow { transport.master = { map.position($0) } }
        let loop = try SimulatedProcessLoop(options: options, mode: mode, transport: transport)
        if mode == .follow {
            loop.run(cycles: 4)
            loop.transport.locate(0)
            loop.transport.start()
        }
        for k in 0..<cycles {
            if gaps && k > 100 && k % 47 == 0 { loop.skip(cycles: 2) }
            loop.cycle()
        }
        return loop
    }
}
