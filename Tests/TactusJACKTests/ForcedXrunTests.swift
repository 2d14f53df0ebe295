import Foundation
import Testing
import TactusCore

extension JACKServerTests.Robustness {
    /// One forced xrun at a known moment: an asynchronous server, a client upstream
    /// of Tactus that stalls the graph once for 68 ms 1.5 s after it starts, Tactus'
    /// JACK clock port recorded. Every tick of the grid comes exactly once, in order:
    /// those whose cycles the stall skipped late, at the first cycle after it (the
    /// engine's rule for a tick up to 250 ms late), every other on its frame; the
    /// grid after the stall is the grid before it.
    @Test func aForcedXrunLosesNoJACKClockTickAndDoublesNone() throws {
        let bpm = 133.0, period = 256
        var stallLine = ""
        func session() throws -> SessionResult {
            try Session.record(period: period, synchronous: false, seconds: 5, metronomes: [
                MetronomeSpec(name: "tactus", arguments: ["--bpm", "\(bpm)"], isTactus: true),
            ]) { server in
                Thread.sleep(forTimeInterval: 0.5)
                let log = TestFiles.file("\(server.name).staller.log")
                let staller = try TestProcess.launch(TestFiles.probe, ["stall", "-s", server.name, "--to", "tactus:control",
                                                                       "--every", "1.5", "--milliseconds", "68", "--count", "1"], output: log)
                Thread.sleep(forTimeInterval: 3.5)
                _ = Launch.stop(staller)
                stallLine = Launch.text(log)
            }
        }
        let s = try session()
        let interval = 48000 * 60 / bpm / 24
        let ticks = s.recording.ticks()
        let fit = GridFit(ticks, interval: interval, holes: s.recording.holes, period: period)
        let first = ticks.first ?? 0
        // The forced stall is the recording's longest hole. Any other xrun notice
        // or hole is the machine disturbing the run besides (on a loaded host a
        // cycle right after the stall, itself late, is dropped by the asynchronous
        // server with the stall's late ticks, or the recorder misses its own):
        // what falls from two periods before such a notice to a quarter second
        // after it is not judged here, only printed. The engine's rule for every
        // skipped cycle is proved exactly by the simulated loop
        // (Simulated/SimulatedSkippedCyclesTests.swift); this take proves it on
        // a real server's stall and that nothing else moves.
        let stall = s.recording.holes.max { $0.count < $1.count }
        let stallWindow = stall.map { ($0.lowerBound - Int64(2 * period))...($0.upperBound + 12_000) }
        let others = s.recording.xrunFrames.filter { f in !(stallWindow.map { $0 ~= f } ?? false) }.map { ($0 - Int64(2 * period))...($0 + 12_000) }
            + s.recording.holes.filter { $0 != stall }.map { ($0.lowerBound - Int64(period))...($0.upperBound + Int64(period)) }
        func disturbed(_ f: Int64) -> Bool { others.contains { $0 ~= f } }
        let stallJudged = stallWindow.map { w in !others.contains { $0.overlaps(w) } } ?? false
        // Tick k of the grid belongs at first + k·interval. Late at a cycle start:
        // the stall's cycles. A whole number of periods late, its place in the
        // cycle kept: an output read a cycle late, because the asynchronous server
        // went on without a client that was late on a loaded machine.
        let lateness = zip(fit.indices, ticks).map { k, f in Double(f - first) - Double(k) * interval }
        let judged = ticks.indices.filter { !disturbed(ticks[$0]) }
        let atCycleStart = judged.filter { lateness[$0] > 0.5 && ticks[$0] % Int64(period) == 0 }
        let inStall = { (k: Int) in stallWindow.map { $0 ~= ticks[k] } ?? false }
        let periodsLate = judged.filter { k in
            let periods = (lateness[k] / Double(period)).rounded()
            return inStall(k) && lateness[k] > 0.5 && ticks[k] % Int64(period) != 0 && periods >= 1 && abs(lateness[k] - periods * Double(period)) <= 0.5
        }
        let unexplained = judged.filter { abs(lateness[$0]) > 0.5 && !atCycleStart.contains($0) && !periodsLate.contains($0) }
        let lateOutsideTheStall = atCycleStart.filter { !inStall($0) }
        // Missing grid positions (an index jump) only where the recorder did not
        // run or the machine disturbed the run; a tick doubled (an index that does
        // not grow) nowhere.
        var missingJudged: [Int64] = [], doubled: [Int64] = []
        for (i, (k, f)) in zip(fit.indices, ticks).enumerated() where i > 0 {
            let previous = fit.indices[i - 1]
            if k <= previous { doubled.append(f) }
            for j in (previous + 1)..<max(previous + 1, k) {
                let position = first + Int64((Double(j) * interval).rounded())
                let inStallHole = stall.map { ($0.lowerBound - 1)...($0.upperBound + 1) ~= position } ?? false
                if !disturbed(position) && !inStallHole { missingJudged.append(position) }
            }
        }
        print("JACK clock through one 68 ms stall at \(bpm) BPM: \(ticks.count) ticks, \(judged.count) judged (away from other xruns), "
              + "\(atCycleStart.count) late at a cycle start, \(periodsLate.count) whole periods late; the stall's window \(stallJudged ? "judged" : "disturbed besides, not judged"); "
              + "server xruns \(s.recording.xruns), \(others.count) disturbances besides the stall; \(fit); \(stallLine)")
        #expect(stallLine.split(separator: "\n").filter { $0.hasPrefix("stall ") }.count == 1, "the staller stalled once: \(stallLine)")
        #expect(s.messages["tactus"]?.contains(" 0 xruns") == false, "the stall must cause an xrun: \(s.messages)")
        #expect(doubled.isEmpty, "ticks doubled at \(doubled)")
        #expect(missingJudged.isEmpty, "ticks missing where the server and the recorder ran: \(missingJudged); \(fit)")
        let offGrid = unexplained.map { (ticks[$0], lateness[$0]) }
        #expect(unexplained.isEmpty, "ticks off the grid away from any disturbance but the stall, and not at a cycle start: \(offGrid)")
        #expect(lateOutsideTheStall.isEmpty, "ticks late at a cycle start away from the stall: \(lateOutsideTheStall.map { ticks[$0] })")
        if stallJudged {
            #expect(!atCycleStart.isEmpty, "some tick fell in the stall and was sent at the first cycle after it")
        }
        #expect(ticks.count > 150)
        if let last = judged.last {
            #expect(abs(lateness[last]) <= 0.5, "the last undisturbed tick is on the first tick's grid")
        }
    }
}
