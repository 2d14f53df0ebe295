/// How late an event may still go out: 250 ms. A clock tick or a Start that
/// missed its frame (skipped JACK cycles, a stalled thread) is sent late up to
/// this, so a slave keeps its count; later than this it is dropped, so a slave
/// never receives a burst of stale ticks after a long stall.
public enum MaximumLateness {
    public static let microseconds: Int64 = 250_000

    /// The same in frames at `sampleRate`.
    public static func frames(sampleRate: Int) -> Int64 { Int64(sampleRate) * microseconds / 1_000_000 }
}
