import Testing
@testable import TactusCLI

@Suite("Key decoder: terminal bytes in raw mode to key actions")
struct KeyDecoderTests {
    func decode(_ bytes: [UInt8]) -> [KeyAction] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes)
    }

    func decode(_ text: String) -> [KeyAction] { decode(Array(text.utf8)) }

    @Test func spaceStartsAndStops() {
        #expect(decode(" ") == [.startStop])
    }

    @Test func arrowsStepTheTempoByOneAndTen() {
        // CSI (normal cursor mode) and SS3 (application cursor mode), ECMA-48 / xterm.
        #expect(decode("\u{1B}[C\u{1B}[D\u{1B}[A\u{1B}[B") == [.tempoStep(1), .tempoStep(-1), .tempoStep(10), .tempoStep(-10)])
        #expect(decode("\u{1B}OC\u{1B}OD\u{1B}OA\u{1B}OB") == [.tempoStep(1), .tempoStep(-1), .tempoStep(10), .tempoStep(-10)])
    }

    @Test func arrowsWithModifiersCountAsArrows() {
        // Shift+↑ is ESC [ 1 ; 2 A.
        #expect(decode("\u{1B}[1;2A\u{1B}[1;5D") == [.tempoStep(10), .tempoStep(-1)])
    }

    @Test func letterKeysBracketsAndDigits() {
        #expect(decode("t[]mq") == [.tap, .previousPreset, .nextPreset, .toggleMute, .quit])
        #expect(decode("TMQ") == [.tap, .toggleMute, .quit])
        #expect(decode("1234567890") == (1...10).map { .beatsPerBar($0) })
    }

    @Test func ctrlCQuits() {
        #expect(decode([0x03]) == [.quit])
    }

    @Test func otherEscapeSequencesAreSkippedWhole() {
        // F5 (ESC [ 1 5 ~), Home (ESC [ H), F1 (ESC O P): none of their letters is a key.
        #expect(decode("\u{1B}[15~\u{1B}[H\u{1B}OPt") == [.tap])
        // An SGR mouse report: ESC [ < 0 ; 10 ; 5 M.
        #expect(decode("\u{1B}[<0;10;5Mq") == [.quit])
    }

    @Test func aSequenceSplitAcrossReadsIsStillOneKey() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isInsideSequence)
        #expect(decoder.decode(Array("[".utf8)) == [])
        #expect(decoder.decode(Array("C".utf8)) == [.tempoStep(1)])
        #expect(!decoder.isInsideSequence)
    }

    @Test func aLoneEscapeIsDroppedAndTheNextByteIsItself() {
        // Escape then t (or Alt+t): a tap.
        #expect(decode("\u{1B}t") == [.tap])
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        decoder.flush()
        #expect(decoder.decode(Array("C".utf8)) == [], "C alone is no key")
        #expect(decoder.decode(Array(" ".utf8)) == [.startStop])
    }

    @Test func unknownBytesAndUTF8AreIgnored() {
        #expect(decode("xyz\r\n\u{7F}é") == [])
    }
}
