/// `"sync"` in a preset (Presets/README.md "Top level"): the sync track
/// `--sync-out`, `--sync-width` and `--sync-reset` ask for (docs/DESIGN.md §14),
/// as one object: `{ "kind": "ppqn:4", "widthMs": 10, "reset": "bar" }`.
enum SyncSchema {
    static let keys = ["kind", "widthMs", "reset"]

    static var format: FieldFormat<SyncSettings> {
        let kinds = SyncKind.spellings.joined(separator: ", ")
        let width = FieldFormat<Double>.number(SyncSettings.widthRange, "milliseconds")
        let allowed = "an object with \"kind\" (one of \(kinds)), and optionally \"widthMs\" (\(width.allowed)) and \"reset\" (\"bar\" or \"off\", ppqn:N only)"
        return FieldFormat(allowed: allowed, read: { json throws(FieldProblem) in
            guard case .object(let members) = json else { throw .found(json) }
            var kind: SyncKind?
            var settings = SyncSettings(kind: .volca)
            for member in members {
                switch (member.key, member.value) {
                case ("kind", .string(let s)):
                    guard let k = SyncKind(parsing: s) else { throw FieldProblem("kind \(member.value.excerpt) is unknown") }
                    kind = k
                case ("widthMs", let value):
                    do throws(FieldProblem) {
                        settings.widthMilliseconds = try width.read(value)
                    } catch {
                        throw FieldProblem("widthMs: \(error.problem)")
                    }
                case ("reset", .string(let s)):
                    guard let r = SyncReset(rawValue: s) else { throw FieldProblem("reset \(member.value.excerpt) is unknown") }
                    settings.reset = r
                case ("kind", let value), ("reset", let value):
                    throw FieldProblem("\(member.key): found \(value.excerpt)")
                default:
                    throw FieldProblem("the key \"\(member.key)\" is unknown")
                }
            }
            guard let kind else { throw FieldProblem("\"kind\" is missing") }
            settings.kind = kind
            if settings.reset == .bar && !settings.isModular {
                throw FieldProblem("reset \"bar\" is for ppqn:N; \(kind.spelling) has no reset line")
            }
            return settings
        }, write: { settings in
            var members = [JSONMember("kind", .string(settings.kind.spelling))]
            if let ms = settings.widthMilliseconds { members.append(JSONMember("widthMs", .number(ms))) }
            if settings.reset != .off { members.append(JSONMember("reset", .string(settings.reset.rawValue))) }
            return .object(members)
        })
    }
}
