import Foundation
import CJack
import Testing
@testable import TactusJACK

/// A private `jackd -d dummy` for one test: unique name, started and stopped by
/// PID, so tests never touch a musician's server or each other's.
final class JackTestServer {
    let name: String
    private(set) var sampleRate: Int
    let period: Int
    private(set) var process: Process?
    let logURL: URL

    private static let counter = Counter()

    /// Synchronous mode (`-S`): the server waits for every client each cycle.
    let synchronous: Bool
    /// The private network namespace jackd runs in (the Link tests), if any.
    let network: PrivateNetwork?

    /// `synchronous` by default: on a shared two-core machine an asynchronous
    /// server skips a late client's cycle now and then, and the timing tests
    /// are about Tactus, not the machine (the xrun test runs asynchronous on purpose).
    init(sampleRate: Int = 48000, period: Int = 256, synchronous: Bool = true, name: String? = nil, network: PrivateNetwork? = nil) throws {
        self.sampleRate = sampleRate
        self.period = period
        self.synchronous = synchronous
        self.network = network
        self.name = name ?? "tactus-test-\(getpid())-\(JackTestServer.counter.next())"
        logURL = TestFiles.directory.appendingPathComponent("\(self.name).jackd.log")
        try start()
    }

    deinit { stop() }

    /// Starts (or starts again, after `kill`, possibly at another rate) the server
    /// and waits until a client can open.
    func start(sampleRate rate: Int? = nil) throws {
        if let rate { sampleRate = rate }
        let arguments = ["-n", name] + (synchronous ? ["-S"] : []) + ["-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        process = try network.map { try $0.launch("/usr/bin/jackd", arguments, output: logURL) }
            ?? TestProcess.launch("/usr/bin/jackd", arguments, output: logURL)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let client = try? JackClient(name: "probe", server: name) {
                client.close()
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let said = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        let full = said.contains("Too many servers")
            ? " (jack2's registry of 8 servers is held by servers that died unregistered: scripts/test clears it when no JACK server runs)" : ""
        throw TestFailure("jackd \(name) did not come up\(full): \(said)")
    }

    /// SIGKILL: the server vanishes as it would after a crash.
    func kill() {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// What jackd said of each xrun in its log (it says it of every one): the
    /// driver itself woken late (`JackTimedDriver::Process XRun = N usec`: the
    /// machine's doing), or, per client it found unfinished, the client's state:
    /// `Triggered` (woken, but not yet given the processor or still waiting for a
    /// client before it) or `Running` (its own cycle ran past the deadline).
    struct XrunReport {
        var driverLate = 0
        var unfinished: [(client: String, running: Bool)] = []
        var count: Int { driverLate + unfinished.count }
        func ranLate(_ client: String) -> Int { unfinished.filter { $0.client == client && $0.running }.count }
    }

    func xrunReport() -> XrunReport {
        var report = XrunReport()
        let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        for line in log.split(separator: "\n") {
            if line.hasPrefix("JackTimedDriver::Process XRun") {
                report.driverLate += 1
            } else if let m = line.firstMatch(of: /^JackEngine::XRun: client = (.+) was not finished, state = (\w+)/) {
                report.unfinished.append((String(m.output.1), m.output.2 == "Running"))
            }
        }
        return report
    }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }
}

final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where the tests find the built tools and keep their files.
enum TestFiles {
    /// The build products folder (the test bundle runs from it).
    static let products: URL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()

    static let probe = products.appendingPathComponent("tactus-jack-probe").path
    static let tactus = products.appendingPathComponent("tactus").path
    static let interposer = products.appendingPathComponent("libRTProbe.so").path

    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-jack-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// Child processes of a test, with their output in a file.
enum TestProcess {
    /// `directory`: the working folder (nil: the test's).
    static func launch(_ path: String, _ arguments: [String], output: URL, environment: [String: String] = [:],
                       directory: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        try spawn(process)
        return process
    }

    /// Runs `process` with no signal blocked, as a shell would start it (as
    /// `Tmux.run` does). A child inherits the signal mask of the thread that
    /// spawns it, and the test runner's worker threads (libdispatch's) block
    /// nearly every signal: a program that takes SIGTERM with a handler rather
    /// than `sigwait` (klick, oscdump) never saw it, and each stop waited out
    /// its whole timeout before SIGKILL (10 s a time).
    static func spawn(_ process: Process) throws {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Waits for `process` to exit, up to `seconds`; kills it (by PID) if it does not.
    static func wait(_ process: Process, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    static func waitForFile(_ url: URL, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: url.path) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }
}

extension JackTestServer {
    /// Waits until the server has run `frames` frames from now, at most
    /// `timeout` seconds: a take whose length is in the music (beats) and not
    /// in the host's clock, which a late wake-up puts the server's frames
    /// behind. `jack_last_frame_time` is the first frame of the cycle running,
    /// counted by the server's cycles (`jack_frame_time` is estimated from the
    /// host's clock and reads ahead while a wake-up is late).
    func waitForFrames(_ frames: Int64, timeout: Double) throws {
        let client = try JackClient(name: "framewatch", server: name)
        defer { client.close() }
        let start = jack_last_frame_time(client.handle)
        let deadline = Date().addingTimeInterval(timeout)
        while Int64(jack_last_frame_time(client.handle) &- start) < frames {
            guard Date() < deadline else { throw TestFailure("the server ran \(jack_last_frame_time(client.handle) &- start) of \(frames) frames in \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
