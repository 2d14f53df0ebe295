/// The `actions` array of `controller.json` and of a preset (README "Controller",
/// docs/DESIGN.md §12.4): one reader for both, so a button is written the same
/// way in either file.
///
///     "actions": [
///       { "action": "tap", "cc": 64 },
///       { "action": "startStop", "note": 60 },
///       { "action": "countIn", "cc": 67, "invert": true }
///     ]
///
/// An action is one of `ControlAction`'s, on a `note` or a `cc` (Control
/// Change) number 0 to 127; `invert` (a Control Change only) for a pedal
/// pressed at low values; a note or controller carries one action.
public enum ActionSchema {
    public static let allowed = "an array of { \"action\": …, \"note\" or \"cc\": … }"
    static let keys = ["action", "note", "cc", "invert"]

    /// The bindings `json` gives and every problem found, each with its path
    /// under `path` (`actions[1].cc`). An item with a problem is left out.
    public static func read(_ json: JSONValue, path: String) -> (bindings: [ActionBinding], issues: [PresetIssue]) {
        guard case .array(let items) = json else { return ([], [PresetIssue(path: path, problem: "must be " + allowed)]) }
        var bindings: [ActionBinding] = []
        var issues: [PresetIssue] = []
        for (index, item) in items.enumerated() {
            let at = "\(path)[\(index)]"
            guard let binding = binding(item, at: at, issues: &issues) else { continue }
            if let earlier = bindings.first(where: { $0.trigger == binding.trigger }) {
                issues.append(PresetIssue(path: at, problem: "\(binding.trigger) already does \(earlier.action.rawValue): one action a button"))
                continue
            }
            bindings.append(binding)
        }
        return (bindings, issues)
    }

    /// The first binding on one of the control keys (the up, down and preset
    /// keys' notes are the pressure controller's), as a problem of its `note`;
    /// `bindings` as `read` gave them without issues, so in the array's order.
    public static func controlKeyIssue(_ bindings: [ActionBinding], keys: [UInt7], path: String) -> PresetIssue? {
        for (index, binding) in bindings.enumerated() {
            guard case .note(let note) = binding.trigger, keys.contains(note) else { continue }
            return PresetIssue(path: "\(path)[\(index)].note", problem: "\(note) is a control key (upKey, downKey, presetKey): choose another note")
        }
        return nil
    }

    /// The array `read` reads back to `bindings`.
    public static func json(_ bindings: [ActionBinding]) -> JSONValue {
        .array(bindings.map { binding in
            var members = [JSONMember("action", .string(binding.action.rawValue))]
            switch binding.trigger {
            case .note(let note): members.append(JSONMember("note", .number(Double(note.value))))
            case .controlChange(let controller): members.append(JSONMember("cc", .number(Double(controller.value))))
            }
            if binding.invert { members.append(JSONMember("invert", .bool(true))) }
            return .object(members)
        })
    }

    private static func binding(_ item: JSONValue, at path: String, issues: inout [PresetIssue]) -> ActionBinding? {
        guard case .object(let members) = item else {
            issues.append(PresetIssue(path: path, problem: "must be an object"))
            return nil
        }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func fail(_ field: String, _ problem: String) -> ActionBinding? {
            issues.append(PresetIssue(path: field.isEmpty ? path : "\(path).\(field)", problem: problem))
            return nil
        }
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            return fail(unknown.key, "is not known (known fields: \(keys.joined(separator: ", ")))")
        }
        guard case .string(let name) = value("action"), let action = ControlAction(rawValue: name) else {
            let names = ControlAction.allCases.map(\.rawValue).joined(separator: ", ")
            return fail("action", "\(value("action")?.excerpt ?? "is missing"): must be one of \(names)")
        }
        let trigger: ActionBinding.Trigger
        switch (value("note"), value("cc")) {
        case (let note?, nil):
            guard let number = midiValue(note) else { return fail("note", "\(note.excerpt) is not a whole number from 0 to 127") }
            trigger = .note(number)
        case (nil, let controller?):
            guard let number = midiValue(controller) else { return fail("cc", "\(controller.excerpt) is not a whole number from 0 to 127") }
            trigger = .controlChange(number)
        default:
            return fail("", "needs a \"note\" or a \"cc\" number, 0 to 127 (one of them)")
        }
        var invert = false
        switch value("invert") {
        case nil: break
        case .bool(let flag):
            guard case .controlChange = trigger else { return fail("invert", "is for a pedal's \"cc\", not a note") }
            invert = flag
        case let other?: return fail("invert", "\(other.excerpt) must be true or false")
        }
        return ActionBinding(trigger, action, invert: invert)
    }

    private static func midiValue(_ json: JSONValue) -> UInt7? {
        guard case .number(let n) = json, n == n.rounded(), (0...127).contains(n) else { return nil }
        return UInt7(Int(n))
    }
}

extension PresetField {
    /// A key holding an `actions` array (`ActionSchema`); left out of the file when nil.
    /// An array with a problem leaves the value nil, as a field in error keeps its default.
    static func actions(_ key: String, _ keyPath: WritableKeyPath<Root, [ActionBinding]?>) -> PresetField {
        PresetField(key: key, required: false, allowed: ActionSchema.allowed,
                    read: { json, root, path, issues in
                        let (bindings, found) = ActionSchema.read(json, path: path)
                        issues += found
                        if found.isEmpty { root[keyPath: keyPath] = bindings }
                    },
                    write: { $0[keyPath: keyPath].map(ActionSchema.json) })
    }
}
