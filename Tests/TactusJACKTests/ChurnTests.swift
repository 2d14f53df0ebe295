import Foundation
import Testing

extension JACKServerTests {
    /// Three quarters of a minute of what an hour of playing does
    /// (Benchmarks/churn.sh in 15 s rounds; the benchmark's row 10 runs it for
    /// five minutes or an hour and prints the xruns, RssAnon and the clock's
    /// grid): a pressure hold and two preset switches, each with its own sample,
    /// every round, tempo keys and taps in the live display, connections made
    /// and undone, a controller client a round, the server stopped and started
    /// again at the first and the second round. Asserted is only what no
    /// scheduler can move: the live heap (Tests/RTProbe's count of the bytes and
    /// blocks allocated and not freed, by every thread) at the end within
    /// churn_report.py's bound of its value 2 s before the second round's end,
    /// the same state (the first round and the first restart do what is done
    /// once: caches, the first sample read); the same descriptors and threads;
    /// the process callback neither allocated nor locked. A restart between the
    /// baseline and the end: what a restart leaks shows.
    @Suite struct Churn {
        static let seconds = 45
        static let round = 15
        /// The rounds the server restarts at: one before the baseline, one after.
        static let restarts = [1, 2]
        static let baseline = 28

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
            var baseline_at: Int
            var heap_bytes: [Int]
            var heap_growth_bytes: Int
            var heap_bound_bytes: Int
            var heap_blocks: [Int]
            var heap_growth_blocks: Int
            var heap_bound_blocks: Int
            var callback_cycles: Int
            var callback_violations: Int
            var rss_anon_kb: [Int]
            var rss_growth_kb: Int
            var fds: [Int]
            var threads: [Int]
            var restarts: Int
            var xruns: Int
            var xruns_tactus: Int
            var xruns_twin: Int
            var xruns_tactus_alone: Int
            var grew: [String]
            var clock_minutes_judged: Int
            var clock_minutes_off: [Int]
            var clock_off_ticks: Int
            var clock_ticks_judged: Int
            var clock_minutes_xrun: Int
            var clock_minutes_not_whole: Int
        }

        /// The interposer's live heap sees what it is there to see: a process under
        /// it that allocates a megabyte reads its count a megabyte (and a block or
        /// two) higher in the mapped file, and back within 64 kB once it freed it.
        @Test func theLiveHeapCountSeesAMegabyteAllocatedAndFreed() throws {
            let heap = TestFiles.file("heapcount.bin")
            let log = TestFiles.file("heapcount.log")
            let script = """
                import struct
                def read():
                    with open("\(heap.path)", "rb") as f:
                        return struct.unpack("<qq", f.read(16))
                before = read()
                block = bytearray(1 << 20)
                during = read()
                del block
                after = read()
                print(during[0] - before[0], during[1] - before[1], after[0] - before[0], after[1] - before[1])
                """
            let p = try TestProcess.launch("/usr/bin/python3", ["-c", script], output: log,
                                           environment: ["LD_PRELOAD": TestFiles.interposer, "TACTUS_RTPROBE_HEAP": heap.path,
                                                         "TACTUS_RTPROBE_REPORT": TestFiles.file("heapcount.rtprobe").path])
            #expect(TestProcess.wait(p, seconds: 30) == 0)
            let said = Launch.text(log)
            let figures = said.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            try #require(figures.count == 4, "python3 said: \(said)")
            #expect(figures[0] >= 1 << 20 && figures[0] < (1 << 20) + 65536 && figures[1] >= 1, "allocated: \(said)")
            #expect(abs(figures[2]) < 65536 && abs(figures[3]) <= 4, "freed: \(said)")
        }

        @Test(.timeLimit(.minutes(3))) func churnGrowsNoHeapDescriptorOrThread() throws {
            let root = try #require(Self.root, "no Package.swift above \(TestFiles.products.path)")
            let out = TestFiles.file("churn")
            let log = TestFiles.file("churn.log")
            let script = root.appendingPathComponent("Benchmarks/churn.sh").path
            let run = try TestProcess.launch("/bin/bash", [script, "\(Self.seconds)"], output: log,
                                             environment: ["TACTUS_CHURN_BIN": TestFiles.products.path, "TACTUS_BENCH_OUT": out.path,
                                                           "TACTUS_CHURN_ROUND": "\(Self.round)",
                                                           "TACTUS_CHURN_RESTARTS": Self.restarts.map(String.init).joined(separator: " "),
                                                           "TACTUS_CHURN_BASELINE": "\(Self.baseline)"])
            let status = TestProcess.wait(run, seconds: Double(Self.seconds) + 90)
            let said = Launch.text(log)
            print("churn: \(said.split(separator: "\n").last ?? "no output")")
            // 0: nothing grew and the clock kept its grid; 1: something grew or the clock
            // left its grid (the clock is the benchmark's business); 2: the run itself failed.
            #expect(status == 0 || status == 1, "\(said)")
            let json = try Data(contentsOf: out.appendingPathComponent("churn.json"))
            let figures = try JSONDecoder().decode(Figures.self, from: json)
            #expect(figures.restarts == Self.restarts.count, "the server was restarted at rounds \(Self.restarts): \(said)")
            // Read in the quiet seconds before the next round's controller (and restart):
            // churn.sh reads a sample due before it at the latest in the loop that starts it.
            #expect(figures.baseline_at <= Self.baseline + 2, "the baseline sample: \(said)")
            #expect(figures.heap_growth_bytes <= figures.heap_bound_bytes && figures.heap_growth_blocks <= figures.heap_bound_blocks,
                    "live heap bytes \(figures.heap_bytes), blocks \(figures.heap_blocks)")
            #expect(figures.fds[0] == figures.fds[1], "descriptors \(figures.fds): \(said)")
            #expect(figures.threads[0] == figures.threads[1], "threads \(figures.threads)")
            #expect(figures.callback_cycles > Self.seconds * 48000 / 256 / 2 && figures.callback_violations == 0,
                    "the process callback allocated or locked: \(said)")
        }
    }
}
