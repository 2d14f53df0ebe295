import Foundation
import Testing
import TactusCLI

extension JACKServerTests.JackTransport {
    /// The beats from song position 0 that a cycle's BBT says, in the meter it publishes.
    static func songBeats(_ row: Recording.TransportRow) -> Double {
        Double(row.bar - 1) * row.beatsPerBar + Double(row.beat - 1) + row.tickDouble / 1920
    }

    /// Master: the engine takes a transport start and a locate in the
    /// cycle that sees them (docs/DESIGN.md §13.3), so the BBT of every cycle is
    /// the engine's. `jack_transport start` at 133 BPM (`--start-stopped`): the
    /// first rolling cycle is 1.1 tick 0, with Start, the first clock tick and
    /// the accent on its first frame. `jack_transport locate` to bar 9's frame:
    /// the cycle JACK holds at the new frame carries the BBT published before
    /// anyone knew (the old bars, still what Tactus plays in it), and the next
    /// is 9.1 tick 0, with Stop, Song Position 128, Continue, the clock tick
    /// and the accent on its first frame. Every other rolling cycle's BBT is
    /// the last one's plus one period at 133 BPM: no cycle of another position;
    /// every click within ±0.5 frame of the beat its cycle's BBT puts it on.
    @Test func masterPublishesTheEnginesBBTFromTheFirstCycleAfterAStartAndALocate() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        // Bar 9 at 133 BPM 4/4: 8 × 4 × 60 × 48 000 / 133 = 692 932.3 frames.
        // Short clicks: the relocation's downbeat may follow the old grid's last click closely.
        let samples = ["--sample-accent", try Self.shortClick("\(server.name).accent.wav", level: 0.9),
                       "--sample-beat", try Self.shortClick("\(server.name).beat.wav", level: 0.6)]
        let (r, log) = try Self.record(server, "masterfirst", seconds: 9, ["--transport", "master", "--bpm", "133", "--start-stopped"] + samples) { _ in
            try Self.transport(server, after: 1, ["start"], tag: "start")
            try Self.transport(server, after: 3, ["locate", "692933"], tag: "locate")
        }
        #expect(log.contains("JACK timebase master: masterfirst"), "\(log)")
        let rows = r.transport
        let midi = r.midi().filter { $0.bytes != [0xF8] }
        #expect(midi.prefix(4).map(\.bytes) == [[0xFA], [0xFC], [0xF2, 0, 1], [0xFB]], "\(midi.map(\.bytes))")
        guard midi.count >= 4 else { return }
        let accents = Set(r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map(\.frame))
        let ticks = Set(r.ticks())

        let firstRoll = rows.firstIndex { $0.rolling }
        let first = try #require(firstRoll, "the transport never rolled")
        let start = rows[first]
        #expect(start.hasBBT && start.bar == 1 && start.beat == 1 && start.tickDouble == 0, "first rolling cycle \(start)")
        #expect(midi[0].frame == start.frame && accents.contains(start.frame) && ticks.contains(start.frame),
                "Start at \(midi[0].frame), the first rolling cycle at \(start.frame)")

        let heldAt = rows.firstIndex { $0.state == 3 && $0.transportFrame == 692_933 }
        let held = try #require(heldAt, "no cycle held at the locate's frame")
        try #require(held + 1 < rows.count)
        let landed = rows[held + 1]
        #expect(landed.rolling && landed.bar == 9 && landed.beat == 1 && landed.tickDouble == 0, "the cycle after the locate: \(landed)")
        #expect(midi[1].frame == landed.frame && midi[3].frame == landed.frame, "Stop and Continue at \(midi[1].frame), \(midi[3].frame)")
        #expect(accents.contains(landed.frame) && ticks.contains(landed.frame), "bar 9's downbeat and its clock tick at \(landed.frame)")

        let perCycle = 256 / (Self.rate * 60 / 133)
        var checked = 0, wrong: [String] = []
        for i in (first + 1)..<rows.count where i != held + 1 {
            let (a, b) = (rows[i - 1], rows[i])
            // A hole in the recording (a cycle the recorder missed) says nothing.
            guard b.frame - a.frame == 256, a.state != 0, b.state != 0 else { continue }
            checked += 1
            let step = b.hasBBT && a.hasBBT ? Self.songBeats(b) - Self.songBeats(a) : .nan
            if !(abs(step - perCycle) < 1e-6) { wrong.append("\(b.frame): \(b.bar).\(b.beat).\(b.tickDouble) after \(a.bar).\(a.beat).\(a.tickDouble)") }
        }
        #expect(rows[(held + 1)...].allSatisfy { $0.bar >= 9 }, "bars count from 9")
        let beats = Self.masterBeats(r)
        let worst = beats.map { abs($0.error) }.max() ?? .infinity
        print("transport master, start and locate taken in the cycle: \(checked) cycles checked, \(wrong.count) not one period on, \(beats.count) clicks, worst \(worst) frames, xruns \(r.xruns)")
        #expect(checked > 1000 && wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(beats.count >= 15 && worst <= 0.5, "\(beats.filter { abs($0.error) > 0.5 }.map { "\($0.frame) \($0.bar).\($0.beat): \($0.error)" })")
    }

    /// After `seconds`, the probe's `jack_transport` (`start`, `stop`, `locate FRAME`), waited for.
    static func transport(_ server: JackTestServer, after seconds: Double, _ arguments: [String], tag: String) throws {
        Thread.sleep(forTimeInterval: seconds)
        let probe = try Self.probe(server, ["transport"] + arguments, tag: tag)
        #expect(TestProcess.wait(probe, seconds: 10) == 0)
    }

    /// A one-millisecond click (48 frames at 48 kHz, a float mono WAV written
    /// by Tactus's own `WAVWriter`) at `level`: short enough that the recorder
    /// hears a click right after another (it takes an onset where the signal
    /// leaves silence), which the synthesised click's ring would hide.
    static func shortClick(_ name: String, level: Float) throws -> String {
        let url = TestFiles.file(name)
        // Closed when the writer is released, at the end of the block.
        do {
            let writer = try WAVWriter(path: url.path, sampleRate: 48_000, format: .float)
            try writer.write([Float](repeating: level, count: 48), frames: 48)
        }
        return url.path
    }
}
