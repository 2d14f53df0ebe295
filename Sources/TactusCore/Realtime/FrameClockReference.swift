import Synchronization

/// Where the engine's frame counter stands on the system's monotonic clock, so a
/// thread other than the render thread (the ALSA clock scheduler) can turn an
/// event's frame into a wall-clock time and schedule it ahead on a queue.
///
/// The render thread publishes one point per cycle: the engine frame of the
/// cycle's first sample, its time in microseconds on the monotonic clock (JACK's
/// `jack_get_cycle_times` `current_usecs`, which jack2 takes from
/// CLOCK_MONOTONIC), and the measured microseconds per frame (JACK's
/// DLL-filtered `(next_usecs − current_usecs) / nframes`, which follows the sound
/// card's real rate). A sequence counter (a seqlock) lets readers get a
/// consistent triple without a lock: odd while writing, readers retry.
public struct FrameClockReference: ~Copyable, @unchecked Sendable {
    private let sequence = Atomic<UInt64>(0)
    private let frame = Atomic<Int64>(0)
    private let microseconds = Atomic<Int64>(0)
    private let microsecondsPerFrameBits = Atomic<UInt64>(0)

    public init() {}

    /// Render thread only. Wait-free.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func publish(frame f: Int64, microseconds t: Int64, microsecondsPerFrame: Double) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        frame.store(f, ordering: .relaxed)
        microseconds.store(t, ordering: .relaxed)
        microsecondsPerFrameBits.store(microsecondsPerFrame.bitPattern, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    public struct Point: Sendable, Hashable {
        public var frame: Int64
        public var microseconds: Int64
        public var microsecondsPerFrame: Double

        /// Monotonic time of `frame`, in microseconds.
        public func microseconds(atFrame f: Int64) -> Double {
            Double(microseconds) + Double(f - frame) * microsecondsPerFrame
        }
    }

    /// The last published point; nil before the first cycle.
    public func read() -> Point? {
        while true {
            let s1 = sequence.load(ordering: .acquiring)
            if s1 == 0 { return nil }
            if s1 & 1 == 1 { continue }
            let p = Point(frame: frame.load(ordering: .relaxed), microseconds: microseconds.load(ordering: .relaxed),
                          microsecondsPerFrame: Double(bitPattern: microsecondsPerFrameBits.load(ordering: .relaxed)))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == s1 { return p }
        }
    }
}
