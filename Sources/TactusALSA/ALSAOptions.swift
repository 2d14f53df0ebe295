/// How Tactus appears on the ALSA sequencer and what it connects to; filled from
/// the command line (`--no-alsa`, `--alsa-clock-to`, `--alsa-control-from`,
/// `--alsa-clock-from`, `--alsa-lookahead`) or by tests.
public struct ALSAOptions: Sendable {
    /// The client's name in `aconnect -l` and every DAW's MIDI port list.
    public var clientName = "Tactus"
    /// Where the clock goes: `--alsa-clock-to CLIENT:PORT`, repeatable.
    public var clockDestinations: [PortSpecifier] = []
    /// Where control input comes from: `--alsa-control-from CLIENT:PORT`, repeatable.
    public var controlSources: [PortSpecifier] = []
    /// The leader whose MIDI beat clock Tactus follows: `--alsa-clock-from CLIENT:PORT`.
    /// With it the client has a `clock_in` port, subscribed from that port.
    public var clockInSource: PortSpecifier?
    /// How far ahead of its time an event is handed to the kernel, in µs. It must
    /// cover the clock thread's wake-up interval (1 ms) and its scheduling latency;
    /// it is also the ALSA clock's constant delay after the frame's time, so a run
    /// mode that wants the ALSA clock to line up with JACK's audio may pass JACK's
    /// playback latency here.
    public var lookAheadMicroseconds: Int64 = 5_000
    /// Preferred frequency of the queue's timer. 6250 Hz is the kernel's maximum
    /// (sound/core/seq/seq_timer.c, MAX_FREQUENCY): a 160 µs period.
    public var timerFrequencyHz = 6250
    /// Events the kernel may hold for us: scheduled clock events (output) and
    /// controller input not yet read (input). 2000 is the kernel's maximum.
    public var outputPoolSize = 1000
    public var inputPoolSize = 2000
    /// How often the queue clock is measured again against CLOCK_MONOTONIC.
    public var calibrationIntervalMicroseconds: Int64 = 500_000

    public init(clockDestinations: [PortSpecifier] = [], controlSources: [PortSpecifier] = []) {
        self.clockDestinations = clockDestinations
        self.controlSources = controlSources
    }
}
