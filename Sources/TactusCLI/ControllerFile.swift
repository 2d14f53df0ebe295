#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// `$XDG_CONFIG_HOME/tactus/controller.json`: the keyboard controller as
/// `tactus learn` found it. Format (version 1; every field required except
/// `hasAftertouch`, which defaults to true):
///
///     {
///       "version": 1,
///       "channel": 1,                 1 to 16, or "omni"
///       "upKey": 72, "downKey": 71, "presetKey": 70,    note numbers 0 to 127
///       "hasAftertouch": true,
///       "calibration": { "deadZone": 2, "maximum": 112, "curve": "linear" },
///       "actions": [                  optional: buttons and pedals
///         { "action": "tap", "cc": 64 },
///         { "action": "startStop", "note": 60 },
///         { "action": "countIn", "cc": 67, "invert": true }
///       ],
///       "transport": "master",        optional: as a preset's (`TransportSchema`)
///       "clockIn": "jack"             optional: as a preset's (`ClockInSchema`)
///     }
///
/// The actions are read by `ActionSchema` (a preset's `actions` are the same):
/// one of `ControlAction`'s on a `note` or a `cc` number, on the control
/// channel; here a note may not be one of the file's control keys.
///
/// `curve` is linear, exponential or logarithmic; `deadZone` 0 to 126 and below
/// `maximum`, 1 to 127. `transport` is the JACK transport mode of a run when
/// neither `--transport` nor the starting preset's `"transport"` gives one;
/// `clockIn` the clock a run follows when neither `--clock-in`,
/// `--alsa-clock-from` nor the starting preset's `"clockIn"` names one.
/// A wrong file gives one line naming the file and the field.
public enum ControllerFile {
    /// A controller file is a dozen lines; anything much larger is the wrong file.
    public static let maximumFileSize = 1 << 16

    /// Nil when the file does not exist (the player never ran `tactus learn`).
    public static func load(path: String) throws(OptionError) -> ControllerSettings? {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: maximumFileSize)
        } catch {
            if error.problem == .system(ENOENT) { return nil }
            throw OptionError("tactus: cannot read \(path): \(error.reason)")
        }
        return try decode(bytes, path: path)
    }

    public static func save(_ settings: ControllerSettings, path: String) throws(OptionError) {
        do {
            try FileSystem.replace(path, with: Array(encode(settings).utf8))
        } catch {
            throw OptionError("tactus: cannot write \(path): \(error.path == path ? error.reason : error.description)")
        }
    }

    public static func encode(_ s: ControllerSettings) -> String {
        let channel = s.channel.map { String($0.number) } ?? "\"omni\""
        return """
        {
          "version": \(ControllerSettings.version),
          "channel": \(channel),
          "upKey": \(s.upKey),
          "downKey": \(s.downKey),
          "presetKey": \(s.presetKey),
          "hasAftertouch": \(s.hasAftertouch),
          "calibration": {
            "deadZone": \(s.calibration.deadZone),
            "maximum": \(s.calibration.maximum),
            "curve": "\(s.calibration.curve.rawValue)"
          }\(encode(s.actions))\(s.transport.map { ",\n  \"transport\": \"\($0.rawValue)\"" } ?? "")\(s.clockIn.map { ",\n  \"clockIn\": \(JSONWriter.text(of: .string($0.spelling)))" } ?? "")
        }

        """
    }

    /// `,\n  "actions": [ … ]` (nothing when there are none, so an older Tactus reads the file).
    static func encode(_ actions: [ActionBinding]) -> String {
        guard !actions.isEmpty else { return "" }
        let lines = actions.map { binding -> String in
            let trigger = switch binding.trigger {
            case .note(let n): "\"note\": \(n)"
            case .controlChange(let c): "\"cc\": \(c)"
            }
            return "    { \"action\": \"\(binding.action.rawValue)\", \(trigger)\(binding.invert ? ", \"invert\": true" : "") }"
        }
        return ",\n  \"actions\": [\n" + lines.joined(separator: ",\n") + "\n  ]"
    }

    /// Checks the file field by field; a syntax error names its line and column
    /// (the strict reader of the presets: no comments, no trailing commas, no duplicate keys).
    public static func decode(_ bytes: [UInt8], path: String) throws(OptionError) -> ControllerSettings {
        let reader = FieldReader(path: path)
        let parsed: JSONValue
        do {
            parsed = try JSONReader.parse(bytes)
        } catch {
            throw OptionError("tactus: \(path) is not valid JSON: \(error.description)")
        }
        guard case .object(let members) = parsed else { throw reader.fail("", "must be a JSON object") }
        let root = JSONObject(members)
        try reader.onlyKnown(root, ["version", "channel", "upKey", "downKey", "presetKey", "hasAftertouch", "calibration", "actions", "transport", "clockIn"], in: "")
        _ = try reader.integer(root, "version", in: 1...ControllerSettings.version)
        let channel: MIDIChannel?
        switch root["channel"] {
        case .string("omni"):
            channel = nil
        case .number(let n) where n == n.rounded() && (1...16).contains(n):
            channel = MIDIChannel(number: Int(n))
        case nil:
            throw reader.fail("channel", "is missing: 1 to 16, or \"omni\"")
        case let other?:
            throw reader.fail("channel", "\(other.excerpt) is not a channel: 1 to 16, or \"omni\"")
        }
        let up = try reader.integer(root, "upKey", in: 0...127)
        let down = try reader.integer(root, "downKey", in: 0...127)
        let preset = try reader.integer(root, "presetKey", in: 0...127)
        guard Set([up, down, preset]).count == 3 else {
            throw reader.fail("presetKey", "upKey \(up), downKey \(down) and presetKey \(preset) must be three different notes")
        }
        var hasAftertouch = true
        switch root["hasAftertouch"] {
        case nil: break
        case .bool(let flag): hasAftertouch = flag
        case let other?: throw reader.fail("hasAftertouch", "\(other.excerpt) must be true or false")
        }
        guard case .object(let calibrationMembers) = root["calibration"] else {
            throw reader.fail("calibration", root["calibration"] == nil ? "is missing" : "must be an object")
        }
        let calibration = JSONObject(calibrationMembers)
        try reader.onlyKnown(calibration, ["deadZone", "maximum", "curve"], in: "calibration.")
        let deadZone = try reader.integer(calibration, "deadZone", in: 0...126, field: "calibration.deadZone")
        let maximum = try reader.integer(calibration, "maximum", in: 1...127, field: "calibration.maximum")
        guard deadZone < maximum else {
            throw reader.fail("calibration.deadZone", "\(deadZone) must be below the maximum \(maximum)")
        }
        let curves = PressureConfiguration.Curve.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let name) = calibration["curve"], let curve = PressureConfiguration.Curve(rawValue: name) else {
            throw reader.fail("calibration.curve", "\(calibration["curve"]?.excerpt ?? "is missing"): must be one of \(curves)")
        }
        let actions = try decodeActions(root["actions"], keys: [up, down, preset], reader: reader)
        var transport: JackTransportMode?
        if let value = root["transport"] {
            let read = TransportSchema.read(value, path: "transport")
            if let issue = read.issue { throw reader.fail(issue.path, issue.explanation) }
            transport = read.mode
        }
        var clockIn: ClockInChoice?
        if let value = root["clockIn"] {
            let read = ClockInSchema.read(value, path: "clockIn")
            if let issue = read.issue { throw reader.fail(issue.path, issue.explanation) }
            clockIn = read.choice
        }
        return ControllerSettings(channel: channel, upKey: UInt7(up)!, downKey: UInt7(down)!, presetKey: UInt7(preset)!,
                                  calibration: .init(deadZone: deadZone, maximum: maximum, curve: curve),
                                  hasAftertouch: hasAftertouch, actions: actions, transport: transport, clockIn: clockIn)
    }

    /// The shared reader of `actions` (`ActionSchema`, the presets' too); the first problem names its field.
    private static func decodeActions(_ value: JSONValue?, keys: [Int], reader: FieldReader) throws(OptionError) -> [ActionBinding] {
        guard let value else { return [] }
        let (bindings, issues) = ActionSchema.read(value, path: "actions")
        if let issue = issues.first ?? ActionSchema.controlKeyIssue(bindings, keys: keys.compactMap(UInt7.init), path: "actions") {
            throw reader.fail(issue.path, issue.problem)
        }
        return bindings
    }
}

/// The members of a JSON object by key (the reader has refused duplicate keys).
private struct JSONObject {
    let members: [JSONMember]

    init(_ members: [JSONMember]) { self.members = members }

    subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }
}

/// Reads typed fields out of a JSON object, failing with the file and field named.
private struct FieldReader {
    let path: String

    func fail(_ field: String, _ problem: String) -> OptionError {
        OptionError("tactus: \(path): " + (field.isEmpty ? problem : "field '\(field)' \(problem)"))
    }

    func onlyKnown(_ object: JSONObject, _ known: [String], in prefix: String) throws(OptionError) {
        for member in object.members where !known.contains(member.key) {
            throw fail(prefix + member.key, "is not known (known fields: \(known.joined(separator: ", ")))")
        }
    }

    func integer(_ object: JSONObject, _ key: String, in range: ClosedRange<Int>, field: String? = nil) throws(OptionError) -> Int {
        let name = field ?? key
        guard let value = object[key] else { throw fail(name, "is missing: \(range.lowerBound) to \(range.upperBound)") }
        guard case .number(let n) = value, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw fail(name, "\(value.excerpt) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(n)
    }
}
