/// Count-in, speed trainer and gap trainer in the engine (docs/DESIGN.md §10.4–§10.6).
///
/// The count-in delays the song: Start's clock tick begins it, and the song's
/// Start (0xFA, song position 0, bar 1) is scheduled on the downbeat after it,
/// so a DAW following the clock rolls at bar 1. The trainer's steps are agenda
/// entries on bar lines, counted from bar 1.
extension Engine {
    /// At Start's tick `e` (frame `gridFrame`): true when a count-in begins
    /// there instead (the song starts after it). With a tempo map it counts in
    /// the map's first bar: its meter, and its tempo at its start.
    mutating func beginCountIn(at e: Int64, gridFrame: Int64) -> Bool {
        guard let countIn = practice.countIn else { return false }
        if practice.countingIn {
            practice.countingIn = false
            return false
        }
        practice.countingIn = true
        practice.countInStart = e
        if let m = map, m.timeline.count > 0 {
            let first = m.timeline[0]
            pattern.bar = first.bar
            // The map's tempo as it is (quarter notes, not rounded to a hundredth of the beat's BPM).
            let pulses = countIn.pulses(of: first.bar.meter)
            grid.follow(RampMapping(originFrame: gridFrame, startOffset: 0, pulse: e, pulses: pulses, fromTempo: first.fromTempo,
                                    toTempo: first.fromTempo, sampleRate: sampleRate),
                        tempo: first.beatTempo, pulsesPerBeat: first.bar.meter.pulsesPerBeat)
        }
        agenda.schedule(AgendaEntry(pulse: e + countIn.pulses(of: pattern.bar.meter), change: .transport(.start)))
        return true
    }

    /// The next count-in beat at or after pulse `p`.
    func nextCountInBeat(atOrAfter p: Int64) -> Int64 {
        practice.countInStart + roundUp(p - practice.countInStart, toMultipleOf: pattern.bar.meter.pulsesPerBeat)
    }

    /// A count-in beat at pulse `e`: the accent sound at the count-in's gain.
    mutating func countInClick(at e: Int64, gridFrame: Int64, blockStart: Int64, status: borrowing EngineStatus) {
        guard let countIn = practice.countIn, (e - practice.countInStart) % pattern.bar.meter.pulsesPerBeat == 0 else { return }
        audio.click(.accent, gridFrame: gridFrame, blockStart: blockStart, status: status, scale: countIn.gain)
    }

    /// Bar 1 at pulse `e`: the trainer plays FROM and steps BARS bars later.
    mutating func beginTrainer(at e: Int64) {
        guard let trainer = practice.trainer else { return }
        if tempoIsOwn(trainer.from, at: e) { grid.change(tempo: trainer.from, at: e) }
        scheduleTrainerStep(e + Int64(trainer.bars) * pattern.bar.meter.pulsesPerBar)
    }

    /// A trainer step on the bar line at `e`, from the tempo playing now; the
    /// next BARS bars later. A source that owns the tempo is asked for it
    /// (`tempoIsOwn`) from that bar line and plays it as the source does.
    mutating func stepTrainer(at e: Int64) {
        guard let trainer = practice.trainer else { return }
        if let next = trainer.next(after: grid.tempo), tempoIsOwn(next, at: e) { grid.change(tempo: next, at: e) }
        scheduleTrainerStep(e + Int64(trainer.bars) * pattern.bar.meter.pulsesPerBar)
    }

    mutating func scheduleTrainerStep(_ pulse: Int64) {
        practice.nextStep = pulse
        agenda.schedule(AgendaEntry(pulse: pulse, change: .trainer))
    }

    /// What the display shows of the practice tools, at the beat at pulse `e`.
    func publishPractice(at e: Int64, status: borrowing EngineStatus) {
        let barLength = pattern.bar.meter.pulsesPerBar
        if let m = map, m.active {
            status.mapSection.store(Int(m.section), ordering: .relaxed)
            status.mapSectionBar.store(Int((e - m.sectionStart) / barLength) + 1, ordering: .relaxed)
        } else {
            status.mapSection.store(-1, ordering: .relaxed)
        }
        status.gapMuted.store(gapMutes(at: e), ordering: .relaxed)
        if let trainer = practice.trainer, let next = trainer.next(after: grid.tempo), practice.nextStep > e {
            status.trainerBarsToStep.store(Int((practice.nextStep - e + barLength - 1) / barLength), ordering: .relaxed)
            status.trainerNextHundredths.store(next.hundredths, ordering: .relaxed)
        } else {
            status.trainerBarsToStep.store(-1, ordering: .relaxed)
        }
    }

    /// Whether the gap trainer silences the click at pulse `e`.
    func gapMutes(at e: Int64) -> Bool {
        guard let gap = practice.gap else { return false }
        return gap.mutes(bar: song.barNumber(at: e, pulsesPerBar: pattern.bar.meter.pulsesPerBar))
    }

    /// A stop: no count-in or trainer step waits any more.
    mutating func stopPractice() {
        practice.countingIn = false
        _ = agenda.remove(.trainer)
    }
}
