/// A MIDI message from a controller, on its way from an input (JACK `control`
/// port, ALSA `control` port) to the control thread through an `SPSCRing`.
///
/// Stamped by the producer on the monotonic clock (CLOCK_MONOTONIC, µs) so the
/// pressure controller's timeline starts at the Note On's real arrival, not at
/// the moment the control thread happened to look.
public struct ControlInputEvent: Sendable, Hashable, BitwiseCopyable {
    public var message: MIDIMessage
    public var microseconds: Int64

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public init(message: MIDIMessage, microseconds: Int64) {
        self.message = message
        self.microseconds = microseconds
    }
}
