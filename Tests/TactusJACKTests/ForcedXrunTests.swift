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
        let s = try Session.record(period: period, synchronous: false, seconds: 5, metronomes: [
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
        let interval = 48000 * 60 / bpm / 24
        let ticks = s.recording.ticks()
        let fit = GridFit(ticks, interval: interval, holes: s.recording.holes, period: period)
        let first = ticks.first ?? 0
        let late = ticks.filter { f in
            let e = Double(f - first) - (Double(f - first) / interval).rounded() * interval
            return abs(e) > 0.5
        }
        print("JACK clock through one 68 ms stall at \(bpm) BPM: \(ticks.count) ticks, \(late.count) late at a cycle start; \(fit); \(stallLine)")
        #expect(stallLine.split(separator: "\n").filter { $0.hasPrefix("stall ") }.count == 1, "the staller stalled once: \(stallLine)")
        #expect(s.messages["tactus"]?.contains(" 0 xruns") == false, "the stall must cause an xrun: \(s.messages)")
        #expect(fit.gaps == 0 && fit.unseen == 0, "no tick missing or doubled: \(fit)")
        #expect(!late.isEmpty, "some tick fell in the stall")
        #expect(late.allSatisfy { $0 % Int64(period) == 0 }, "late ticks only at a cycle start: \(late)")
        #expect(ticks.count > 150)
        if let last = ticks.last {
            let e = Double(last - first) - (Double(last - first) / interval).rounded() * interval
            #expect(abs(e) <= 0.5, "the last tick is on the first tick's grid")
        }
    }
}
