import Testing
@testable import TactusCore

/// The clock input's byte decoder (docs/DESIGN.md §9.1): MIDI 1.0's rules for a
/// receiver, and every broken rule reported with its byte and frame.
@Suite("Clock input decoder: ticks, transport, Song Position, errors named")
struct ClockInputDecoderTests {
    /// Decodes `bytes`, the n-th at frame 1000 + n.
    static func decode(_ bytes: [UInt8], into decoder: inout ClockInputDecoder) -> [ClockInputDecoder.Output] {
        bytes.enumerated().compactMap { n, byte in decoder.decode(byte, atFrame: 1_000 + Int64(n)) }
    }

    static func decode(_ bytes: [UInt8]) -> [ClockInputDecoder.Output] {
        var decoder = ClockInputDecoder()
        return decode(bytes, into: &decoder)
    }

    @Test func realTimeMessagesAndSongPositionAreTheClock() {
        #expect(Self.decode([0xF2, 0x10, 0x00, 0xFB, 0xF8, 0xF8, 0xFC, 0xFA, 0xF8]) == [
            .event(.songPosition(midiBeats: 16)), .event(.continue), .event(.tick), .event(.tick),
            .event(.stop), .event(.start), .event(.tick),
        ])
    }

    /// Stray data bytes and undefined statuses between ticks: each an error naming
    /// the byte's index and frame; every tick around them still counts.
    @Test func garbageBetweenTicksIsReportedAndTicksKeepCounting() {
        var decoder = ClockInputDecoder()
        let out = Self.decode([0xF8, 0x12, 0xF8, 0xF4, 0x40, 0xF8, 0xF9, 0xF8, 0xFD, 0xF8], into: &decoder)
        #expect(out.filter { $0 == .event(.tick) }.count == 5)
        let errors = out.compactMap { if case .error(let e) = $0 { e } else { nil } }
        #expect(errors.map(\.problem) == [.strayData(0x12), .undefinedStatus(0xF4), .strayData(0x40), .undefinedStatus(0xF9), .undefinedStatus(0xFD)])
        #expect(errors.map(\.byteIndex) == [1, 3, 4, 6, 8])
        #expect(errors.map(\.frame) == [1_001, 1_003, 1_004, 1_006, 1_008])
        #expect(decoder.errors == 5)
        #expect(errors[0].description == "clock in: data byte 0x12 with no status at byte 1 (frame 1001), ignored")
    }

    /// Notes and controllers on the clock port are well formed: not errors, not clock.
    @Test func otherMessagesAreCountedNotReported() {
        var decoder = ClockInputDecoder()
        let out = Self.decode([0x90, 60, 100, 0xF8, 0xB0, 7, 100, 0xFE], into: &decoder)
        #expect(out == [.event(.tick)])
        #expect(decoder.otherMessages == 2)
        #expect(decoder.errors == 0)
    }

    /// Song Position cut by a status byte (a "data byte" with its high bit set is a
    /// status byte) after one data byte: reported, the position dropped.
    @Test func truncatedSongPositionIsReportedNotApplied() {
        let out = Self.decode([0xF2, 0x05, 0x90, 0xF8, 0xF2, 0x85, 0x01, 0xF8])
        let error = ClockInputError(problem: .truncated(status: 0xF2, received: 1, expected: 2, cutBy: 0x90), byteIndex: 2, frame: 1_002)
        #expect(out.first == .error(error))
        #expect(out.dropFirst().first == .event(.tick))
        #expect(out.contains(.error(ClockInputError(problem: .truncated(status: 0xF2, received: 0, expected: 2, cutBy: 0x85), byteIndex: 5, frame: 1_005))))
        #expect(!out.contains { if case .event(.songPosition) = $0 { true } else { false } })
        #expect(error.description == "clock in: Song Position Pointer (0xF2) cut short after 1 of 2 data bytes by status 0x90 at byte 2 (frame 1002), dropped")
    }

    /// A JACK MIDI event holds one whole message: one that ends early is cut short.
    @Test func songPositionEndingItsEventIsTruncated() {
        var decoder = ClockInputDecoder()
        #expect(Self.decode([0xF2, 0x05], into: &decoder).isEmpty)
        let error = decoder.endOfEvent(atFrame: 2_000)
        #expect(error == ClockInputError(problem: .truncated(status: 0xF2, received: 1, expected: 2, cutBy: nil), byteIndex: 2, frame: 2_000))
        #expect(error?.description.contains("by the end of the event") == true)
        // Complete events end cleanly, and the next event starts afresh.
        #expect(Self.decode([0xF8], into: &decoder) == [.event(.tick)])
        #expect(decoder.endOfEvent(atFrame: 2_001) == nil)
        #expect(Self.decode([0x00, 0x01], into: &decoder).count == 2)   // no running status carried over
    }

    /// MIDI 1.0 lets System Real-Time bytes fall between a message's data bytes:
    /// the ticks count at once and the Song Position completes around them.
    @Test func ticksInsideASongPositionCountAndItCompletes() {
        #expect(Self.decode([0xF2, 0xF8, 0x05, 0xF8, 0xFA, 0x01, 0xF8]) == [
            .event(.tick), .event(.tick), .event(.start), .event(.songPosition(midiBeats: 5 + 128)), .event(.tick),
        ])
    }

    /// Two 7-bit bytes reach 16383 and no further: the largest position decodes whole.
    @Test func songPositionReachesSixteenThousandThreeHundredEightyThree() {
        #expect(Self.decode([0xF2, 0x7F, 0x7F, 0xF2, 0x00, 0x00]) == [.event(.songPosition(midiBeats: 16_383)), .event(.songPosition(midiBeats: 0))])
        var follower = ClockFollower(sampleRate: 48_000)
        #expect(follower.receive(.songPosition(midiBeats: 16_383), atFrame: 0) == .located)
        #expect(follower.nextSongTick == 16_383 * 6)
    }

    /// Bytes to song: a stream of ticks with garbage, a truncated Song Position and
    /// ticks inside a Song Position, through the decoder into the follower. Every
    /// tick counts: after Start and 30 ticks the song is at its tick 29, and the
    /// three errors were reported where they were.
    @Test func theSongCountsEveryTickThroughGarbage() {
        var decoder = ClockInputDecoder()
        var follower = ClockFollower(sampleRate: 48_000)
        var bytes: [(UInt8, Int64)] = [(0xFA, 0)]
        for n in 0..<30 {
            let frame = 1_000 + Int64(n) * 1_000
            if n != 15 { bytes.append((0xF8, frame)) }   // the 16th tick falls inside a Song Position
            switch n {
            case 5: bytes.append((0x33, frame + 10))                                  // stray data
            case 9: bytes += [(0xF2, frame + 10), (0x01, frame + 10), (0xF6, frame + 11)]  // cut short
            case 14: bytes += [(0xF2, frame + 10), (0xF8, frame + 1_000), (0x02, frame + 1_001), (0x00, frame + 1_002)]
            default: break
            }
        }
        var errors: [ClockInputError] = []
        var songPositions: [UInt16] = []
        for (byte, frame) in bytes {
            switch decoder.decode(byte, atFrame: frame) {
            case .event(.songPosition(let beats))?: songPositions.append(beats)
            case .event(let event)?: _ = follower.receive(event, atFrame: frame)
            case .error(let error)?: errors.append(error)
            case nil: break
            }
        }
        let songTick = follower.newestSongTick
        #expect(songTick == 29)
        #expect(errors.map(\.frame) == [6_010, 10_011])
        #expect(errors.map(\.problem) == [.strayData(0x33), .truncated(status: 0xF2, received: 1, expected: 2, cutBy: 0xF6)])
        #expect(songPositions == [2])
        #expect(follower.state == .locked && abs(follower.tempo! - 120) < 0.01)
    }
}
