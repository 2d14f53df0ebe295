/// How late an event may still go out: a quarter second. Later than that, a
/// click or a MIDI message is dropped, not sent (a long xrun, a stopped thread,
/// a ring that filled before its reader started): a burst of stale clock ticks
/// would make every slave jump, and a click that late is no beat any more. The
/// one limit for the engine (in frames) and the ALSA clock thread (in µs).
public enum MaximumLateness {
    public static var milliseconds: Int64 { 250 }

    public static var microseconds: Int64 { milliseconds * 1_000 }

    /// The limit in frames at `sampleRate` (rounded down: 12 000 at 48 kHz, 11 025 at 44.1 kHz).
    public static func frames(atSampleRate sampleRate: Int) -> Int64 {
        Int64(sampleRate) * milliseconds / 1_000
    }
}
