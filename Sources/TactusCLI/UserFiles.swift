/// Where Tactus keeps the player's files, after the XDG Base Directory
/// specification: settings under `$XDG_CONFIG_HOME` (default `~/.config`),
/// state that changes by itself under `$XDG_STATE_HOME` (default `~/.local/state`).
/// A relative value is ignored, as the specification asks.
public enum UserFiles {
    public static func configHome(_ environment: [String: String]) -> String {
        base(environment["XDG_CONFIG_HOME"], home: environment["HOME"], fallback: ".config")
    }

    public static func stateHome(_ environment: [String: String]) -> String {
        base(environment["XDG_STATE_HOME"], home: environment["HOME"], fallback: ".local/state")
    }

    /// `tactus learn` writes the controller's mapping and calibration here.
    public static func controllerFile(_ environment: [String: String]) -> String {
        configHome(environment) + "/tactus/controller.json"
    }

    /// The tempo the last pressure hold reached, restored at the next start.
    public static func lastTempoFile(_ environment: [String: String]) -> String {
        stateHome(environment) + "/tactus/last-tempo"
    }

    private static func base(_ value: String?, home: String?, fallback: String) -> String {
        if let value, value.hasPrefix("/") { return value }
        return (home ?? "") + "/" + fallback
    }
}
