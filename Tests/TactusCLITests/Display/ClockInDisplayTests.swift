import Testing
@testable import TactusCLI
import TactusCore

/// What the display, the change log and the message line say of an incoming
/// MIDI clock (`--clock-in`, docs/DESIGN.md §9.1).
@Suite("Clock in on the display and in the change log")
struct ClockInDisplayTests {
    @Test func theRowShowsTheLockTheTempoWithTwoDecimalsAndTheJitter() {
        #expect(ClockInView(state: .idle, tempoHundredths: 0).text == "waiting for ticks")
        #expect(ClockInView(state: .acquiring, tempoHundredths: 0).text == "locking")
        // Locked before the meter's first beat: no jitter figures yet.
        #expect(ClockInView(state: .locked, tempoHundredths: 12_000).text == "locked 120.00 BPM")
        #expect(ClockInView(state: .locked, tempoHundredths: 13_305, spreadMicroseconds: 424, worstMicroseconds: 1_096).text
                    == "locked 133.05 BPM  jitter σ 0.42 ms, worst 1.10 ms")
        #expect(ClockInView(state: .holding, tempoHundredths: 9_730, spreadMicroseconds: 20, worstMicroseconds: 41, missingTicks: 2, lostTicks: 1).text
                    == "holding 97.30 BPM (no ticks)  jitter σ 0.02 ms, worst 0.04 ms, 2 missing, 1 lost in transit")
        #expect(ClockInView(state: .droppedOut, tempoHundredths: 12_000, spreadMicroseconds: 20, worstMicroseconds: 41).text
                    == "dropped out (no ticks): stopped")
        var m = DisplayModel(tempo: BPM(120))
        #expect(!ScreenRenderer(width: 80, height: 40).render(m).contains { $0.hasPrefix("clock in") })
        m.clockIn = ClockInView(state: .locked, tempoHundredths: 12_000, spreadMicroseconds: 1_630, worstMicroseconds: 3_100)
        let rows = ScreenRenderer(width: 80, height: 40).render(m)
        #expect(rows.contains { $0.hasPrefix("clock in") && $0.hasSuffix("locked 120.00 BPM  jitter σ 1.63 ms, worst 3.10 ms") }, "\(rows)")
    }

    @Test func theChangeLogSaysEachStateOnceNotTheJitter() {
        var log = ChangeLog()
        var m = DisplayModel(tempo: BPM(120))
        m.clockIn = ClockInView(state: .idle, tempoHundredths: 0)
        #expect(log.changes(to: m).last == "clock in waiting for ticks")
        m.clockIn = ClockInView(state: .locked, tempoHundredths: 12_000, spreadMicroseconds: 400, worstMicroseconds: 900)
        #expect(log.changes(to: m) == ["clock in locked 120.00 BPM"])
        m.clockIn?.spreadMicroseconds = 410
        #expect(log.changes(to: m).isEmpty)
        m.clockIn?.state = .holding
        #expect(log.changes(to: m) == ["clock in holding 120.00 BPM (no ticks)"])
        m.clockIn?.state = .droppedOut
        #expect(log.changes(to: m) == ["clock in dropped out (no ticks): stopped"])
    }

    @Test func eachChangeOfTheClockIsOneLineInTheOrderItHappened() {
        #expect(ClockInWatch.lines([.started], tempoHundredths: 0, nextSongTick: 0) == ["clock in: Start: bar 1"])
        // A Song Position of 16 sixteenths (a bar of 4/4), 96 ticks.
        #expect(ClockInWatch.lines([.located], tempoHundredths: 12_000, nextSongTick: 96)
                    == ["clock in: Song Position 16 (sixteenths): Continue plays from there"])
        #expect(ClockInWatch.lines([.continued, .jumped], tempoHundredths: 14_000, nextSongTick: 96)
                    == ["clock in: Continue from sixteenth 16", "clock in: tempo jumped to 140.00 BPM"])
        #expect(ClockInWatch.lines([.stopped], tempoHundredths: 12_000, nextSongTick: 200) == ["clock in: Stop"])
        #expect(ClockInWatch.lines([.droppedOut], tempoHundredths: 12_000, nextSongTick: 200)
                    == ["clock in: no tick for 2 beats (at most 2 s): the clock is gone, stopped; ticks coming back lock again"])
        #expect(ClockInWatch.lines([.songPositionIgnored], tempoHundredths: 12_000, nextSongTick: 0)
                    == ["clock in: Song Position while playing, ignored (MIDI 1.0 sends it only while stopped)"])
        // The lock and the hold are states: the row and the change log show them.
        #expect(ClockInWatch.lines([.locked, .holding, .narrowed], tempoHundredths: 12_000, nextSongTick: 0).isEmpty)
    }
}
