import Testing
@testable import TactusCore

/// A preset's `clockIn` (Presets/README.md "Top level"), as `--clock-in` or
/// `--alsa-clock-from`: read, checked, written back, and left out when the
/// preset does not say.
@Suite("Preset clock in")
struct PresetClockInSchemaTests {
    @Test("off, jack and an ALSA port by name or number are read and written back to an equal preset; left out, the preset says nothing")
    func readAndWritten() throws {
        let cases: [(String, ClockInChoice)] = [
            ("off", .off), ("jack", .jack), ("alsa:20:0", .alsa("20:0")),
            ("alsa:Interface [20]:1", .alsa("Interface [20]:1")), ("alsa:TR-8S:0", .alsa("TR-8S:0")),
        ]
        for (spelling, choice) in cases {
            let p = try decode(#"{ "format": 1, "name": "C", "tempo": 120, "clockIn": "\#(spelling)" }"#)
            #expect(p.clockIn == choice)
            #expect(p.encoded().contains("\"clockIn\": \"\(spelling)\"\n"), "\(p.encoded())")
            #expect(try decode(p.encoded()) == p)
        }
        let plain = try decode(#"{ "format": 1, "name": "P", "tempo": 120 }"#)
        #expect(plain.clockIn == nil)
        #expect(!plain.encoded().contains("clockIn"))
    }

    @Test("a clock input that is none of the three, or no string, is refused with one message naming the field and what is allowed")
    func unknownInputNamesTheFieldAndTheThreeForms() {
        let allowed = "\"off\", \"jack\" (the clock_in JACK input, as --clock-in) or \"alsa:CLIENT:PORT\" (an ALSA sequencer port, as --alsa-clock-from)"
        for (value, problem) in [(#""midi""#, #""midi" is unknown"#), (#""alsa:""#, #""alsa:" is unknown"#),
                                 (#""JACK""#, #""JACK" is unknown"#), ("true", "found true")] {
            let error = #expect(throws: PresetError.self) {
                try decode(#"{ "format": 1, "name": "C", "tempo": 120, "clockIn": \#(value) }"#, file: "Presets/drums.json")
            }
            #expect(error?.messages == ["Presets/drums.json: clockIn: \(problem); allowed: \(allowed)"])
        }
    }
}
