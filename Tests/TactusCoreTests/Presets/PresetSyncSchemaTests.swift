import Testing
@testable import TactusCore

/// A preset's `sync` (Presets/README.md "Top level"), as `--sync-out`,
/// `--sync-width` and `--sync-reset`: read, checked, written back, and left
/// out when the preset does not say.
@Suite("Preset sync")
struct PresetSyncSchemaTests {
    @Test("each kind, a width and a reset are read and written back to an equal preset; left out, no sync")
    func readAndWritten() throws {
        for spelling in SyncKind.spellings {
            let p = try decode(#"{ "format": 1, "name": "S", "tempo": 120, "sync": { "kind": "\#(spelling)" } }"#)
            #expect(p.sync == SyncSettings(kind: SyncKind(parsing: spelling)!))
            #expect(try decode(p.encoded()) == p)
        }
        let modular = try decode(#"{ "format": 1, "name": "M", "tempo": 120, "sync": { "kind": "ppqn:4", "widthMs": 10, "reset": "bar" } }"#)
        #expect(modular.sync == SyncSettings(kind: .ppqn(4), widthMilliseconds: 10, reset: .bar))
        #expect(modular.encoded().contains(#""sync": {"#) && modular.encoded().contains(#""reset": "bar""#))
        #expect(try decode(modular.encoded()) == modular)
        let plain = try decode(#"{ "format": 1, "name": "P", "tempo": 120 }"#)
        #expect(plain.sync == nil && !plain.encoded().contains("sync"))
    }

    @Test("a bad sync object: one message naming the file, the field and what is allowed", arguments: [
        (#"{ "kind": "din96" }"#, #"kind "din96" is unknown"#),
        (#"{ "kind": "po", "widthMs": 0 }"#, "widthMs: 0 is out of range"),
        (#"{ "kind": "volca", "reset": "bar" }"#, #"reset "bar" is for ppqn:N; volca has no reset line"#),
        (#"{ "widthMs": 5 }"#, #""kind" is missing"#),
        (#"{ "kind": "po", "width": 5 }"#, #"the key "width" is unknown"#),
        (#""po""#, #"found "po""#),
    ])
    func badSyncIsRefused(json: String, problem: String) {
        let error = #expect(throws: PresetError.self) {
            try decode(#"{ "format": 1, "name": "B", "tempo": 120, "sync": \#(json) }"#, file: "Presets/b.json")
        }
        let message = error?.messages.first ?? ""
        #expect(message.hasPrefix("Presets/b.json: sync: \(problem); allowed: an object with \"kind\" (one of po, volca,"), "\(message)")
        #expect(error?.messages.count == 1)
    }
}
