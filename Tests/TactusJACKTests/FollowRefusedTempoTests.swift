import Foundation
import Testing

extension JACKServerTests.JackTransport {
    /// `--transport follow` with the speed trainer (+10 BPM every bar): the
    /// master owns the tempo, so each step is refused, and the run's change log
    /// says so once (docs/DESIGN.md §13.4), however many steps came; nothing is
    /// said of keys or pressure, which nobody touched; the clicks keep the
    /// master's 120 BPM (24 000 frames a beat).
    @Test func followSaysTheTrainersRefusedStepsOnceARun() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        var master: Process?
        let (r, log) = try Self.record(server, "refused", seconds: 9, ["--transport", "follow", "--trainer", "120-140/1:10"]) { _ in
            master = try Self.probe(server, ["transport", "master", "--segments", "0:120:4", "--seconds", "9"], tag: "refused-master")
            // Past bar 3 (4 s at 120 BPM): two steps refused.
            Thread.sleep(forTimeInterval: 7)
        }
        if let master { _ = TestProcess.wait(master, seconds: 20) }
        let steps = "message the tempo is the JACK timebase master's: the trainer's and a tempo map's steps do not change it while following"
        #expect(log.components(separatedBy: steps).count == 2, "\(log)")
        #expect(!log.contains("keys and pressure"), "\(log)")
        let clicks = r.clicks(port: 1)
        // From the second beat after the start, as the follow rules judge: a start
        // that jack2 took twice under xruns (Starting, Rolling, Starting, Rolling on
        // frame 0) put the first beat two periods late once (an interval of 24 512).
        let intervals = zip(clicks.dropFirst(), clicks.dropFirst(2)).map { $1 - $0 }
        print("follow with the trainer: \(clicks.count) clicks, intervals \(Set(intervals).sorted())")
        #expect(clicks.count >= 10 && intervals.allSatisfy { abs($0 - 24_000) <= 2 }, "\(intervals)")
    }
}
