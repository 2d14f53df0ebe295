import Foundation
import Testing

extension JACKServerTests {
    /// Five minutes of what an hour of playing does (Benchmarks/churn.sh, the
    /// benchmark's row 9 at 300 s): pressure holds every 10 s, a preset switch
    /// with its own sample every 30 s, tempo keys and taps in the live display,
    /// connections made and undone every 15 s, a controller client a minute,
    /// the server stopped and started again at the fourth minute. Nothing may
    /// grow: RssAnon at the end within 64 kB of its value after the third
    /// minute (the heap's layout settles in about three: Benchmarks/churn_report.py),
    /// the same descriptors and threads.
    @Suite struct Churn {
        /// `TACTUS_CHURN_TEST_SECONDS` lengthens the run (whole minutes, at least 300).
        static let seconds = Int(ProcessInfo.processInfo.environment["TACTUS_CHURN_TEST_SECONDS"] ?? "") ?? 300

        /// The checkout: the folder above the build products that holds Package.swift.
        static var root: URL? {
            var url = TestFiles.products
            for _ in 0..<6 {
                url = url.deletingLastPathComponent()
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            }
            return nil
        }

        struct Figures: Decodable {
            var rss_anon_kb: [Int]
            var rss_growth_kb: Int
            var fds: [Int]
            var threads: [Int]
            var restarts: Int
            var xruns: Int
            var xruns_tactus: Int
            var grew: [String]
        }

        @Test(.timeLimit(.minutes(10))) func fiveMinutesOfChurnGrowNothing() throws {
            let root = try #require(Self.root, "no Package.swift above \(TestFiles.products.path)")
            let out = TestFiles.file("churn")
            let log = TestFiles.file("churn.log")
            let script = root.appendingPathComponent("Benchmarks/churn.sh").path
            let run = try TestProcess.launch("/bin/bash", [script, "\(Self.seconds)"], output: log,
                                             environment: ["TACTUS_CHURN_BIN": TestFiles.products.path, "TACTUS_BENCH_OUT": out.path])
            let status = TestProcess.wait(run, seconds: Double(Self.seconds) + 120)
            let said = Launch.text(log)
            print("churn: \(said.split(separator: "\n").last ?? "no output")")
            let json = try Data(contentsOf: out.appendingPathComponent("churn.json"))
            let figures = try JSONDecoder().decode(Figures.self, from: json)
            #expect(figures.restarts == 1, "the server was restarted once: \(said)")
            #expect(figures.rss_growth_kb <= 64, "RssAnon \(figures.rss_anon_kb)")
            #expect(figures.fds[0] == figures.fds[1], "descriptors \(figures.fds)")
            #expect(figures.threads[0] == figures.threads[1], "threads \(figures.threads)")
            #expect(figures.grew.isEmpty && status == 0, "\(said)")
        }
    }
}
