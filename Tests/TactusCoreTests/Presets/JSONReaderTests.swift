import Testing
@testable import TactusCore

@Suite("JSON reader")
struct JSONReaderTests {
    func parse(_ text: String) throws(JSONReader.SyntaxError) -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    @Test func objectKeysKeepTheirFileOrder() throws {
        #expect(try parse(#"{"b": 1, "a": [true, null, "x"], "c": {}}"#) == .object([
            JSONMember("b", .number(1)), JSONMember("a", .array([.bool(true), .null, .string("x")])), JSONMember("c", .object([])),
        ]))
    }

    @Test func numbersFollowTheRFCGrammar() throws {
        #expect(try parse("-0.5e2") == .number(-50))
        #expect(try parse("97.33") == .number(97.33))
        for bad in ["01", "1.", ".5", "-", "1e", "+1", "1e999"] {
            #expect(throws: JSONReader.SyntaxError.self, "\(bad)") { try parse(bad) }
        }
    }

    @Test func escapesIncludingSurrogatePairsAreDecoded() throws {
        #expect(try parse(#""a\"b\\c\/\n\t\u00e9\ud83c\udfb5""#) == .string("a\"b\\c/\n\té🎵"))
        #expect(throws: JSONReader.SyntaxError.self) { try parse(#""\ud83c""#) }
    }

    @Test func anErrorGivesLineAndColumnCountingCharacters() {
        let error = #expect(throws: JSONReader.SyntaxError.self) { try parse("{\n  \"é\": 1,\n  \"b\" 2\n}") }
        #expect(error == JSONReader.SyntaxError(line: 3, column: 7, message: "unexpected '2' where a colon after the key \"b\" was expected"))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try JSONReader.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([]))
    }

    @Test func theWriterRoundTripsStringsAndNumbers() throws {
        let value = JSONValue.object([JSONMember("s", .string("tab\t \"q\" \u{1}")), JSONMember("n", .number(0.665)), JSONMember("i", .number(-12))])
        #expect(try JSONReader.parse(Array(JSONWriter.text(of: value).utf8)) == value)
        #expect(JSONWriter.text(of: value) == "{\n  \"s\": \"tab\\t \\\"q\\\" \\u0001\",\n  \"n\": 0.665,\n  \"i\": -12\n}")
    }
}
