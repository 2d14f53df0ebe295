import CALSA

/// A failed ALSA sequencer call: which call, on what, and the error code alsa-lib
/// returned (a negative errno), spelled out by `snd_strerror`.
public struct SequencerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The alsa-lib function that failed, e.g. "snd_seq_open".
    public var operation: String
    /// What it was working on, e.g. "port 24:0"; empty when nothing more to say.
    public var subject: String
    /// The negative errno alsa-lib returned.
    public var code: Int32

    public init(_ operation: String, subject: String = "", code: Int32) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    public var description: String { "ALSA sequencer: \(reason)" }

    /// What failed and why, without the "ALSA sequencer:" prefix.
    public var reason: String {
        "\(operation)\(subject.isEmpty ? "" : " (\(subject))") failed: \(String(cString: snd_strerror(code))) (\(code))"
    }

    /// Throws when `result` is an alsa-lib error (negative); returns it otherwise.
    @discardableResult
    static func check(_ result: Int32, _ operation: String, subject: String = "") throws(SequencerError) -> Int32 {
        if result < 0 { throw SequencerError(operation, subject: subject, code: result) }
        return result
    }
}
