import Testing
@testable import TactusCore

/// A preset's `transport` (Presets/README.md "Top level"), as `--transport`:
/// read, checked, written back, and left out when the preset does not say.
@Suite("Preset transport")
struct PresetTransportSchemaTests {
    @Test("every mode is read and written back to an equal preset; left out, the preset says nothing")
    func readAndWritten() throws {
        for mode in JackTransportMode.allCases {
            let p = try decode(#"{ "format": 1, "name": "T", "tempo": 120, "transport": "\#(mode.rawValue)" }"#)
            #expect(p.transport == mode)
            #expect(p.encoded().contains("\"transport\": \"\(mode.rawValue)\"\n"))
            #expect(try decode(p.encoded()) == p)
        }
        let plain = try decode(#"{ "format": 1, "name": "P", "tempo": 120 }"#)
        #expect(plain.transport == nil)
        #expect(!plain.encoded().contains("transport"))
    }

    @Test("\"transport\": \"dj\" is refused with one message naming the field and the five modes")
    func unknownModeNamesTheFieldAndTheModes() {
        let error = #expect(throws: PresetError.self) {
            try decode(#"{ "format": 1, "name": "DJ", "tempo": 120, "transport": "dj" }"#, file: "Presets/dj.json")
        }
        #expect(error?.messages == ["Presets/dj.json: transport: \"dj\" is unknown; allowed: one of off, join, master, master-force, follow"])
    }
}
