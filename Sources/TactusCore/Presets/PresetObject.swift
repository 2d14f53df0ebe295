/// Reads a JSON object into a Swift value key by key, and writes it back, from
/// one table of fields. Every problem is collected with its exact path: an
/// unknown key, a missing required key, a value of the wrong type or out of range.
///
/// The tables (`PresetSchema`, `PressureSchema`) are the single place where a
/// key is tied to a property, so adding a setting is one line.
struct PresetObject<Root> {
    var fields: [PresetField<Root>]
    /// Rules across fields (a release threshold below its threshold), checked once every field read cleanly.
    var rules: [PresetRule<Root>] = []

    var keys: [String] { fields.map(\.key) }

    func read(_ json: JSONValue, into root: inout Root, path: String, issues: inout [PresetIssue]) {
        guard case .object(let members) = json else {
            issues.append(PresetIssue(path: path, problem: "found \(json.excerpt)", allowed: "an object with the keys \(keyList)"))
            return
        }
        let before = issues.count
        for member in members {
            let memberPath = PresetObject.join(path, member.key)
            guard let field = fields.first(where: { $0.key == member.key }) else {
                let hint = nearestKey(to: member.key).map { " (did you mean \($0)?)" } ?? ""
                issues.append(PresetIssue(path: memberPath, problem: "unknown key" + hint, allowed: keyList))
                continue
            }
            field.read(member.value, &root, memberPath, &issues)
        }
        for field in fields where field.required && !members.contains(where: { $0.key == field.key }) {
            issues.append(PresetIssue(path: PresetObject.join(path, field.key), problem: "missing (required)", allowed: field.allowed))
        }
        guard issues.count == before else { return }
        for rule in rules {
            if let problem = rule.check(root) {
                issues.append(PresetIssue(path: PresetObject.join(path, rule.key), problem: problem.problem, allowed: problem.allowed))
            }
        }
    }

    func write(_ root: Root) -> JSONValue {
        .object(fields.compactMap { field in field.write(root).map { JSONMember(field.key, $0) } })
    }

    private var keyList: String {
        let names = keys
        guard names.count > 1 else { return names.first ?? "no keys" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The known key a typo most likely meant: at most two letters added, dropped or changed, case aside.
    func nearestKey(to key: String) -> String? { Spelling.nearest(to: key, among: keys) }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}

/// One key of an object: how to read it into the root value and write it back.
struct PresetField<Root> {
    let key: String
    let required: Bool
    /// What the key accepts, for "missing" messages.
    let allowed: String
    let read: (JSONValue, inout Root, _ path: String, inout [PresetIssue]) -> Void
    /// Nil leaves the key out of the file (an unset optional).
    let write: (Root) -> JSONValue?

    /// A key holding one value of `format`, stored at `keyPath`.
    static func value<T>(_ key: String, _ keyPath: WritableKeyPath<Root, T>, _ format: FieldFormat<T>, required: Bool = false) -> PresetField {
        PresetField(key: key, required: required, allowed: format.allowed,
                    read: { json, root, path, issues in
                        do throws(FieldProblem) {
                            root[keyPath: keyPath] = try format.read(json)
                        } catch {
                            issues.append(PresetIssue(path: path, problem: error.problem, allowed: format.allowed))
                        }
                    },
                    write: { format.write($0[keyPath: keyPath]) })
    }

    /// A key holding an object, read by `object` into the value at `keyPath` (use `\.self` to group keys of the same value).
    static func object<Nested>(_ key: String, _ keyPath: WritableKeyPath<Root, Nested>, _ object: PresetObject<Nested>) -> PresetField {
        PresetField(key: key, required: false, allowed: "an object with the keys \(object.keys.joined(separator: ", "))",
                    read: { json, root, path, issues in object.read(json, into: &root[keyPath: keyPath], path: path, issues: &issues) },
                    write: { object.write($0[keyPath: keyPath]) })
    }

    /// A key checked by hand and written as a constant (`format`).
    static func constant(_ key: String, _ format: FieldFormat<Void>, required: Bool = false) -> PresetField {
        PresetField(key: key, required: required, allowed: format.allowed,
                    read: { json, _, path, issues in
                        do throws(FieldProblem) { try format.read(json) } catch { issues.append(PresetIssue(path: path, problem: error.problem, allowed: format.allowed)) }
                    },
                    write: { _ in format.write(()) })
    }
}

/// A rule across the fields of one object; `check` returns the problem, if any, of the field `key`.
struct PresetRule<Root> {
    let key: String
    let check: (Root) -> (problem: String, allowed: String)?
}
