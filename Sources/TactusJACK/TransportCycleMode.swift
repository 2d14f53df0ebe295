import TactusCore

/// `--transport` as the process cycle reads it: whether the cycle hands JACK
/// transport's start, stop and locate to the control thread, and whether it
/// follows the timebase master or publishes the BBT. Three bits of one `Atomic<Int>`
/// (`JackShared.transportMode`) that the control thread stores at start and
/// when a preset's `"transport"` changes the mode while running: a
/// `String`-backed enum's `==` goes through the standard library's generic
/// raw-value comparison, which the real-time check refuses.
struct TransportCycleMode: BitwiseCopyable {
    /// Start, stop and locate go between Tactus and JACK transport (every mode but `off`).
    let reads: Bool
    /// The engine's position is the transport's (`follow`).
    let follows: Bool
    /// Tactus publishes the BBT (`master`, `master-force`): with `--clock-in` a
    /// block follows the line the ticks before it drew (`followClockIn`).
    let publishesBBT: Bool

    init(bits: Int) {
        reads = bits & 1 != 0
        follows = bits & 2 != 0
        publishesBBT = bits & 4 != 0
    }

    /// Control thread: the bits to store for `mode`.
    static func bits(_ mode: JackTransportMode) -> Int { (mode == .off ? 0 : 1) | (mode == .follow ? 2 : 0) | (mode.wantsTimebase ? 4 : 0) }

    /// The mode for this cycle (a relaxed load: a change lands within a cycle).
    @_noLocks @_noAllocation
    static func current(_ shared: UnsafeMutablePointer<JackShared>) -> TransportCycleMode {
        TransportCycleMode(bits: shared.pointee.transportMode.load(ordering: .relaxed))
    }
}
