import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// The first thing many newcomers run: `tactus` with no JACK server. One line
/// of ours saying what is wrong and what to do (not libjack's status bits), a
/// wait that says it retries, status 1 when no server ever answered.
@Suite("No JACK server")
struct NoServerTests {
    /// A server name nobody runs: libjack finds no socket for it.
    static let server = "tactus-nobody-\(getpid())"

    /// libjack's and alsa-lib's own words, none of which a run may show.
    static let libraryWords = ["overall operation failed", "status 0x", "is it running", "Cannot connect", "jack server is not running",
                               "snd_seq_open", "No such file or directory", "(-2)"]

    static func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let folder = NSTemporaryDirectory() + "tactus-no-server-\(UUID().uuidString)"
        let p = Process()
        p.executableURL = TactusProcess.executable
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = server
        env["XDG_STATE_HOME"] = folder
        env["XDG_CONFIG_HOME"] = folder
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    static func expectOurWords(_ text: String) {
        let ours = "tactus: no JACK server named '\(server)' is running: start one (jackd, or qjackctl), or on PipeWire install pipewire-jack; "
            + "retrying every second (Ctrl-C to quit)"
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first { $0.contains("server") } == ours, "\(text)")
        #expect(lines.filter { $0 == ours }.count == 1, "said once: \(text)")
        for words in libraryWords { #expect(!text.contains(words), "\(words): \(text)") }
        // Without a sequencer (this machine may have one): ours too, what is off and what still works.
        if let alsa = lines.first(where: { $0.contains("ALSA") }) {
            #expect(alsa.hasPrefix("tactus: ALSA clock off: ") && alsa.hasSuffix("; the JACK MIDI clock and control ports still work"), "\(alsa)")
        }
    }

    @Test func noServerSaysSoInOurWordsWaitsAndExits1AfterCtrlC() throws {
        let (p, err) = try Self.launch([])
        Thread.sleep(forTimeInterval: 3)
        #expect(p.isRunning, "it waits")
        kill(p.processIdentifier, SIGINT)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 1, "\(text)")
        Self.expectOurWords(text)
    }

    /// `tactus clock-meter` does not wait: no server is one line of ours and status 1;
    /// no port at all is a usage error (status 2), before any server is asked.
    @Test func clockMeterWithoutAServerSaysSoAndExits1() throws {
        let (p, err) = try Self.launch(["clock-meter", "jack_midi_clock:mclk_out", "--seconds", "2"])
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1, "\(text)")
        #expect(text == "tactus: clock-meter: no JACK server named '\(Self.server)' is running: start one (jackd, or qjackctl), or on PipeWire install pipewire-jack\n")
        let (q, qErr) = try Self.launch(["clock-meter"])
        let usage = String(decoding: qErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        q.waitUntilExit()
        #expect(q.terminationStatus == 2 && usage == "tactus: clock-meter needs the port to read: a JACK MIDI output (tactus ports lists them), or --alsa-clock-from C:P\n", "\(usage)")
    }

    @Test func waitGivesUpByItselfWithStatus1() throws {
        let start = Date()
        let (p, err) = try Self.launch(["--wait", "2"])
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let took = Date().timeIntervalSince(start)
        #expect(p.terminationStatus == 1, "\(text)")
        #expect(took >= 2 && took < 6, "\(took) s")
        #expect(text.contains("\ntactus: no JACK server answered within 2 s (--wait): giving up\n"), "\(text)")
        Self.expectOurWords(text)
    }

    /// The log's reminders double (10, 20, 40 s…); `--wait` ends the wait once.
    @Test func theWaitRemindsLessAndLessAndGivesUpOnce() {
        var said: [String] = []
        let wait = ServerWait(limit: 45, reminds: true, now: .zero)
        #expect(wait.round(connected: false, now: .seconds(1)) { said.append($0) } == .seconds(10))
        #expect(wait.round(connected: false, now: .seconds(10)) { said.append($0) } == .seconds(20))
        #expect(wait.round(connected: false, now: .seconds(20)) { said.append($0) } == .seconds(40))
        #expect(wait.round(connected: false, now: .seconds(40)) { said.append($0) } == .seconds(45))
        #expect(wait.round(connected: false, now: .seconds(45)) { said.append($0) } == nil)
        #expect(wait.gaveUp)
        #expect(wait.round(connected: false, now: .seconds(50)) { said.append($0) } == nil)
        #expect(said == ["tactus: still waiting for a JACK server (10 s so far; Ctrl-C to quit)",
                         "tactus: still waiting for a JACK server (20 s so far; Ctrl-C to quit)",
                         "tactus: still waiting for a JACK server (40 s so far; Ctrl-C to quit)",
                         "tactus: no JACK server answered within 45 s (--wait): giving up"])
        // Connected: nothing more to say or wait for.
        let served = ServerWait(limit: 1, reminds: true, now: .zero)
        #expect(served.round(connected: true, now: .seconds(5)) { said.append($0) } == nil && !served.gaveUp)
    }
}
