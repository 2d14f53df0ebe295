import TactusCore

/// A remote command (OSC, docs/DESIGN.md §12) on the control thread: the wish it
/// makes is carried out as the keys' would be (`carryOut`), said with where it
/// came from (`tempo 96 BPM (OSC 127.0.0.1)`).
extension ControlSession {
    /// Carries out `command`, sent from `source` at `microseconds` (CLOCK_MONOTONIC:
    /// tap tempo measures the arrivals, not this thread's rounds). Returns why it
    /// was refused (the state is unchanged then), or nil.
    public func perform(_ command: RemoteCommand, at microseconds: Int64, from source: String) -> RemoteCommandError? {
        // `query`, `register`, `unregister`, `ping`: the remote control's own business (`RemoteControl`).
        guard let intent = command.intent else { return nil }
        return carryOut(intent, from: .remote(source), at: microseconds).map(RemoteCommandError.init)
    }
}
