import Testing
@testable import TactusCore

/// The engine's parts, each on its own: the agenda, the song transport, the
/// click pattern and the tempo grid (docs/DESIGN.md §3, §4, §8).
@Suite("Engine parts: agenda, song transport, click pattern, tempo grid")
struct EnginePartsTests {
    // MARK: Agenda

    @Test func theAgendaGivesChangesByPulseAndAtOnePulseTempoThenBarThenTransport() {
        var agenda = Agenda()
        let bar = BarChange(settings: BarSettings(), tempo: nil, point: .nextBar, sound: SoundChange())
        agenda.schedule(AgendaEntry(pulse: 384, change: .transport(.start)))
        agenda.schedule(AgendaEntry(pulse: 384, change: .bar(bar)))
        agenda.schedule(AgendaEntry(pulse: 384, change: .tempo(BPM(90))))
        let count = agenda.count
        #expect(count == 3)
        let early = agenda.takeFirst(at: 380, through: .transport)
        #expect(early == nil)
        var kinds: [ScheduledChange.Kind] = []
        while let change = agenda.takeFirst(at: 384, through: .bar) { kinds.append(change.kind) }
        #expect(kinds == [.tempo, .bar])
        // Transport is not a grid change: it waits for its frame.
        let waiting = agenda.first?.change.kind
        #expect(waiting == .transport)
        let transport = agenda.takeFirst(at: 384, through: .transport)?.kind
        let empty = agenda.isEmpty
        #expect(transport == .transport && empty)
    }

    @Test func aNewerChangeOfOneKindReplacesTheOlder() {
        var agenda = Agenda()
        agenda.schedule(AgendaEntry(pulse: 8, change: .tempo(BPM(100))))
        agenda.schedule(AgendaEntry(pulse: 4, change: .transport(.resume)))
        agenda.schedule(AgendaEntry(pulse: 12, change: .tempo(BPM(101))))
        let count = agenda.count, tempo = agenda.entry(.tempo), first = agenda.first?.pulse
        #expect(count == 2 && first == 4)
        guard case .tempo(let t)? = tempo?.change else { Issue.record("no tempo"); return }
        #expect(t == BPM(101) && tempo?.pulse == 12)
    }

    @Test func aFullAgendaRefusesWithoutLosingWhatItHolds() {
        var agenda = Agenda()
        var accepted = 0
        for i in 0..<Agenda.capacity where agenda.schedule(AgendaEntry(pulse: Int64(100 - i), change: .tempo(BPM(60))), replacing: false) { accepted += 1 }
        let refused = !agenda.schedule(AgendaEntry(pulse: 0, change: .tempo(BPM(61))), replacing: false)
        let count = agenda.count, first = agenda.first?.pulse
        #expect(accepted == Agenda.capacity && refused && count == Agenda.capacity)
        #expect(first == Int64(100 - Agenda.capacity + 1))
    }

    // MARK: Song transport

    @Test func stopKeepsWholeSixteenthsAndContinueResumesThere() {
        var song = SongTransport()
        song.start(at: 1000)
        song.clocksSent(11)                   // 1 MIDI beat (6 clocks) + 5
        song.stop()
        #expect(!song.running && song.songPositionBeats == 1 && song.resumeSongPulse == 24)
        song.resume(at: 5000)
        #expect(song.songOrigin == 5000 - 24 && song.songClocks == 6)
    }

    @Test func aMeterChangeNumbersItsFirstBarAfterTheBarItEnds() {
        var song = SongTransport()
        song.start(at: 0)
        // 4/4 (384 pulses a bar): a change at pulse 900 (in bar 3) starts bar 4 there.
        song.changeMeter(at: 900, oldPulsesPerBar: 384)
        #expect(song.barNumber(at: 900, pulsesPerBar: 336) == 4)
        #expect(song.barNumber(at: 900 + 336, pulsesPerBar: 336) == 5)
        // On a bar line (pulse 768 + 900 - 900…): exactly bar 3's start keeps number 3.
        var other = SongTransport()
        other.start(at: 0)
        other.changeMeter(at: 768, oldPulsesPerBar: 384)
        #expect(other.barNumber(at: 768, pulsesPerBar: 336) == 3)
    }

    @Test func locateWhileStoppedMovesTheSlavesPositionToTheBar() {
        var song = SongTransport()
        song.locate(bar: 3, pulsesPerBar: 384)
        #expect(song.songPositionBeats == 32 && song.songClocks == 192)
    }

    // MARK: Click pattern

    @Test func sevenEightAccentsAndTripletsUpTo300BPM() {
        let pattern = ClickPattern(bar: BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, accents: AccentPattern("X.x.x.."),
                                                    subdivision: .triplets))
        // An eighth is 48 pulses; triplet parts every 16.
        guard case .beat(0, .accent)? = pattern.hit(atBarRelative: 0, tempo: BPM(133)) else { Issue.record("beat 1"); return }
        guard case .beat(1, .silent)? = pattern.hit(atBarRelative: 48, tempo: BPM(133)) else { Issue.record("beat 2"); return }
        guard case .subdivision? = pattern.hit(atBarRelative: 16, tempo: BPM(133)) else { Issue.record("triplet"); return }
        #expect(pattern.hit(atBarRelative: 8, tempo: BPM(133)) == nil)
        #expect(pattern.hit(atBarRelative: 16, tempo: BPM(300)) == nil)
        #expect(pattern.nextClickPulse(atOrAfter: 17, tempo: BPM(299.99)) == 32)
        #expect(pattern.nextClickPulse(atOrAfter: 17, tempo: BPM(300)) == 48)
        #expect(pattern.nextSwitchPulse(atOrAfter: 1, point: .nextBar) == 336)
        #expect(pattern.nextSwitchPulse(atOrAfter: 1, point: .nextBeat) == 48)
    }

    // MARK: Tempo grid

    @Test func aTempoChangeBendsTheGridAtItsPulseAndNowhereElse() {
        var grid = TempoGrid(sampleRate: 48_000, tempo: BPM(120), pulsesPerBeat: 96)
        grid.start(pulse: 0, at: 500)
        #expect(grid.frame(of: 96) == 500 + 24_000)
        grid.change(tempo: BPM(97.3), at: 96)
        #expect(grid.frame(of: 96) == 24_500)
        // Six hours of quarters at 97.3 from there: exact, rounded half up.
        let beats: Int64 = 35_028
        let ideal = Double(beats) * 48_000 * 60 / 97.3
        #expect(grid.frame(of: 96 + beats * 96) == 24_500 + Int64((ideal + 0.5).rounded(.down)))
    }

    @Test func aMeasuredMappingRoundsToTheNearestFrame() {
        let map = MeasuredMapping(frame: 1000, pulse: 10.25, framesPerPulse: 250.2)
        #expect(map.frame(of: 11) == 1000 + 188)        // 0.75 × 250.2 = 187.65
        #expect(map.frame(of: 12) == 1000 + 438)        // 1.75 × 250.2 = 437.85
        #expect(map.pulse(atOrBefore: 1000 + 438) == 12)
        #expect(map.pulse(atOrBefore: 1000 + 437) == 11)
    }
}
