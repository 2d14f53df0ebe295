import Glibc
import Testing

/// Whether the tests that need a real ALSA sequencer can run here.
///
/// Outside CI a machine without `/dev/snd/seq` skips them with a message (run
/// `scripts/test-alsa`, which boots a VM that has one). Under `CI=true` they are
/// never skipped: the suite's `init` fails them, since CI must prove the ALSA paths.
enum SequencerRequirement {
    static let devicePath = "/dev/snd/seq"
    static var isAvailable: Bool { access(devicePath, R_OK | W_OK) == 0 }

    static var isCI: Bool {
        guard let value = getenv("CI").map({ String(cString: $0) }) else { return false }
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// Run the suite (and let `requireSequencer` fail it) when there is a sequencer or under CI.
    static var shouldRun: Bool { isAvailable || isCI }

    static let skipReason: Comment = "no ALSA sequencer here (/dev/snd/seq missing): scripts/test-alsa runs these tests inside a VM that has one"

    static func requireSequencer() throws {
        try #require(isAvailable, "CI=true but \(devicePath) is missing: the ALSA tests must run on a real sequencer (scripts/test-alsa runs them in a VM)")
    }
}
