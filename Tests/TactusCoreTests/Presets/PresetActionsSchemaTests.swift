import Testing
@testable import TactusCore

/// A preset's `actions` (Presets/README.md "Top level"): the buttons and pedals
/// of `controller.json`, read by the same `ActionSchema`, every mistake named by its field.
@Suite("Preset actions")
struct PresetActionsSchemaTests {
    @Test("actions are read in order and written back to an equal preset; left out, the preset has none of its own")
    func readAndWritten() throws {
        let p = try decode(#"{ "format": 1, "name": "Gig", "tempo": 120, "actions": [{ "action": "startStop", "cc": 65 }, { "action": "tap", "note": 36 }, { "action": "nextPreset", "cc": 66, "invert": true }] }"#)
        #expect(p.actions == [ActionBinding(.controlChange(UInt7(65)!), .startStop), ActionBinding(.note(UInt7(36)!), .tap),
                              ActionBinding(.controlChange(UInt7(66)!), .nextPreset, invert: true)])
        let text = p.encoded()
        #expect(text.contains(#""action": "startStop""#) && text.contains(#""cc": 65"#) && text.contains(#""invert": true"#))
        #expect(try decode(text) == p)
        let plain = try decode(#"{ "format": 1, "name": "P", "tempo": 120 }"#)
        #expect(plain.actions == nil)
        #expect(!plain.encoded().contains("actions"))
        // An empty list is a preset whose buttons do nothing, not one that keeps the controller's.
        #expect(try decode(#"{ "format": 1, "name": "E", "tempo": 120, "actions": [] }"#).actions == [])
    }

    @Test("every mistake in the actions is named by its field, all at once")
    func mistakesNamedByField() {
        let names = "tap, startStop, start, stop, nextPreset, previousPreset, mute, tempoUp, tempoDown, countIn"
        #expect(throws: PresetError(file: "test.json", issues: [
            PresetIssue(path: "actions[0].action", problem: "\"jump\": must be one of \(names)"),
            PresetIssue(path: "actions[1].cc", problem: "200 is not a whole number from 0 to 127"),
            PresetIssue(path: "actions[3]", problem: "CC 65 already does startStop: one action a button"),
            PresetIssue(path: "actions[4].invert", problem: "is for a pedal's \"cc\", not a note"),
        ])) {
            try decode(#"{ "format": 1, "name": "Bad", "tempo": 120, "actions": [{ "action": "jump", "cc": 64 }, { "action": "tap", "cc": 200 }, "#
                       + #"{ "action": "startStop", "cc": 65 }, { "action": "stop", "cc": 65 }, { "action": "tap", "note": 40, "invert": true }] }"#)
        }
        #expect(throws: PresetError(file: "test.json", issues: [PresetIssue(path: "actions", problem: "must be an array of { \"action\": …, \"note\" or \"cc\": … }")])) {
            try decode(#"{ "format": 1, "name": "Bad", "tempo": 120, "actions": { "tap": 64 } }"#)
        }
    }

    @Test("a note bound to an action may not be one of the preset's control keys")
    func controlKeysAreRefused() {
        #expect(throws: PresetError(file: "test.json", issues: [
            PresetIssue(path: "actions[1].note", problem: "60 is a control key (upKey, downKey, presetKey): choose another note"),
        ])) {
            try decode(#"{ "format": 1, "name": "K", "tempo": 120, "pressure": { "upKey": 60 }, "actions": [{ "action": "tap", "note": 72 }, { "action": "stop", "note": 60 }] }"#)
        }
    }
}
