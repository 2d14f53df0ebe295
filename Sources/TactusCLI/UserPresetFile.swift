import TactusCore

/// A preset saved from the live display (`w`): a file of the user's presets
/// folder, `~/.config/tactus/presets` (`$XDG_CONFIG_HOME`), named after the preset.
public enum UserPresetFile {
    /// The file for `name`: lower case letters and digits, other runs as one `-` ("Swing 2/4" → `swing-2-4.json`).
    public static func path(for name: String, environment: [String: String]) -> String {
        var stem = ""
        for c in name.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber) { stem.append(c) } else if !stem.isEmpty && !stem.hasSuffix("-") { stem.append("-") }
        }
        while stem.hasSuffix("-") { stem.removeLast() }
        return UserFiles.configHome(environment) + "/tactus/presets/" + (stem.isEmpty ? "preset" : stem) + ".json"
    }

    /// Writes `preset` (atomically, the folder created); what to say on the message line.
    public static func save(_ preset: Preset, environment: [String: String]) -> String {
        let file = path(for: preset.name, environment: environment)
        do {
            try FileSystem.replace(file, with: Array(preset.encoded().utf8))
            return "saved preset '\(preset.name)' to \(file)"
        } catch {
            return "preset not saved: \(file): \(error.path == file ? error.reason : error.description)"
        }
    }
}
