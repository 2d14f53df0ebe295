import Foundation

/// Runs the `tactus` command (JACK only, log lines) or the probe's recorder.
enum Launch {
    static func tactus(server: String, name: String, _ arguments: [String], log: URL) throws -> Process {
        try TestProcess.launch(TestFiles.tactus, ["run", "--no-alsa", "--no-interactive", "-s", server, "-n", name] + arguments, output: log)
    }

    /// A passive recorder (`rec:audio_1`, `rec:midi_1`…); returns once its ports exist.
    static func recorder(server: String, out: URL, ports: Int = 1, name: String = "rec") throws -> Process {
        let ready = URL(fileURLWithPath: out.path + ".ready")
        try? FileManager.default.removeItem(at: ready)
        let p = try TestProcess.launch(TestFiles.probe, ["record", "-s", server, "--name", name, "--out", out.path, "--ready", ready.path,
                                                         "--audio-ports", "\(ports)", "--midi-ports", "\(ports)"],
                                       output: URL(fileURLWithPath: out.path + ".log"))
        guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }
        return p
    }

    static func stop(_ process: Process, seconds: Double = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        return TestProcess.wait(process, seconds: seconds)
    }

    static func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// Waits up to `seconds` until the file at `url` contains `text`.
    static func waitFor(_ url: URL, containing text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if Launch.text(url).contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }
}
