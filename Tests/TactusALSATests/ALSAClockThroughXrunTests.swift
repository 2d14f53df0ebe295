import CALSA
import CALSAShims
import Foundation
import Glibc
import Testing
@testable import TactusALSA
import TactusCore

extension ALSASequencerTests {
    /// A forced xrun on a real JACK server, the ALSA clock recorded: a private
    /// `jackd -d dummy` (asynchronous, as musicians run it), the real `tactus`
    /// with its ALSA clock connected to a receiver that the kernel stamps on
    /// arrival, its JACK clock port recorded, and a client upstream of Tactus that
    /// stalls the graph once for 68 ms.
    ///
    /// Asserted: the ALSA stream runs from Start to Stop with every event the clock
    /// thread says it sent (`ALSA clock: N events sent …`, none dropped), stamps in
    /// order; where the recorder saw every cycle, it is exactly the JACK stream (no
    /// tick missing or doubled on the way) and the JACK ticks fill their grid (each
    /// once, on its frame or late at a cycle start). From 0.5 s after the stall the
    /// ALSA ticks follow their JACK frames: interval spread ≤ 0.15 ms and lateness
    /// p95 ≤ 0.25 ms, in the half-second windows where the server kept real time.
    /// Under an emulated CPU on a loaded host jackd xruns on its own (the dummy
    /// driver's thread wakes more than a period late when the host leaves the VM's
    /// CPU waiting: `JackTimedDriver::Process XRun`); the recorder stamps each xrun
    /// notice, and a window is judged when none came from 0.5 s before it (the same
    /// half second to settle as after the stall) to 0.25 s after it (a notice comes
    /// after the late cycle), and the machine itself kept real time in it
    /// (MachineStallWatch: no wake-up more than 1 ms late from 50 ms before it). At
    /// least 4 windows (2 s) are needed; fewer is printed as not judged: in the
    /// alsa-vm at host load 5-13 the guest's timers wake over 1 ms late about 100 times
    /// a second (up to 44 ms), at nice -10 and period 2048 too. Both figures against the tempo's grid at 48 000 frames a
    /// second, an intercept for each run of judged windows (an xrun moves the dummy
    /// driver's frames against the clock): an interval's error is its length less its
    /// frames' time; a tick's lateness its stamp past its frame's time, offset by its
    /// run's median, so the kernel's constant delivery delay counts as 0. The ticks'
    /// rate by least squares within the runs must be that grid's (48 000 ± 0.1 %).
    @Test func theALSAClockLosesNoTickThroughAForcedXrunAndIsBackOnTimeHalfASecondAfter() throws {
        let run = try XrunSession.run(bpm: 133, stallMilliseconds: 68)
        let f = TimingStatistics.format
        print("ALSA clock through a 68 ms stall at 133 BPM: \(run.alsaTicks) ALSA ticks, \(run.jackTicks) JACK ticks, "
              + "JACK grid: \(run.grid); from 0.5 s after the stall (\(run.settledIntervals.count) intervals): "
              + "interval spread \(f(run.settledIntervals.standardDeviation)) ms (max |error| \(f(run.settledIntervalMaximum)) ms), "
              + "lateness p50 \(f(run.settledLateness.p50)) p95 \(f(run.settledLateness.p95)) max \(f(run.settledLateness.maximum)) ms; "
              + "from 0.1 s before the stall to 0.5 s after: interval spread \(f(run.stallIntervals.standardDeviation)) ms, max |error| \(f(run.stallIntervalMaximum)) ms; "
              + "before it: spread \(f(run.beforeIntervals.standardDeviation)) ms; the server's frames ran at \(Int(run.framesPerSecond.rounded())) a second; "
              + "\(run.xruns) xruns, \(run.xrunNotices.count) noticed by the recorder (\(run.xrunNoticeLine)); "
              + "\(run.machineStalls.count) machine stalls over 1 ms after the stall (the longest \((run.machineStalls.max() ?? 0) / 1000) ms); "
              + "\(run.judgedWindows) of \(run.windows) half-second windows judged; "
              + "arrival stamps stepped back by up to \(run.largestStepBack) µs; tactus: \(run.tactusSummary)")
        #expect(run.stalls == 1, "the staller stalled once: \(run.stallerLog)")
        // The ALSA stream, whole: Start, every tick the clock thread sent, Stop, in order
        // (the order of the stamps is the clock thread's, proved in ClockDispatcherTests:
        // under emulation the stamp queue's interpolated time itself steps back by ms).
        #expect(run.alsaTypes.first == ClockReception.start && run.alsaTypes.last == ClockReception.stop, "\(run.alsaTypes.prefix(3)) … \(run.alsaTypes.suffix(3))")
        #expect(run.alsaAccount?.sent == run.alsaTypes.count, "the receiver got every event the clock thread sent: \(run.alsaAccountLine)")
        #expect(run.alsaAccount != nil, "tactus said what its clock thread sent: \(run.tactusSummary)")
        // Against the engine's stream on JACK, where the recorder saw every cycle (under
        // emulation it misses some: then the JACK side cannot be judged).
        if run.holes.isEmpty {
            #expect(run.alsaTypes == run.jackTypes, "ALSA \(run.alsaTicks) ticks, JACK \(run.jackTicks)")
            #expect(run.grid.missing == 0 && run.grid.doubled == 0 && run.grid.off == 0, "\(run.grid)")
        } else {
            print("ALSA clock through a stall: the recorder missed \(run.holes.count) cycles; the JACK side is not judged")
        }
        // Timing, in the windows where the server kept real time: an emulated CPU under a
        // loaded host makes jackd xrun on its own, which no client can make good.
        if run.judgeable {
            // Nothing dropped: with the server on time, only this thread stalling for 250 ms could.
            if run.xruns <= 2 { #expect(run.alsaAccount?.dropped == 0, "\(run.alsaAccountLine)") }
            #expect(abs(run.framesPerSecond / 48_000 - 1) < 0.001, "the ALSA ticks' rate against the JACK frames")
            #expect(run.settledIntervals.standardDeviation <= 0.15)
            #expect(run.settledLateness.p95 <= 0.25)
        } else {
            // Not a failure, under CI neither: in the alsa-vm at host load 5-13 the guest's timers
            // woke more than 1 ms late some 100 times a second (up to 44 ms), so no window is free.
            print("ALSA clock through a stall: \(run.judgedWindows) of \(run.windows) half-second windows without an xrun or a machine stall "
                  + "(4 needed; \(run.xruns) xruns, \(run.machineStalls.count) machine stalls over 1 ms); timing not judged")
        }
    }
}

/// One run of the xrun session and what it measured.
struct XrunSession {
    var alsaTypes: [UInt32] = []
    var jackTypes: [UInt32] = []
    var alsaTicks: Int { alsaTypes.filter { $0 == ClockReception.clock }.count }
    var jackTicks: Int { jackTypes.filter { $0 == ClockReception.clock }.count }
    var grid = TickGrid()
    var holes: [String] = []
    var stalls = 0
    var stallerLog = ""
    var tactusSummary = ""
    var beforeIntervals = TimingStatistics([])
    var stallIntervals = TimingStatistics([])
    var stallIntervalMaximum = 0.0
    var settledIntervals = TimingStatistics([])
    var settledIntervalMaximum = 0.0
    var settledLateness = TimingStatistics([])
    /// The JACK frames' rate against the stamps after the stall (48 000 when the
    /// emulated dummy driver keeps real time).
    var framesPerSecond = 0.0
    /// Xruns tactus reported over the session (its last `xruns N` line).
    var xruns = 0
    /// The clock thread's own account at its stop (`ALSAStatistics.clockSummary`).
    var alsaAccountLine = ""
    var alsaAccount: (sent: Int, dropped: Int)?
    /// The largest step back between consecutive arrival stamps (µs), printed.
    var largestStepBack: Int64 = 0
    /// The recorder's xrun notices (queue µs), those of the forced stall left out.
    var xrunNotices: [Int64] = []
    var xrunNoticeLine = ""
    /// Half-second windows from 0.5 s after the stall to the last tick, and those judged.
    var windows = 0
    var judgedWindows = 0
    var judgeable: Bool { judgedWindows >= 4 && settledIntervals.count >= 40 }
    /// How late (µs) the machine's own stalls after the stall were (MachineStallWatch).
    var machineStalls: [Int64] = []

    /// How the JACK ticks sit on the grid anchored at the first: `late` ones came at a
    /// cycle start after their frame (a skipped cycle); `missing`/`doubled` count grid
    /// slots with no tick or two; `off` ticks are neither on the grid nor late at a cycle start.
    struct TickGrid: CustomStringConvertible {
        var slots = 0, late = 0, missing = 0, doubled = 0, off = 0
        var description: String { "\(slots) slots, \(late) late at a cycle start, \(missing) missing, \(doubled) doubled, \(off) off" }

        init() {}

        init(frames: [Int64], interval: Double, period: Int64) {
            guard let first = frames.first, let last = frames.last else { return }
            slots = Int((Double(last - first) / interval).rounded()) + 1
            var slotOf: [Int] = []
            for (i, f) in frames.enumerated() {
                let exact = Double(f - first) / interval
                let nearest = exact.rounded()
                if abs(exact - nearest) * interval <= 0.5 {
                    slotOf.append(Int(nearest))
                } else if f % period == 0 {
                    // Late at a cycle start: the slot is the earliest not yet taken.
                    late += 1
                    slotOf.append((slotOf.last ?? -1) + 1)
                    if Double(slotOf[i]) > exact { off += 1 }
                } else {
                    off += 1
                    slotOf.append(Int(nearest))
                }
            }
            for (a, b) in zip(slotOf, slotOf.dropFirst()) {
                if b == a { doubled += 1 } else if b > a + 1 { missing += b - a - 1 }
            }
        }
    }

    static var products: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    /// 2048 frames (43 ms): under the emulated CPU half the wake-ups of 1024, and measured
    /// in the VM at host load 22 (jackd dummy and one client, 20 s): 16 xruns at 1024, 0 at 2048.
    static let period = 2048
    /// How long the session records after the stall (the windows judged lie in it).
    static let afterStallSeconds = 6.5

    /// Where the session is, on standard error (a run in the emulated VM is slow).
    static func progress(_ line: String) {
        let text = "xrun session: \(line)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    static func run(bpm: Double, stallMilliseconds: Int) throws -> XrunSession {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-xrun-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let server = "tactus-xrun-\(getpid())"
        // TACTUS_XRUN_TACTUS: another build of tactus to measure (e.g. the one before a change).
        let tactusPath = ProcessInfo.processInfo.environment["TACTUS_XRUN_TACTUS"] ?? products + "/tactus"
        let probe = products + "/tactus-jack-probe"
        let environment = ["JACK_NO_AUDIO_RESERVATION": "1", "XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config"]

        // The receiver, stamped on arrival by a queue of its own on the HR timer.
        let stampClient = try Sequencer(name: "xrun stamps")
        let stampQueue = try ClockQueue(sequencer: stampClient, name: "xrun stamps", resolutionHz: 6250)
        try stampQueue.start()
        let receiver = try TestSequencerClient(name: "xrun receiver", inputPool: 4000)
        try receiver.stampArrivals(with: stampQueue.id)
        var calibration = QueueClockCalibration()
        calibration.update(with: (0..<5).compactMap { _ in
            let before = MonotonicClock.microseconds()
            guard let q = try? stampQueue.microseconds() else { return nil }
            return QueueClockCalibration.Reading(before: before, queue: q, after: MonotonicClock.microseconds())
        })

        var processes: [ChildProcess] = []
        defer { for p in processes.reversed() { p.kill() } }
        var spawnEnvironment = ProcessInfo.processInfo.environment
        for (k, v) in environment { spawnEnvironment[k] = v }
        func launch(_ path: String, _ arguments: [String], log: String) throws -> ChildProcess {
            let p = try ChildProcess(path, arguments, environment: spawnEnvironment, output: folder + "/" + log)
            processes.append(p)
            return p
        }
        func text(_ log: String) -> String { (try? String(contentsOfFile: folder + "/" + log, encoding: .utf8)) ?? "" }
        func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline { if condition() { return true }; Thread.sleep(forTimeInterval: 0.02) }
            return condition()
        }
        func stop(_ p: ChildProcess) {
            p.terminate()
            if !waitFor(10, { !p.isRunning }) { p.kill() }
        }

        let jackd = try launch("/usr/bin/jackd", ["-n", server, "-d", "dummy", "-r", "48000", "-p", "\(period)"], log: "jackd.log")
        progress("jackd \(server) started")
        let ready = folder + "/rec.ready"
        let recording = folder + "/rec.txt"
        var recorder: ChildProcess?
        // jackd takes a while to come up under emulation: retry the recorder until it connects.
        for _ in 0..<10 where recorder == nil {
            Thread.sleep(forTimeInterval: 0.5)
            let p = try launch(probe, ["record", "-s", server, "--name", "rec", "--out", recording, "--ready", ready, "--audio-ports", "1", "--midi-ports", "1"], log: "rec.log")
            if waitFor(5, { FileManager.default.fileExists(atPath: ready) || !p.isRunning }), p.isRunning { recorder = p } else { p.kill() }
        }
        progress("recorder: \(recorder != nil)")
        guard let recorder else { throw TestFailure("no recorder on \(server): \(text("jackd.log")) \(text("rec.log"))") }

        var received: [TestSequencerClient.Received] = []
        func receive(for seconds: Double) {
            let until = MonotonicClock.microseconds() + Int64(seconds * 1_000_000)
            while MonotonicClock.microseconds() < until {
                received += receiver.receiveAvailable()
                MonotonicClock.sleep(microseconds: 2_000)
            }
        }
        let machine = MachineStallWatch()
        var machineStalls: [MachineStallWatch.Stall]?
        defer { if machineStalls == nil { _ = machine.stop() } }
        let tactus = try launch(tactusPath, ["run", "--no-interactive", "-s", server, "-n", "tactus", "--bpm", "\(bpm)",
                                             "--connect-clock", "rec:midi_1", "--alsa-clock-to", "\(receiver.address.client):\(receiver.address.port)"],
                                log: "tactus.log")
        let started = waitFor(40) { received += receiver.receiveAvailable(); return received.contains { $0.type == ClockReception.clock } }
        progress("tactus clock on ALSA: \(started)")
        guard started else {
            stop(tactus)
            throw TestFailure("no ALSA clock from tactus in 40 s (\(received.count) events): \(text("tactus.log"))")
        }
        receive(for: 1.5)
        let staller = try launch(probe, ["stall", "-s", server, "--to", "tactus:control", "--every", "1", "--milliseconds", "\(stallMilliseconds)", "--count", "1"],
                                 log: "staller.log")
        var stallAt: Int64?
        let stallDeadline = MonotonicClock.microseconds() + 30_000_000
        while stallAt == nil && MonotonicClock.microseconds() < stallDeadline {
            receive(for: 0.02)
            stallAt = text("staller.log").split(separator: "\n").first { $0.hasPrefix("stall ") }.flatMap { Int64($0.split(separator: " ")[1]) }
        }
        progress("stall at \(stallAt.map(String.init) ?? "none")")
        receive(for: afterStallSeconds)
        machineStalls = machine.stop()
        stop(tactus)
        receive(for: 0.5)
        stop(staller)
        stop(recorder)
        stop(jackd)
        received += receiver.receiveAvailable()
        progress("stopped; \(received.count) events received")

        var session = XrunSession()
        session.stallerLog = text("staller.log")
        session.stalls = session.stallerLog.split(separator: "\n").filter { $0.hasPrefix("stall ") }.count
        let tactusLines = text("tactus.log").split(separator: "\n")
        session.tactusSummary = tactusLines.filter { $0.contains("ALSA") }.joined(separator: " | ")
        session.xruns = tactusLines.compactMap { line in line.firstMatch(of: /xruns (\d+)/).flatMap { Int($0.1) } }.last ?? 0
        if let account = tactusLines.last(where: { $0.contains("ALSA clock: ") }),
           let match = account.firstMatch(of: /ALSA clock: (\d+) events sent .*?, (\d+) dropped/) {
            session.alsaAccountLine = String(account)
            session.alsaAccount = (Int(match.1)!, Int(match.2)!)
        }
        guard let stallMonotonic = stallAt, let stallQueue = calibration.queueMicroseconds(atMonotonic: Double(stallMonotonic)) else {
            throw TestFailure("the staller never stalled: \(session.stallerLog)")
        }

        // The JACK recording: `M port frame hex...` lines, `H from to` holes.
        var jackEvents: [(frame: Int64, type: UInt32)] = []
        var noticed: [Int64] = []
        for line in ((try? String(contentsOfFile: recording, encoding: .utf8)) ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "H" { session.holes.append(String(line)) }
            if fields.first == "X", fields.count == 2, let at = Int64(fields[1]) { noticed.append(at) }
            guard fields.first == "M", fields.count >= 4, let frame = Int64(fields[2]), let status = UInt8(fields[3], radix: 16) else { continue }
            let bytes = fields.dropFirst(3).compactMap { UInt8($0, radix: 16) }
            guard status >= 0xF0 || bytes.count == 3 else { continue }
            let midi = bytes.count == 3 ? MIDIBytes(bytes[0], bytes[1], bytes[2]) : bytes.count == 2 ? MIDIBytes(bytes[0], bytes[1]) : MIDIBytes(bytes[0])
            jackEvents.append((frame, ClockReception.type(of: midi)))
        }
        let alsa = received.filter { [ClockReception.clock, ClockReception.start, ClockReception.stop, ClockReception.songPosition].contains($0.type) }
        session.alsaTypes = alsa.map(\.type)
        let stamps = alsa.compactMap(\.queueMicroseconds)
        session.largestStepBack = zip(stamps, stamps.dropFirst()).map { $0 - $1 }.max() ?? 0
        session.jackTypes = jackEvents.map(\.type)
        let jackTickFrames = jackEvents.filter { $0.type == ClockReception.clock }.map(\.frame)
        let framesPerTick = 48_000 * 60 / bpm / 24
        session.grid = TickGrid(frames: jackTickFrames, interval: framesPerTick, period: Int64(period))

        // The xrun notices in queue time; those from 0.1 s before the stall to 0.3 s after its end
        // are the forced stall's own (one or two), which the half second after it covers.
        let stallEnd = stallQueue + Int64(stallMilliseconds) * 1000
        let notices = noticed.compactMap { calibration.queueMicroseconds(atMonotonic: Double($0)) }
        session.xrunNotices = notices.filter { $0 < stallQueue - 100_000 || $0 > stallEnd + 300_000 }
        session.xrunNoticeLine = notices.map { "\(($0 - stallQueue) / 1000) ms" }.joined(separator: ", ") + " from the stall"
        // The machine's own stalls after the stall (the watch thread woken more than 1 ms late), in queue time.
        let stalls = (machineStalls ?? []).compactMap { stall in
            calibration.queueMicroseconds(atMonotonic: Double(stall.at)).map { (at: $0, late: stall.lateMicroseconds) }
        }
        session.machineStalls = stalls.filter { $0.at > stallQueue }.map(\.late)

        // Timing: the ALSA ticks against the grid of their tempo (one tempo all along). Where the
        // server keeps real time its frames run at 48 000 a second of the guest's clock, which the
        // queue's timer also follows; the ticks of a run of judged windows are then at
        // `k × framesPerTick` frames of one line (an intercept for each run: an xrun moves the dummy
        // driver's frames against the clock), k counted from the run's first tick by the intervals
        // (a tick dropped leaves a gap of two). JACK's own frames do not serve: under emulation the
        // recorder misses cycles.
        let alsaStamps = alsa.filter { $0.type == ClockReception.clock }.compactMap(\.queueMicroseconds)
        guard let lastStamp = alsaStamps.last else { return session }
        let nominal = framesPerTick * 1_000_000 / 48_000
        func steps(_ i: Int) -> Int { max(1, Int((Double(alsaStamps[i] - alsaStamps[i - 1]) / nominal).rounded())) }
        let settledFrom = stallQueue + 500_000
        var runs: [[Int]] = []
        var previousJudged = false
        var window = settledFrom
        while window + 500_000 <= lastStamp {
            let end = window + 500_000
            let judged = !session.xrunNotices.contains { $0 > window - 500_000 && $0 < end + 250_000 }
                && !stalls.contains { $0.at + $0.late > window - 50_000 && $0.at < end }
            session.windows += 1
            if judged {
                session.judgedWindows += 1
                let ticks = alsaStamps.indices.filter { alsaStamps[$0] >= window && alsaStamps[$0] < end }
                if previousJudged { runs[runs.count - 1] += ticks } else { runs.append(ticks) }
            }
            previousJudged = judged
            window = end
        }
        // Each run's ticks as (frames from its first tick, stamp).
        let placed: [[(x: Double, y: Double)]] = runs.filter { $0.count >= 2 }.map { run in
            var k = 0
            return run.enumerated().map { n, i in
                if n > 0 { k += steps(i) }
                return (Double(k) * framesPerTick, Double(alsaStamps[i]))
            }
        }
        // The frames' rate in stamp time, by least squares within each run: a check that the
        // ALSA ticks keep the tempo (48 000 when they do).
        var sxy = 0.0, sxx = 0.0
        for run in placed {
            let mx = run.map(\.x).reduce(0, +) / Double(run.count), my = run.map(\.y).reduce(0, +) / Double(run.count)
            sxy += run.reduce(0) { $0 + ($1.x - mx) * ($1.y - my) }
            sxx += run.reduce(0) { $0 + ($1.x - mx) * ($1.x - mx) }
        }
        session.framesPerSecond = sxy > 0 ? 1_000_000 * sxx / sxy : 0
        let microsecondsPerFrame = 1_000_000 / 48_000.0
        var before: [Double] = [], during: [Double] = [], settled: [Double] = [], lateness: [Double] = []
        for i in 1..<alsaStamps.count {
            let error = (Double(alsaStamps[i] - alsaStamps[i - 1]) - Double(steps(i)) * nominal) / 1000
            let at = alsaStamps[i - 1]
            if at < stallQueue - 100_000 { before.append(error) } else if at < settledFrom { during.append(error) }
        }
        for run in placed {
            settled += zip(run, run.dropFirst()).map { (($1.y - $0.y) - ($1.x - $0.x) * microsecondsPerFrame) / 1000 }
            let offsets = run.map { $0.y - $0.x * microsecondsPerFrame }
            let median = offsets.sorted()[offsets.count / 2]
            lateness += offsets.map { ($0 - median) / 1000 }
        }
        session.beforeIntervals = TimingStatistics(before)
        session.stallIntervals = TimingStatistics(during)
        session.stallIntervalMaximum = during.map(abs).max() ?? 0
        session.settledIntervals = TimingStatistics(settled)
        session.settledIntervalMaximum = settled.map(abs).max() ?? 0
        session.settledLateness = TimingStatistics(lateness)
        return session
    }
}

/// A child process by posix_spawn and waitpid: Foundation's `Process` cannot
/// watch its children in the VM (it needs a socket pair the guest refuses), so its
/// `isRunning` never turns false there.
final class ChildProcess {
    let pid: pid_t
    private var exited = false

    init(_ path: String, _ arguments: [String], environment: [String: String], output: String) throws {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw TestFailure("cannot start \(path): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    func terminate() { if isRunning { Glibc.kill(pid, SIGTERM) } }

    /// SIGKILL and reap.
    func kill() {
        guard isRunning else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
