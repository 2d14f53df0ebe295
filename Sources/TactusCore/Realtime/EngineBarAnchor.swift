/// A time source's bar line: bar `number` (from 1) starts at song pulse `songPulse`.
struct BarLine: BitwiseCopyable {
    var songPulse: Int64
    var number: Int
}

/// `EngineCommand.anchorBar`, waiting for the block's time-source position.
struct BarAnchor: BitwiseCopyable {
    var settings: BarSettings
    var line: BarLine
}

/// Where a time source puts its bars (docs/DESIGN.md §8.5). A host tells a
/// meter change in `time:Position` at the first frame of a cycle (jalv reads
/// the JACK transport once a cycle), so a bar line that fell inside the last
/// cycle or this one is already behind the cursor when the engine hears of
/// it. The bar count is re-anchored on that line at once: the beats from the
/// cursor on fall where the source's bars put them, and the next accent is on
/// the source's next beat 1 (clicks already sounded stay as they were). A line
/// still ahead waits on the agenda as any bar change does. One timing path:
/// the grid's frames are the source's, only the bar count moves.
extension Engine {
    mutating func resolve(_ anchor: BarAnchor, status: borrowing EngineStatus, retired: borrowing SPSCRing<SoundSet>) {
        forgetCachedPoints()
        var change = BarChange(settings: anchor.settings, tempo: nil, point: .nextBar, sound: SoundChange(), line: anchor.line)
        // A bar change still waiting for a line of the old bars rides on this one.
        if case .bar(let older)? = agenda.remove(.bar)?.change {
            change.tempo = older.tempo
            change.sound = older.sound
            change.request = older.request
        }
        guard song.running || agenda.entry(.transport) != nil else {
            // Standing still: the bars hold from the song position the source rolls from.
            song.anchorMeter(anchor.line)
            adoptBarNow(change, retired: retired)
            heard(change, status: status)
            return
        }
        // The grid pulse of song position 0: the source's while it drives the grid.
        let line = (followed != nil ? followBase : song.songOrigin) + anchor.line.songPulse
        if line > cursor {
            agenda.schedule(AgendaEntry(pulse: line, change: .bar(change)))
        } else {
            applyBar(change, at: cursor, status: status, retired: retired)
        }
    }
}
