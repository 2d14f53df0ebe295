/// What a remote control (an OSC client: a tablet, a script) asks of Tactus,
/// checked and typed on the OSC server's thread (`RemoteCommandParser`) and
/// carried out on the control thread, with the keys' rules (docs/DESIGN.md §12).
public enum RemoteCommand: Sendable, Hashable, BitwiseCopyable {
    case start
    case stop
    case `continue`
    /// To the start of a bar (from 1).
    case locate(bar: Int32)
    case tempo(BPM)
    /// The tempo moved by this many hundredths of a BPM (clamped to 1–999).
    case nudge(hundredths: Int32)
    /// Tap tempo, at the time the message arrived.
    case tap
    case meter(Meter)
    case accents(AccentPattern)
    case subdivision(Subdivision)
    /// The master gain in dB, −60 to +12 (`--gain`'s range).
    case gain(decibels: Double)
    case mute(Bool)
    /// A preset of the library by name: never a path, so a sender cannot make Tactus read a file.
    case presetNamed(RemoteText)
    /// A preset by number, as Program Change selects it (docs/DESIGN.md §6).
    case presetProgram(UInt7)
    case nextPreset
    case previousPreset
    /// A practice tool from the next Start (count-in, trainer) or bar (gap); nil: off.
    case practice(PracticeChange)
    /// The whole state, to `replyTo` (nil: to the sender).
    case query(replyTo: RemotePeer?)
    /// Change notifications to this address, at most 30 a second.
    case register(RemotePeer)
    case unregister(RemotePeer)
    /// Answered `/tactus/pong` by the server itself.
    case ping
}

/// A command with who sent it and when it arrived (CLOCK_MONOTONIC, µs), as the
/// OSC server hands it to the control thread.
public struct RemoteRequest: Sendable, Hashable, BitwiseCopyable {
    public var command: RemoteCommand
    public var sender: RemotePeer
    public var microseconds: Int64

    public init(command: RemoteCommand, sender: RemotePeer, microseconds: Int64) {
        self.command = command
        self.sender = sender
        self.microseconds = microseconds
    }
}
