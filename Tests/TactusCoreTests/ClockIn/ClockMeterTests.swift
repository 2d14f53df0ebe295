import Testing
@testable import TactusCore

/// `tactus clock-meter`'s lines from scripted arrival frames (docs/DESIGN.md §9.1,
/// "The meter"): the figures are `ClockJitter`'s over the last 96 intervals, the
/// expected period `--bpm`'s or the first beat's tempo, the totals the meter's.
@Suite("Clock meter: the lines a second, transport and malformed bytes")
struct ClockMeterTests {
    /// 48 kHz, 120 BPM: a tick every 1000 frames.
    static let rate = 48_000

    /// Feeds `bytes` through the one decoder, the n-th byte at `frames[n]`; the lines it printed.
    static func feed(_ meter: inout ClockMeter, _ decoder: inout ClockInputDecoder, _ bytes: [(UInt8, Int64)]) -> [String] {
        var lines: [String] = []
        for (byte, frame) in bytes {
            if let output = decoder.decode(byte, atFrame: frame), let line = meter.receive(output, at: frame) { lines.append(line) }
        }
        return lines
    }

    static func ticks(_ frames: some Sequence<Int64>) -> [(UInt8, Int64)] { frames.map { (0xF8, $0) } }

    /// 121 ticks 1000 frames apart, the 111th 48 frames (1 ms) late: over the window
    /// of the last 96 intervals the mean is 1000 frames (120.00 BPM), two intervals
    /// are 48 off (1.00 ms worst), σ = √(2 × 48² / 95) = 6.96 frames = 0.15 ms; the
    /// expected tempo is the first beat's, 120.00, so no drift and nothing missing.
    @Test func aLateTickIsSpreadAndWorstDeviationAtTheFirstBeatsTempo() {
        var meter = ClockMeter(rate: Self.rate, origin: 0)
        var decoder = ClockInputDecoder()
        #expect(meter.secondLine(second: 1) == "   1 s  no clock (0 ticks in all)")
        let frames = (0..<121).map { Int64($0) * 1_000 + ($0 == 110 ? 48 : 0) }
        #expect(Self.feed(&meter, &decoder, Self.ticks(frames.prefix(10))).isEmpty)
        #expect(meter.secondLine(second: 1) == "   1 s  measuring the first beat: 10 of 25 ticks (10 in all)")
        _ = Self.feed(&meter, &decoder, Self.ticks(frames.dropFirst(10)))
        #expect(meter.nominalTempo == BPM(120))
        let line = meter.secondLine(second: 3)
        print("clock meter, one tick 1 ms late: \(line)")
        #expect(line == "   3 s  120.00 BPM  σ 0.15 ms, worst 1.00 ms, +0 ppm, 0 missing (96 intervals, drift vs 120.00 BPM, 0 missing in all)")
    }

    /// `--bpm 120` and a clock 1 % fast (990 frames a tick: 121.21 BPM, +10101 ppm),
    /// one tick lost: counted in the window and in all, its two-period interval out
    /// of the spread; once it has left the window, only in all.
    @Test func driftAgainstTheGivenTempoAndALostTick() {
        var meter = ClockMeter(rate: Self.rate, origin: 0, tempo: BPM(120))
        var decoder = ClockInputDecoder()
        var frames = (0..<101).map { Int64($0) * 990 }
        frames.remove(at: 60)
        _ = Self.feed(&meter, &decoder, Self.ticks(frames))
        #expect(meter.secondLine(second: 2) == "   2 s  121.21 BPM  σ 0.00 ms, worst 0.00 ms, +10101 ppm, 1 missing (95 intervals, drift vs 120.00 BPM, 1 missing in all)")
        _ = Self.feed(&meter, &decoder, Self.ticks((101..<201).map { Int64($0) * 990 }))
        #expect(meter.secondLine(second: 4) == "   4 s  121.21 BPM  σ 0.00 ms, worst 0.00 ms, +10101 ppm, 0 missing (96 intervals, drift vs 120.00 BPM, 1 missing in all)")
        #expect(meter.ticksMissing == 1)
    }

    /// Start, Stop, Continue and Song Position are a line each, at their time from
    /// the start; the pause between Stop and Continue is no gap of missing ticks,
    /// and Continue fixes the expected tempo again (the song may go on at another).
    @Test func transportMessagesAreLinesAndAPauseIsNoGap() {
        var meter = ClockMeter(rate: Self.rate, origin: 48_000)
        var decoder = ClockInputDecoder()
        var lines = Self.feed(&meter, &decoder, [(0xFA, 72_000)] + Self.ticks((0..<49).map { 72_000 + Int64($0) * 1_000 }))
        lines += Self.feed(&meter, &decoder, [(0xFC, 121_500), (0xF2, 130_000), (0x10, 130_000), (0x00, 130_000)])
        #expect(meter.secondLine(second: 3) == "   3 s  no clock (49 ticks in all)")
        // Continue two seconds later at 100 BPM: 1200 frames a tick.
        lines += Self.feed(&meter, &decoder, [(0xFB, 216_000)] + Self.ticks((0..<49).map { 216_000 + Int64($0) * 1_200 }))
        #expect(lines == [
            "   0.500 s  Start (0xFA)",
            "   1.531 s  Stop (0xFC)",
            "   1.708 s  Song Position Pointer (0xF2): sixteenth 16 (quarter note 4)",
            "   3.500 s  Continue (0xFB)",
        ])
        #expect(meter.secondLine(second: 5) == "   5 s  100.00 BPM  σ 0.00 ms, worst 0.00 ms, +0 ppm, 0 missing (48 intervals, drift vs 100.00 BPM, 0 missing in all)")
    }

    /// Garbage between the ticks (a stray data byte, an undefined status, a Song
    /// Position cut short by a Tune Request): a line each naming the byte, its
    /// index in the stream and its frame; the ticks around it all measured.
    @Test func malformedBytesAreReportedAndTheTicksStillMeasured() {
        var meter = ClockMeter(rate: Self.rate, origin: 0, tempo: BPM(120))
        var decoder = ClockInputDecoder()
        var bytes: [(UInt8, Int64)] = []
        for k in 0..<100 {
            let frame = Int64(k) * 1_000
            bytes.append((0xF8, frame))
            if k == 40 { bytes.append((0x45, frame + 500)) }
            if k == 50 { bytes.append((0xF4, frame + 500)) }
            if k == 60 { bytes += [(0xF2, frame + 500), (0x01, frame + 500), (0xF6, frame + 600)] }
        }
        let lines = Self.feed(&meter, &decoder, bytes)
        #expect(lines == [
            "   0.844 s  clock in: data byte 0x45 with no status at byte 41 (frame 40500), ignored",
            "   1.052 s  clock in: undefined status byte 0xF4 at byte 52 (frame 50500), ignored",
            "   1.263 s  clock in: Song Position Pointer (0xF2) cut short after 1 of 2 data bytes by status 0xF6 at byte 65 (frame 60600), dropped",
        ])
        #expect(meter.errors == 3 && meter.ticksReceived == 100)
        // Every interval 1000 frames: the garbage moved no tick.
        #expect(meter.secondLine(second: 2) == "   2 s  120.00 BPM  σ 0.00 ms, worst 0.00 ms, +0 ppm, 0 missing (96 intervals, drift vs 120.00 BPM, 0 missing in all)")
    }
}
