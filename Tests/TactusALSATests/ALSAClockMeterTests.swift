import CALSA
import CALSAShims
import Testing
@testable import TactusALSA
import TactusCore

extension ALSASequencerTests {
    /// `tactus clock-meter --alsa-clock-from C:P` (docs/DESIGN.md §9.1, "The
    /// meter"): a test client schedules a Song Position, Start and 2.5 s of ticks
    /// at 120 BPM (20 833 µs apart, 121 ticks) on its own real-time queue; the
    /// meter subscribes and the kernel stamps each arrival, as it does for a
    /// second subscriber that records them (stamped on a queue of its own: the
    /// kernel delivers to both in one dispatch). The meter's last line is the
    /// recording's last 96 intervals: σ and worst to the printed 0.01 ms (and
    /// 0.05 ms for the two stamps of one dispatch), no tick missing. The
    /// emulated CPU of the alsa-vm (its README: deliveries at most 1–3.3 ms late
    /// when idle; one interval 8.9 ms off the mean on a busy host here) sets only
    /// the bound on the tempo: 96 intervals over 2 s at 120 BPM, to 0.05 BPM.
    @Test func theMeterReadsATestClientsClockThroughTheSequencerAsARecordingDoes() throws {
        let sender = try TestSequencerClient(name: "clock sender")
        let recorder = try TestSequencerClient(name: "clock recorder")
        let queue = try sender.startQueue()
        try recorder.subscribe(from: sender.address, to: recorder.address, stampingWith: try recorder.startQueue())
        let first: Int64 = 1_000_000
        try sender.schedule(.songPosition(16), at: first - 100_000, on: queue)
        try sender.schedule(.start, at: first, on: queue)
        for k in 0..<121 { try sender.schedule(.timingClock, at: first + Int64(k) * 20_833 + (k % 3 == 0 ? 0 : 1), on: queue) }
        try sender.drainOutput()
        var settings = ALSAClockMeter.Settings(source: try PortSpecifier(parsing: "\(sender.address)"))
        settings.seconds = 4
        var lines: [String] = [], messages: [String] = []
        let status = ALSAClockMeter.run(settings, shouldStop: { false }, output: { lines.append($0) }, log: { messages.append($0) })
        print("tactus clock-meter --alsa-clock-from \(sender.address) --seconds 4 (in-process, the alsa-vm):\n" + lines.joined(separator: "\n"))
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        #expect(lines.contains { $0.hasSuffix("s  Song Position Pointer (0xF2): sixteenth 16 (quarter note 4)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("s  Start (0xFA)") }, "\(lines)")
        let last = try #require(lines.last)
        let w = last.split(separator: " ")
        try #require(w.count == 24, "\(last)")
        let bpm = try #require(Double(w[2])), sigma = try #require(Double(w[5])), worst = try #require(Double(w[8]))
        #expect(w[12] == "0" && w[14] == "(96" && w[20] == "0", "no tick missing: \(last)")
        // The recording's last 96 intervals, in ms.
        let stamps = recorder.receiveAvailable().filter { $0.type == SND_SEQ_EVENT_CLOCK.rawValue }.compactMap(\.queueMicroseconds)
        #expect(stamps.count == 121)
        let intervals = zip(stamps, stamps.dropFirst()).map { Double($1 - $0) / 1_000 }.suffix(96)
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let recordedSigma = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count - 1)).squareRoot()
        let recordedWorst = intervals.map { abs($0 - mean) }.max() ?? 0
        print("recorded: \(60_000 / (mean * 24)) BPM, σ \(recordedSigma) ms, worst \(recordedWorst) ms")
        #expect(abs(bpm - 60_000 / (mean * 24)) <= 0.01 && abs(bpm - 120) <= 0.05, "\(last)")
        #expect(abs(sigma - recordedSigma) <= 0.055 && abs(worst - recordedWorst) <= 0.055, "\(last): recorded σ \(recordedSigma), worst \(recordedWorst)")
    }

    /// A port that is not there: one line, status 1, before any wait.
    @Test func theMeterSaysAnUnknownALSAPort() throws {
        var messages: [String] = []
        let status = ALSAClockMeter.run(ALSAClockMeter.Settings(source: try PortSpecifier(parsing: "No Such Client:7")), shouldStop: { false },
                                        output: { _ in }, log: { messages.append($0) })
        #expect(status == 1 && messages == ["clock-meter: no ALSA sequencer port 'No Such Client:7' that sends MIDI (tactus ports lists them: out)"])
    }
}
