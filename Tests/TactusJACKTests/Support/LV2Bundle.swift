import Foundation

/// The plugin's bundle as scripts/build-lv2 makes it (the library of this
/// build beside the repository's TTL files), in the tests' folder: what
/// `LV2_PATH` points the hosts to.
enum LV2Bundle {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let uri = "urn:tactus:metronome"
    static let library = TestFiles.products.appendingPathComponent("libTactusLV2.so").path
    static let host = TestFiles.products.appendingPathComponent("tactus-lv2-host").path

    /// The folder holding tactus.lv2/ (made once per test run).
    static let path: URL = {
        let root = TestFiles.file("lv2")
        let bundle = root.appendingPathComponent("tactus.lv2")
        try? FileManager.default.removeItem(at: bundle)
        try? FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for name in ["manifest.ttl", "tactus.ttl"] {
            try? FileManager.default.copyItem(at: repository.appendingPathComponent("lv2/tactus.lv2/\(name)"), to: bundle.appendingPathComponent(name))
        }
        try? FileManager.default.copyItem(atPath: library, toPath: bundle.appendingPathComponent("libTactusLV2.so").path)
        // The shipped presets, where scripts/build-lv2 puts them.
        let presets = bundle.appendingPathComponent("presets")
        try? FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Presets").path)) ?? [] where name.hasSuffix(".json") {
            try? FileManager.default.copyItem(at: repository.appendingPathComponent("Presets/\(name)"), to: presets.appendingPathComponent(name))
        }
        return root
    }()

    /// Hosts find the bundle on `LV2_PATH`; the plugin, its shipped presets in
    /// it and no user's (an empty configuration folder).
    static var environment: [String: String] {
        ["LV2_PATH": path.path, "TACTUS_PRESETS_DIR": "", "XDG_CONFIG_HOME": TestFiles.file("lv2-config").path]
    }

    /// Runs a command to its end (killed after `seconds`: status -999); its standard output and status.
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                    seconds: Double = 120) throws -> (output: String, status: Int32) {
        let name = "\(URL(fileURLWithPath: path).lastPathComponent)-\(Counter.shared.next())"
        let out = TestFiles.file("\(name).out")
        let p = try TestProcess.launch(path, arguments, output: out, environment: environment)
        let status = TestProcess.wait(p, seconds: seconds) ?? -999
        return (try String(contentsOf: out, encoding: .utf8), status)
    }

    /// The offline host (Tests/LV2Host) on this build's library: its recording.
    static func render(_ arguments: [String]) throws -> (recording: Recording, text: String) {
        let bundle = path.appendingPathComponent("tactus.lv2").path
        let (text, status) = try run(host, ["run", library, "--bundle", bundle] + arguments, environment: environment)
        guard status == 0 else { throw TestFailure("tactus-lv2-host \(arguments) exited \(status): \(text)") }
        let file = TestFiles.file("lv2-host-\(Counter.shared.next()).recording")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (try Recording(contentsOf: file), text)
    }
}

extension Counter {
    static let shared = Counter()
}

/// jalv, the console LV2 host, running the plugin as a JACK client: its
/// standard input held open (jalv quits at its end), closed to stop it.
final class JalvProcess {
    let process: Process
    private let input = Pipe()
    let name: String

    init(server: JackTestServer, name: String, controls: [String: Double], environment: [String: String] = [:]) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jalv")
        process.arguments = ["-n", name, "-x"] + controls.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] } + [LV2Bundle.uri]
        let log = TestFiles.file("\(server.name).\(name).jalv.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = input
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = server.name
        env["JACK_NO_START_SERVER"] = "1"
        for (k, v) in LV2Bundle.environment.merging(environment, uniquingKeysWith: { $1 }) { env[k] = v }
        process.environment = env
        try process.run()
        // Its ports exist once it is active. A jack_lsp that opens its client while
        // jalv opens its own can wait for the server forever (CI: one did for
        // the 120 s it was given, past this deadline): each is given 3 s, then another.
        let deadline = Date().addingTimeInterval(15)
        var hung = 0
        while Date() < deadline {
            if let lsp = try? LV2Bundle.run("/usr/bin/jack_lsp", ["-s", server.name], seconds: 3) {
                if lsp.output.contains("\(name):midi_out") { return }
                if lsp.status == -999 { hung += 1 }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw TestFailure("jalv did not come up in 15 s (\(hung) jack_lsp killed after 3 s without an answer): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// Closes its input: jalv deactivates, frees the plugin and exits 0.
    @discardableResult
    func stop() -> Int32? {
        try? input.fileHandleForWriting.close()
        return TestProcess.wait(process, seconds: 10)
    }
}
