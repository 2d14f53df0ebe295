import Foundation

/// A private headless PipeWire whose JACK library stands in for libjack
/// (`pw-jack`): Debian's `minimal.conf` without its ALSA nodes, D-Bus off, clock
/// 48000 Hz, quantum 256, keeping the Dummy-Driver node that drives JACK clients
/// without a session manager. Its socket lives in a private XDG_RUNTIME_DIR.
final class PipeWireTestServer: AudioServerUnderTest {
    let name: String
    let runtimeDirectory: URL
    let logURL: URL
    private var process: Process?

    static var isInstalled: Bool {
        ["/usr/bin/pipewire", "/usr/bin/pw-jack", "/usr/share/pipewire/minimal.conf"].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    init() throws {
        name = "tactus-pw-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        runtimeDirectory = TestFiles.file(name)
        logURL = TestFiles.file("\(name).pipewire.log")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let configuration = TestFiles.file("\(name).conf")
        try PipeWireTestServer.configuration().write(to: configuration, atomically: true, encoding: .utf8)
        process = try TestProcess.launch("/usr/bin/pipewire", ["-c", configuration.path], output: logURL,
                                         environment: ["XDG_RUNTIME_DIR": runtimeDirectory.path])
        let socket = runtimeDirectory.appendingPathComponent("pipewire-0")
        guard TestProcess.waitForFile(socket, seconds: 10) else { throw TestFailure("pipewire did not start: \(Launch.text(logURL))") }
    }

    deinit { stop() }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    var clientArguments: [String] { [] }

    func launch(_ path: String, _ arguments: [String], output: URL, environment: [String: String]) throws -> Process {
        var env = environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        return try TestProcess.launch("/usr/bin/pw-jack", ["-p", "256", path] + arguments, output: output, environment: env)
    }

    /// minimal.conf, edited: ALSA adapters out, D-Bus off, 48 kHz, quantum 256.
    static func configuration() throws -> String {
        var text = try String(contentsOfFile: "/usr/share/pipewire/minimal.conf", encoding: .utf8)
        // Remove every `{ factory = adapter … }` object that opens an ALSA device.
        var result = ""
        while let start = text.range(of: "{ factory = adapter") {
            var depth = 0
            var end = start.lowerBound
            for i in text[start.lowerBound...].indices {
                if text[i] == "{" { depth += 1 } else if text[i] == "}" { depth -= 1; if depth == 0 { end = i; break } }
            }
            let block = text[start.lowerBound...end]
            result += text[..<start.lowerBound]
            if !block.contains("api.alsa") { result += block }
            text = String(text[text.index(after: end)...])
        }
        result += text
        let settings = """
            support.dbus = false
            default.clock.rate = 48000
            default.clock.allowed-rates = [ 48000 ]
            default.clock.quantum = 256
            default.clock.min-quantum = 256
            default.clock.max-quantum = 256
        """
        guard let properties = result.range(of: "context.properties = {") else { throw TestFailure("minimal.conf has no context.properties") }
        result.insert(contentsOf: "\n" + settings + "\n", at: properties.upperBound)
        // A virtual machine gets min-quantum 1024 by default: keep 256.
        return result.replacingOccurrences(of: "default.clock.min-quantum = 1024", with: "default.clock.min-quantum = 256")
    }
}

/// A JACK server the session runs its clients on: jackd, or PipeWire's JACK.
protocol AudioServerUnderTest: AnyObject {
    var name: String { get }
    /// What a client is told to find this server (`-s NAME` for jackd).
    var clientArguments: [String] { get }
    func launch(_ path: String, _ arguments: [String], output: URL, environment: [String: String]) throws -> Process
    func stop()
}

extension JackTestServer: AudioServerUnderTest {
    var clientArguments: [String] { ["-s", name] }

    func launch(_ path: String, _ arguments: [String], output: URL, environment: [String: String]) throws -> Process {
        try TestProcess.launch(path, arguments, output: output, environment: environment)
    }
}
