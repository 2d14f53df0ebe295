import TactusCore
import TactusJACK

/// The control thread's side of `--clock-in` (docs/DESIGN.md §9.1): what the
/// incoming clock did, said once each (a lock, Start, Stop, a Song Position, a
/// hold, a dropout, a malformed byte), and its figures for the display's
/// clock-in row. The engine already plays the clock's grid: the real-time
/// cycle follows it through the time-source seam.
final class ClockInWatch {
    private let metronome: JackMetronome
    /// Malformed bytes are said at most once a second (a sender that puts
    /// garbage between every tick would otherwise say 48 lines a second at
    /// 120 BPM), with how many more came since.
    private var lastErrorSaid: ControlTime?
    private var errorsUnsaid = 0
    /// The clock's own Stop came last (not Start or Continue): ticks that stop
    /// then are a sender at rest, not a clock gone, and the dropout is not said.
    private var stoppedByTheClock = false

    init(_ metronome: JackMetronome) { self.metronome = metronome }

    /// One control round: the news said through `say`; the row's figures, nil without `--clock-in`.
    func round(now: ControlTime, say: (String) -> Void) -> ClockInView? {
        guard metronome.options.clockIn else { return nil }
        for event in metronome.takeClockInEvents() {
            switch event {
            case .clockIn(var changes, let tempo, let songTick):
                if changes.contains(.stopped) { stoppedByTheClock = true }
                if changes.contains(.started) || changes.contains(.continued) { stoppedByTheClock = false }
                if stoppedByTheClock { changes.remove(.droppedOut) }
                for line in Self.lines(changes, tempoHundredths: Int(tempo), nextSongTick: songTick) { say(line) }
            case .clockInError(let error):
                if let last = lastErrorSaid, now.microseconds - last.microseconds < 1_000_000 {
                    errorsUnsaid += 1
                } else {
                    say(error.description + (errorsUnsaid > 0 ? " (and \(errorsUnsaid) more since the last said)" : ""))
                    lastErrorSaid = now
                    errorsUnsaid = 0
                }
            default:
                break
            }
        }
        let figures = metronome.shared.pointee.clockIn
        let measured = figures.measuredIntervals.load(ordering: .relaxed) > 0
        return ClockInView(state: figures.followerState, tempoHundredths: figures.tempoHundredths.load(ordering: .relaxed),
                           spreadMicroseconds: measured ? figures.spreadMicroseconds.load(ordering: .relaxed) : nil,
                           worstMicroseconds: measured ? figures.worstMicroseconds.load(ordering: .relaxed) : nil,
                           missingTicks: figures.missingTicks.load(ordering: .relaxed), lostTicks: figures.lostTicks.load(ordering: .relaxed))
    }

    /// The lines one `ClockFollowerChanges` says, in the order things happened
    /// (a tick can both start the song and jump). A Song Position counts
    /// sixteenths (MIDI 1.0: 6 clocks each). A lock and a hold are states the
    /// clock-in row and the change log's `clock in …` line show; a dropout is
    /// also said, with the time it waited.
    static func lines(_ changes: ClockFollowerChanges, tempoHundredths: Int, nextSongTick: Int64) -> [String] {
        let tempo = "\(ClockInView.tempo(tempoHundredths)) BPM"
        let sixteenth = nextSongTick / Int64(Grid.clocksPerMIDIBeat)
        var out: [String] = []
        if changes.contains(.located) { out.append("clock in: Song Position \(sixteenth) (sixteenths): Continue plays from there") }
        if changes.contains(.songPositionIgnored) {
            out.append("clock in: Song Position while playing, ignored (MIDI 1.0 sends it only while stopped)")
        }
        if changes.contains(.stopped) { out.append("clock in: Stop") }
        if changes.contains(.started) { out.append("clock in: Start: bar 1") }
        if changes.contains(.continued) { out.append("clock in: Continue from sixteenth \(sixteenth)") }
        if changes.contains(.jumped) { out.append("clock in: tempo jumped to \(tempo)") }
        if changes.contains(.tickLost) { out.append("clock in: a tick lost in transit, put back where the clock's line expected it") }
        // The follower's own settings, so the words say what it does.
        let settings = ClockFollowerSettings()
        if changes.contains(.droppedOut) {
            out.append("clock in: no tick for \(Int(settings.dropoutBeats)) beats (at most \(Int(settings.maximumHoldSeconds)) s): "
                + "the clock is gone, stopped; ticks coming back lock again")
        }
        return out
    }
}
