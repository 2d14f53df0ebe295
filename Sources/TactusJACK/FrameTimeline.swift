/// Turns JACK's 32-bit frame time into the engine's 64-bit frame counter.
///
/// `jack_nframes_t` is 32 bits: at 48 kHz `jack_last_frame_time` wraps after
/// 24.8 hours, so the engine cannot take it as its position. Each cycle adds
/// the distance travelled since the previous cycle, computed modulo 2³² (the
/// difference of two wrapped counters is exact as long as less than 2³¹ frames
/// passed), to a 64-bit total. Because the distance is JACK's own frame time, a
/// skipped cycle or an xrun moves the engine exactly as far as the server's
/// clock moved: the grid stays where it was in time (klick, free-running, falls a
/// period behind for good after a skipped cycle; Tactus must not).
///
/// A new server's frame time has nothing to do with the old one's, so after a
/// reconnection `resume(at:)` maps the new server's first cycle onto the frame
/// where the last cycle on the old server ended: the engine continues without a
/// gap, nothing it had scheduled becomes late, and slaves see one pause.
public struct FrameTimeline: Sendable, BitwiseCopyable {
    private var lastJackFrame: UInt32 = 0
    private var lastFrame: Int64 = 0
    private var started = false
    private var origin: Int64

    /// The first cycle seen will be engine frame `origin`.
    public init(origin: Int64 = 0) { self.origin = origin }

    /// The engine frame of a cycle whose `jack_last_frame_time` is `jackFrame`.
    @_noLocks @_noAllocation
    public mutating func frame(forJackFrame jackFrame: UInt32) -> Int64 {
        guard started else {
            started = true
            lastJackFrame = jackFrame
            lastFrame = origin
            return origin
        }
        // Signed: a server clock never runs backwards, but if one did, a wrap of
        // the unsigned difference would throw the grid 24 hours ahead.
        let distance = Int64(Int32(bitPattern: jackFrame &- lastJackFrame))
        lastJackFrame = jackFrame
        lastFrame += distance
        return lastFrame
    }

    /// The next cycle comes from a new server: it will be engine frame `frame`.
    public mutating func resume(at frame: Int64) {
        started = false
        origin = frame
    }
}
