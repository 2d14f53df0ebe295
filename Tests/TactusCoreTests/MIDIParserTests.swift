import Testing
@testable import TactusCore

@Suite("MIDI byte parser")
struct MIDIParserTests {
    func parse(_ bytes: [UInt8]) -> [MIDIMessage] {
        var p = MIDIParser()
        return bytes.compactMap { p.parse($0) }
    }

    let ch1 = MIDIChannel(number: 1)!
    let ch2 = MIDIChannel(number: 2)!

    @Test func runningStatusRepeatsTheLastChannelStatus() {
        #expect(parse([0x90, 60, 100, 62, 90, 64, 0]) == [
            .noteOn(channel: ch1, note: UInt7(60)!, velocity: UInt7(100)!),
            .noteOn(channel: ch1, note: UInt7(62)!, velocity: UInt7(90)!),
            .noteOn(channel: ch1, note: UInt7(64)!, velocity: .zero),
        ])
        #expect(parse([0xD1, 10, 20, 127]) == [10, 20, 127].map { .channelPressure(channel: ch2, pressure: UInt7($0)!) })
    }

    @Test func realTimeBytesInsideAMessageDoNotBreakIt() {
        #expect(parse([0x90, 0xF8, 60, 0xFA, 100, 0xF8]) == [
            .timingClock, .start, .noteOn(channel: ch1, note: UInt7(60)!, velocity: UInt7(100)!), .timingClock,
        ])
    }

    @Test func sysExIsSkippedAndCancelsRunningStatus() {
        #expect(parse([0x90, 60, 1, 0xF0, 1, 2, 3, 0xF7, 61, 2, 0xD0, 5]) == [
            .noteOn(channel: ch1, note: UInt7(60)!, velocity: UInt7(1)!),
            .channelPressure(channel: ch1, pressure: UInt7(5)!),
        ])
    }

    @Test func aStatusByteAbandonsAnIncompleteMessage() {
        #expect(parse([0x90, 60, 0xB0, 7, 100]) == [.controlChange(channel: ch1, controller: UInt7(7)!, value: UInt7(100)!)])
    }

    @Test func strayDataAndUndefinedStatusesAreIgnored() {
        var p = MIDIParser()
        for b: UInt8 in [1, 2, 3, 0xF4, 4, 0xF9, 0xFD, 0xFE] { #expect(p.parse(b) == nil) }
        #expect(p.ignoredBytes == 8)
    }

    /// Quarter Frame and Song Select take one data byte, Song Position two; once
    /// complete, a System Common message leaves no running status behind, so the
    /// data bytes after it belong to nothing.
    @Test func systemCommonMessagesTakeTheirDataAndCancelRunningStatus() {
        var p = MIDIParser()
        let bytes: [UInt8] = [0x90, 60, 1, 0xF1, 0x23, 0xF3, 5, 0xF2, 0x00, 0x01, 61, 2]
        #expect(bytes.compactMap { p.parse($0) } == [.noteOn(channel: ch1, note: UInt7(60)!, velocity: UInt7(1)!), .songPosition(128)])
        #expect(p.ignoredBytes == 2)
    }

    @Test func songPositionAndPitchBendCombineFourteenBits() {
        #expect(parse([0xF2, 0x7F, 0x7F, 0xE0, 0x00, 0x40]) == [.songPosition(16383), .pitchBend(channel: ch1, value: 8192)])
    }

    @Test func encodingThenParsingGivesTheSameMessage() {
        let messages: [MIDIMessage] = [
            .noteOff(channel: ch2, note: UInt7(72)!, velocity: UInt7(64)!), .polyPressure(channel: ch1, note: UInt7(72)!, pressure: UInt7(99)!),
            .programChange(channel: ch2, program: UInt7(5)!), .songPosition(300), .stop, .continue,
        ]
        for m in messages {
            let b = m.bytes
            #expect(parse((0..<Int(b.count)).map { b[$0] }) == [m])
        }
    }

    /// Each byte's cost is said in `lastProblem` (docs/DESIGN.md §9.1), while `parse`
    /// goes on as before: stray data, an undefined status, a message cut short.
    @Test func lastProblemNamesWhatEachBadByteBroke() {
        var p = MIDIParser()
        func problems(_ bytes: [UInt8]) -> [MIDIStreamProblem?] { bytes.map { _ = p.parse($0); return p.lastProblem } }
        #expect(problems([0x05, 0xF8, 0xF5, 0xF7]) == [.strayData(0x05), nil, .undefinedStatus(0xF5), .undefinedStatus(0xF7)])
        #expect(problems([0x90, 60, 0xD0]) == [nil, nil, .truncated(status: 0x90, received: 1, expected: 2, cutBy: 0xD0)])
        // A complete message under running status leaves nothing owed: no truncation.
        #expect(problems([5, 0xC0, 7, 8, 0xF0, 1, 2, 0xF7]) == [nil, nil, nil, nil, nil, nil, nil, nil])
        #expect(problems([0xF3, 0xF2]) == [nil, .truncated(status: 0xF3, received: 0, expected: 1, cutBy: 0xF2)])
    }

    /// A JACK MIDI event holds one whole message: one missing data bytes at its end
    /// is truncated, and nothing carries into the next event.
    @Test func endOfEventReportsAMessageMissingItsData() {
        var p = MIDIParser()
        _ = p.parse(0xE0)
        _ = p.parse(0x00)
        #expect(p.endOfEvent() == .truncated(status: 0xE0, received: 1, expected: 2, cutBy: nil))
        #expect(p.parse(0x40) == nil && p.lastProblem == .strayData(0x40))
        _ = p.parse(0xD0)
        #expect(p.parse(0x10) == .channelPressure(channel: ch1, pressure: UInt7(16)!))
        #expect(p.endOfEvent() == nil)
    }
}
