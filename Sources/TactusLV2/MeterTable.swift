import TactusCore

/// Every meter the plugin can play (1–32 beats of a 1st … 32nd note), made in
/// instantiate: `Meter`'s initialiser checks the denominator against an array,
/// which a debug build allocates for, so run() looks meters up instead.
struct MeterTable: BitwiseCopyable {
    private let storage: UnsafeMutablePointer<Meter>
    private static var units: Int { 6 }

    init() {
        storage = .allocate(capacity: Meter.maximumBeats * Self.units)
        for beats in 1...Meter.maximumBeats {
            for u in 0..<Self.units {
                (storage + (beats - 1) * Self.units + u).initialize(to: Meter(beatsPerBar: beats, beatUnit: 1 << u) ?? .fourFour)
            }
        }
    }

    func deallocate() { storage.deallocate() }

    /// The meter N/D, or nil when N is not 1–32 or D not a power of two from 1 to 32.
    func meter(beatsPerBar: Int, beatUnit: Int) -> Meter? {
        guard beatsPerBar >= 1, beatsPerBar <= 32, beatUnit >= 1, beatUnit <= 32, beatUnit & (beatUnit - 1) == 0 else { return nil }
        return storage[(beatsPerBar - 1) * Self.units + beatUnit.trailingZeroBitCount]
    }
}
