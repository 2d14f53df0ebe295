import Foundation

/// A private network namespace with only a loopback interface
/// (`scripts/lib/netns hold`), for every test that enables Ableton Link: Link
/// announces itself by multicast on every interface it finds, and a test must
/// never reach the machine's network. The processes of a test (jackd, the
/// Tactus peers, the recorder) join it with `nsenter --net`.
///
/// Making it needs root (`unshare --net`). Under `CI=true` a namespace that
/// cannot be made fails the test; elsewhere the test is skipped, with the
/// reason printed. There is no fallback to the host's network.
final class PrivateNetwork {
    let holder: Process
    /// A process inside the namespace: `/proc/PID/ns/net` names it.
    let pid: Int32

    static let script: String = {
        // Tests/TactusJACKTests/Support/PrivateNetwork.swift → the repository's scripts/lib/netns.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/lib/netns").path
    }()

    private init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["hold"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        holder = process
        // "ready PID" once lo is up with its multicast route.
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n") && Date() < deadline && process.isRunning {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, words[0] == "ready", let pid = Int32(words[1]) else {
            if process.isRunning { process.terminate() }
            throw TestFailure("no private network namespace (\(Self.script) hold): \(text.isEmpty ? "no output" : text)")
        }
        self.pid = pid
    }

    deinit { stop() }

    /// The namespace, or nil (test skipped) when it cannot be made outside CI;
    /// under `CI=true` that is a failure.
    static func make() throws -> PrivateNetwork? {
        do {
            return try PrivateNetwork()
        } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }
            print("Link test skipped: \(error)")
            return nil
        }
    }

    /// `path arguments` inside the namespace.
    func launch(_ path: String, _ arguments: [String], output: URL, environment: [String: String] = [:]) throws -> Process {
        try TestProcess.launch("/usr/bin/nsenter", ["--net=/proc/\(pid)/ns/net", "--", path] + arguments, output: output, environment: environment)
    }

    func stop() {
        guard holder.isRunning else { return }
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
    }
}
