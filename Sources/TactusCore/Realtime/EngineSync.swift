/// The sync outputs' pulses on the grid (docs/DESIGN.md §14): the grid loop
/// (`Engine.advanceGrid`) visits every sync pulse as it visits a click or a
/// clock tick, and the pulse rises on the grid point's frame, so it follows
/// whatever the grid does (tempo changes, maps, trainers, a time source).

/// Where a block's sync lines go, each the block's length; either may be nil
/// (the lines still advance). `clock` is the `sync` port's signal, `second`
/// the `sync_run` port's (DIN sync's run line, or a modular reset line).
public struct SyncBuffers: BitwiseCopyable {
    public var clock: UnsafeMutablePointer<Float>?
    public var second: UnsafeMutablePointer<Float>?

    /// Inlinable and checked: the JACK cycle makes one on its real-time thread (docs/DESIGN.md §2.2).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    @inlinable
    public init(clock: UnsafeMutablePointer<Float>? = nil, second: UnsafeMutablePointer<Float>? = nil) {
        self.clock = clock
        self.second = second
    }
}

extension Engine {
    /// The sync output's settings; nil: none.
    public var syncSettings: SyncSettings? { sync.settings }

    /// The clock pulse and the reset pulse due at grid pulse `e`, if any, while
    /// the song runs. Pulses count from the current meter's first bar line, as
    /// clicks do (`SongTransport.barRelative`): in 4/4 that is from Start; in a
    /// bar that is not a whole number of pulses the last pulse of the bar is
    /// nearer the downbeat. They sound with the click, delayed as it is by a
    /// negative clock offset, plus their own alignment shift (`OutputDelays`).
    mutating func syncIfAny(at e: Int64, gridFrame: Int64, status: borrowing EngineStatus) {
        guard let settings = sync.settings else { return }
        let step = settings.kind.gridPulsesApart
        let rel = song.barRelative(e)
        let onPulse = Self.remainder(rel, step) == 0
        let resets = settings.resetsOnBars && (syncResetDue || Self.remainder(rel, pattern.bar.meter.pulsesPerBar) == 0)
        syncResetDue = false
        guard onPulse || resets else { return }
        let frame = gridFrame + sync.delay
        let interval = grid.frame(of: e + step) - gridFrame
        if resets { sync.reset(at: frame, interval: interval, status: status) }
        if onPulse { sync.pulse(at: frame, interval: interval, status: status) }
    }

    /// The next grid pulse at or after `cursor` where `syncIfAny` has work (nil: none).
    var nextSyncPulse: Int64? {
        guard let settings = sync.settings, song.running else { return nil }
        let rel = song.barRelative(cursor)
        var next = cursor + Self.distanceToMultiple(rel, settings.kind.gridPulsesApart)
        if settings.resetsOnBars {
            next = min(next, cursor + Self.distanceToMultiple(rel, pattern.bar.meter.pulsesPerBar))
        }
        return next
    }

    /// x mod m in 0..<m, for an x before the meter's origin too.
    static func remainder(_ x: Int64, _ m: Int64) -> Int64 {
        let r = x % m
        return r < 0 ? r + m : r
    }

    /// How far x is below the next multiple of m (0 on a multiple).
    static func distanceToMultiple(_ x: Int64, _ m: Int64) -> Int64 {
        let r = remainder(x, m)
        return r == 0 ? 0 : m - r
    }
}
