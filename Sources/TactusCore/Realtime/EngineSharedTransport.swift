/// A transport the engine shares with other programs without being positioned
/// by it: JACK transport in `join` and `master` (docs/DESIGN.md §13.3). Its
/// start and its locate are taken by the host in the cycle that sees them,
/// not a cycle or two later through the control thread's commands, so a JACK
/// timebase master's next BBT (`barBeatTick`, published right after the
/// cycle for the next one) is already the song's new place: bar numbers from
/// 1 after a start and from the bar located to after a locate, in every cycle.
extension Engine {
    /// The transport started rolling at `blockStart` (this block's first
    /// frame), in song bar `bar`: MIDI Start there for bar 1, else Song
    /// Position and Continue from `bar` there. After the block's commands,
    /// before its render (`Engine.cycle`). Nothing when the song plays already (its own start, echoed by
    /// the transport).
    mutating func transportStarted(atBar bar: Int32, blockStart: Int64, control: borrowing EngineControl) {
        guard !song.running else { return }
        if bar <= 1 {
            apply(.start, blockStart: blockStart, control: control)
        } else {
            // The resume point only: the Continue sends its Song Position (once).
            song.locate(bar: Int(bar), pulsesPerBar: pattern.bar.meter.pulsesPerBar)
            apply(.continue, blockStart: blockStart, control: control)
        }
    }

    /// The transport jumped to song bar `bar` while rolling, from `frame` on:
    /// the end of the block just rendered (JACK holds a located transport at
    /// its new frame for the cycle that sees it, and rolls on from there with
    /// the next). After the block's render. The grid starts again at `frame` on its next
    /// clock tick, at its tempo, and the relocation (§4.5: Stop, Song Position,
    /// Continue) is made there now, so `barBeatTick(atFrame: frame)` is bar
    /// `bar`, beat 1, tick 0, and the next block plays that downbeat's click
    /// and clock tick at its first frame: never lost, whatever the old grid
    /// had due there. While the song is stopped the resume point moves and
    /// Song Position is sent, as `EngineCommand.locate`.
    mutating func transportLocated(toBar bar: Int32, atFrame frame: Int64, control: borrowing EngineControl) {
        guard song.running && rolling else { return apply(.locate(bar: bar), blockStart: frame, control: control) }
        forgetCachedPoints()
        // The first clock tick the last block did not reach: its frame is `frame` or later.
        let pulse = nextClock
        cursor = pulse
        grid.start(pulse: pulse, at: frame)
        _ = agenda.remove(.transport)
        song.locate(bar: Int(bar), pulsesPerBar: pattern.bar.meter.pulsesPerBar)
        startSong(.relocate, at: pulse, gridFrame: frame, status: control.status, retired: control.retiredSounds)
    }
}
