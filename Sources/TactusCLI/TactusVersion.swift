import TactusALSA
import TactusJACK

/// The version Tactus carries: `tactus --version` prints it and `scripts/package`
/// reads it from the line below to name the .deb, so the two cannot disagree.
public enum TactusVersion {
    public static let string = "0.2.0"

    /// `tactus --version`: this version, then the libjack and libasound the process runs on.
    public static var lines: [String] {
        ["tactus \(string)",
         "libjack \(JackLibraryVersion.string ?? "(it does not say its version)")",
         "libasound \(ALSALibraryVersion.string)"]
    }
}
