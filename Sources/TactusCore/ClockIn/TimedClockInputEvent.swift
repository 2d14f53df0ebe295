/// One message of an incoming MIDI beat clock that reached Tactus outside a JACK
/// MIDI buffer (the ALSA sequencer's `clock_in` port, `--alsa-clock-from`), with
/// the CLOCK_MONOTONIC µs it arrived at (the kernel's arrival stamp, docs/DESIGN.md
/// §2.4): what the input thread hands the JACK cycle through an SPSC ring, which
/// turns the time into the frame the follower takes it at (§9.1).
public struct TimedClockInputEvent: Hashable, Sendable, BitwiseCopyable {
    public var event: ClockInputEvent
    public var microseconds: Int64

    public init(_ event: ClockInputEvent, microseconds: Int64) {
        self.event = event
        self.microseconds = microseconds
    }
}
