import CJackShims

/// What a Tactus process sets for all its threads, once, on the main thread,
/// before any other starts (JACK's among them): a thread inherits its signal
/// mask, and the heap arena is chosen when a thread first allocates.
public enum ProcessPolicy {
    /// Blocks SIGINT/SIGTERM in this thread and every thread started after it,
    /// so the control thread takes them in its own time (`TerminationSignals`),
    /// and gives all threads one heap arena.
    ///
    /// glibc gives threads arenas of their own, and a block freed into one
    /// thread's arena serves only that arena again; with every page locked
    /// (`MemoryLock`) such holes stay resident. A preset's samples are read on
    /// their own thread, the sounds of a server's return on the supervisor's and
    /// freed on the control thread's: with one arena each freed block is reused
    /// by the next, and an hour of switches and restarts ends where it began
    /// (Benchmarks/churn.sh). The real-time thread allocates nothing, so it never
    /// waits on the arena's lock.
    public static func apply() {
        TerminationSignals.block()
        _ = tactus_single_malloc_arena()
    }
}
