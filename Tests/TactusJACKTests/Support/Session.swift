import Foundation

/// One metronome process in a recorded session: `tactus-jack-probe metronome`
/// (the same `JackMetronome` as `tactus`) with its own client name and options.
struct MetronomeSpec: Sendable {
    var name: String
    var arguments: [String]
    var environment: [String: String] = [:]
    /// The `tactus` command itself rather than the probe's scripted harness.
    var isTactus = false
}

/// What a recorded session left: the recording (audio port i and MIDI port i
/// are metronome i's `click` and `clock`), and per metronome its exit status,
/// its messages and its harness log.
struct SessionResult: Sendable {
    var recording: Recording
    var exitStatus: [String: Int32]
    var messages: [String: String]
    var harnessLog: [String: String]
    var jackdLog: String
}

enum Session {
    /// Starts a private server, a recorder, the metronomes connected to it; after
    /// `seconds` sends SIGTERM to every metronome (each must send Stop and exit),
    /// then stops the recorder and the server.
    ///
    /// `fromFirstSound`: the `seconds` count from the moment every metronome has been
    /// heard on both its ports rather than from their launch: on a loaded machine a
    /// program can take seconds to start, and a recording that must span 30 s of
    /// clicks would otherwise lose them. (Waits up to 20 s for that moment.)
    static func record(period: Int, sampleRate: Int = 48000, synchronous: Bool = true, seconds: Double,
                       fromFirstSound: Bool = false, freewheel: Bool = false, metronomes: [MetronomeSpec],
                       during: ((JackTestServer) throws -> Void)? = nil) throws -> SessionResult {
        let server = try JackTestServer(sampleRate: sampleRate, period: period, synchronous: synchronous)
        defer { server.stop() }
        return try record(on: server, seconds: seconds, fromFirstSound: fromFirstSound, freewheel: freewheel, metronomes: metronomes) { try during?(server) }
    }

    /// `freewheel` (with `fromFirstSound`): the `seconds` from the first sound
    /// recorded with the server in freewheel mode (the recorder's `--freewheel`),
    /// for a recording about frames only: the same cycles in a fraction of the
    /// wall time; the start and the stop (SIGTERM, the MIDI Stop) on the clock.
    static func record(on server: AudioServerUnderTest, seconds: Double, fromFirstSound: Bool = false, freewheel: Bool = false,
                       metronomes: [MetronomeSpec], during: (() throws -> Void)? = nil) throws -> SessionResult {
        let tag = server.name
        let recordingURL = TestFiles.file("\(tag).recording")
        let ready = TestFiles.file("\(tag).ready")
        let heard = TestFiles.file("\(tag).heard")
        let freewheeled = TestFiles.file("\(tag).freewheeled")
        try? FileManager.default.removeItem(at: heard)
        try? FileManager.default.removeItem(at: freewheeled)
        let recorder = try server.launch(TestFiles.probe, [
            "record"] + server.clientArguments + ["--name", "rec", "--out", recordingURL.path, "--ready", ready.path, "--heard", heard.path,
            "--audio-ports", "\(metronomes.count)", "--midi-ports", "\(metronomes.count)",
        ] + (freewheel ? ["--freewheel", "\(seconds):\(freewheeled.path)"] : []), output: TestFiles.file("\(tag).recorder.log"), environment: [:])
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        guard TestProcess.waitForFile(ready, seconds: 10) else { throw TestFailure("recorder did not start") }

        var processes: [(MetronomeSpec, Process)] = []
        defer { for (_, p) in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        for (i, spec) in metronomes.enumerated() {
            let command = spec.isTactus
                ? [TestFiles.tactus, "run", "--no-alsa", "--no-interactive"] + server.clientArguments + ["-n", spec.name]
                : [TestFiles.probe, "metronome"] + server.clientArguments + ["-n", spec.name, "--events", TestFiles.file("\(tag).\(spec.name).events").path]
            let p = try server.launch(command[0], Array(command.dropFirst()) + spec.arguments
                                           + ["rec:audio_\(i + 1)", "--connect-clock", "rec:midi_\(i + 1)"],
                                           output: TestFiles.file("\(tag).\(spec.name).log"), environment: spec.environment)
            processes.append((spec, p))
        }
        if fromFirstSound && !TestProcess.waitForFile(heard, seconds: 20) {
            throw TestFailure("not every metronome was heard on its click and clock ports within 20 s of its launch")
        }
        let started = Date()
        try during?()
        if freewheel {
            guard TestProcess.waitForFile(freewheeled, seconds: 20 * seconds) else { throw TestFailure("the freewheel run did not end") }
        } else {
            let remaining = seconds - Date().timeIntervalSince(started)
            if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
        }

        var exits: [String: Int32] = [:]
        for (spec, p) in processes { if p.isRunning { kill(p.processIdentifier, SIGTERM) }; _ = spec }
        for (spec, p) in processes { exits[spec.name] = TestProcess.wait(p, seconds: 10) ?? -999 }
        Thread.sleep(forTimeInterval: 0.2)
        kill(recorder.processIdentifier, SIGTERM)
        _ = TestProcess.wait(recorder, seconds: 10)
        var messages: [String: String] = [:]
        var logs: [String: String] = [:]
        for spec in metronomes {
            messages[spec.name] = (try? String(contentsOf: TestFiles.file("\(tag).\(spec.name).log"), encoding: .utf8)) ?? ""
            logs[spec.name] = (try? String(contentsOf: TestFiles.file("\(tag).\(spec.name).events"), encoding: .utf8)) ?? ""
        }
        return SessionResult(recording: try Recording(contentsOf: recordingURL), exitStatus: exits, messages: messages,
                             harnessLog: logs, jackdLog: "")
    }
}
