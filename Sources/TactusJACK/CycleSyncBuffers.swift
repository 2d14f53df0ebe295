import CJack
import TactusCore

extension ProcessCycle {
    /// The cycle's `sync` and `sync_run` port buffers as the engine's
    /// `SyncBuffers` (nil where the port is not registered): the engine writes
    /// the sync lines straight into them in `Engine.cycle`, the same call and
    /// the same samples as `tactus render`'s channels (docs/DESIGN.md §14.5).
    /// Asked for every cycle: jack.h, `jack_port_get_buffer`: "Port buffers
    /// have to be retrieved in each callback for proper functioning".
    static func syncBuffers<Host: CycleHost>(host: inout Host, frames: jack_nframes_t) -> SyncBuffers {
        SyncBuffers(clock: host.buffer(.sync, frames)?.assumingMemoryBound(to: Float.self),
                    second: host.buffer(.syncRun, frames)?.assumingMemoryBound(to: Float.self))
    }

    /// The sync lines at rest (0, docs/DESIGN.md §14.4) while the cycle does
    /// not sound (`SoundingGate`): an output buffer JACK hands out holds
    /// whatever was there before, and the engine, which did not run, wrote nothing.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func silence(_ lines: SyncBuffers, frames: jack_nframes_t) {
        if let clock = lines.clock { for i in 0..<Int(frames) { clock[i] = 0 } }
        if let second = lines.second { for i in 0..<Int(frames) { second[i] = 0 } }
    }
}
