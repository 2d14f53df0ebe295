import CJack

/// The libjack this process runs on, for `tactus --version` (a bug report needs it):
/// JACK2's and PipeWire's libjack answer differently to the same calls.
public enum JackLibraryVersion {
    /// `jack_get_version_string()` (jack.h): e.g. `1.9.21`; nil when the library does not export it
    /// (the header declares it weak: JACK_OPTIONAL_WEAK_EXPORT).
    public static var string: String? {
        guard let text = jack_get_version_string() else { return nil }
        return String(cString: text)
    }
}
