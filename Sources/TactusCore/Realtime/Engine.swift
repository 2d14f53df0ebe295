/// The metronome: from a tempo, a meter and a frame position it renders click
/// audio and the MIDI beat clock for any block of frames.
///
/// The one timing path of Tactus: the JACK process callback, LV2's run, `tactus
/// render` and the tests all call `cycle` (EngineCycle.swift), once a block. It
/// keeps the LV2 shape: everything is allocated in `init`; a cycle allocates
/// nothing, takes no lock and makes no system call, so it is safe on the
/// real-time thread.
///
/// `render` reads like jack_midi_clock's process(): for each grid point of the
/// block (a clock tick, a click, a change due) in order, apply what is due and
/// emit. Time is counted in pulses (96 per quarter note, `Grid`); the parts, each
/// in its own file: `TempoGrid` (where pulses fall in frames), `Agenda` (changes
/// waiting for their pulse), `SongTransport` (Start/Stop/Continue/Song
/// Position), `ClickPattern` (which pulses click), `MIDIOutput` and
/// `ClickOutput`. docs/DESIGN.md §3, §4 and §8 give the rules.
public struct Engine: ~Copyable {
    public internal(set) var sampleRate: Int
    var grid: TempoGrid
    var pattern: ClickPattern
    var song = SongTransport()
    var agenda = Agenda()
    var midi: MIDIOutput
    var audio: ClickOutput
    /// The sync outputs' edges and lines (`SyncOutput`, docs/DESIGN.md §14).
    var sync: SyncOutput
    /// The clock offset and the alignment shifts the outputs' delays are made of (`OutputDelays`).
    var delays = OutputDelays()
    /// A locate asks the reset line for a pulse at the next grid point.
    var syncResetDue = false
    /// The next pulse not yet processed.
    var cursor: Int64 = 0
    /// Whether the grid advances: while running, or stopped with clock-while-stopped.
    var rolling = false
    var clockWhileStopped: Bool
    var sendSongPosition: Bool
    /// A time source's mapping of the last cycle (nil: the engine's own time),
    /// and the grid pulse of its song position 0.
    var followed: MeasuredMapping?
    var followBase: Int64 = 0
    /// The grid before changes applied early at a point beyond the last block (`barBeatTick`).
    var heldView: HeldBarBeatView?
    /// Where the last block ended: a block that starts there (no skipped cycles)
    /// cannot have anything too late to send, and skips the check.
    var lastBlockEnd: Int64 = .min
    /// Where the last block's loop stopped (the first point beyond it), while no
    /// command, time source or skip has changed anything since; nil otherwise.
    var nextPoint: GridPoint?
    /// The tempo map the song plays from its Start, if any (`EngineMap.swift`).
    var map: MapPlayback?
    /// Count-in, speed trainer, gap trainer (`EnginePractice.swift`).
    var practice = PracticeState()
    /// A time source's bar line given this block, placed once its position is known (`EngineBarAnchor.swift`).
    var barAnchor: BarAnchor?
    /// What this block's time source owns (`Engine.cycle`): the player's tempo
    /// and start/stop for it become `sourceRequests` (`TimeSourceRequests.swift`).
    var owner = SourceOwnership.none
    var sourceRequests = TimeSourceRequests()

    public init(configuration c: EngineConfiguration, sounds: SoundSet) {
        sampleRate = c.sampleRate
        grid = TempoGrid(sampleRate: c.sampleRate, tempo: c.tempo, pulsesPerBeat: c.bar.meter.pulsesPerBeat)
        pattern = ClickPattern(bar: c.bar)
        midi = MIDIOutput(maximumLateness: MaximumLateness.frames(atSampleRate: c.sampleRate), feedbackNotes: c.feedbackNotes)
        audio = ClickOutput(sounds: sounds, gains: c.gains, muted: c.muted)
        sync = SyncOutput(settings: c.sync, sampleRate: c.sampleRate)
        clockWhileStopped = c.clockWhileStopped
        sendSongPosition = c.sendSongPosition
        setClockOffset(c.clockOffsetFrames)
        map = c.map.map { MapPlayback(timeline: $0, baseGains: c.gains) }
        practice = PracticeState(countIn: c.countIn, trainer: c.trainer, gap: c.gap)
    }


    /// The sound set in use (to free it when the engine is gone).
    public var soundSet: SoundSet { audio.sounds }

    /// Sets held for a preset switch not yet heard (waiting for its bar line, or
    /// for its frame in this block): whoever discards this engine frees them
    /// with `soundSet`. Not for the render thread.
    public var unheardSoundSets: [SoundSet] { [pendingBar?.sound.sounds, audio.scheduled.sounds].compactMap { $0 } }

    var pendingBar: BarChange? {
        if case .bar(let change)? = agenda.entry(.bar)?.change { return change }
        return nil
    }

    var pendingTempo: BPM? {
        if case .tempo(let t)? = agenda.entry(.tempo)?.change { return t }
        return nil
    }

    /// Stops every click and cue sounding now, keeping the grid: for an output cut
    /// off mid-click (a JACK server gone). Not while a render runs.
    public mutating func silence() { audio.silence() }

    // MARK: - Render

    /// Renders `frames` frames starting at absolute frame `start`, after
    /// `beginCycle` applied the block's commands (`Engine.cycle`).
    ///
    /// Writes the click into `click`,
    /// feedback cues into `feedback` and the sync lines into `sync` (each
    /// `frames` long, may be nil) and the MIDI events of the block into
    /// `events` (cleared first). `position` is a
    /// time source's word for this cycle (docs/DESIGN.md §8); nil: the engine's
    /// own anchor. Consecutive calls normally continue where the last ended; a
    /// later `start` (skipped cycles) keeps the grid where it was in time: what
    /// fell in the gap is late, sent at the block's first frame if it is MIDI and
    /// not too late.
    mutating func render(frames: Int, at start: Int64, control: borrowing EngineControl,
                                click: UnsafeMutablePointer<Float>?, feedback: UnsafeMutablePointer<Float>?,
                                events: inout MIDIEventBuffer, position: TimelinePosition? = nil, sync lines: SyncBuffers = SyncBuffers()) {
        events.removeAll()
        // A plain loop: the optimiser makes it a memset, and the real-time checker
        // can see through it (it cannot see into the stdlib's update(repeating:)).
        if let click { for i in 0..<frames { click[i] = 0 } }
        if let feedback { for i in 0..<frames { feedback[i] = 0 } }
        let end = start + Int64(frames)

        if let position { follow(position, blockStart: start, frames: frames, control: control) } else { stopFollowing() }
        if let anchor = barAnchor {
            barAnchor = nil
            resolve(anchor, status: control.status, retired: control.retiredSounds)
        }
        if rolling { advanceGrid(blockStart: start, blockEnd: end, status: control.status, retired: control.retiredSounds) }
        lastBlockEnd = end
        midi.flushNoteOffs(before: end)
        midi.drain(before: end, into: &events)
        audio.render(blockStart: start, frames: frames, click: click, feedback: feedback, retired: control.retiredSounds)
        sync.render(blockStart: start, frames: frames, clock: lines.clock, second: lines.second)

        control.status.running.store(song.running, ordering: .relaxed)
        control.status.tempoHundredths.store(grid.tempo.hundredths, ordering: .relaxed)
        control.status.beatsPerBar.store(pattern.bar.meter.beatsPerBar, ordering: .relaxed)
        control.status.frame.store(start, ordering: .releasing)
    }

    // MARK: - The grid

    mutating func advanceGrid(blockStart: Int64, blockEnd: Int64, status: borrowing EngineStatus, retired: borrowing SPSCRing<SoundSet>) {
        if blockStart != lastBlockEnd { skipAhead(to: blockStart, status: status) }
        // The point the last block stopped at, when nothing changed since: its
        // pulse and frame are known (saves the next-click search and a 128-bit
        // division in most cycles, which have no event).
        var known = nextPoint
        nextPoint = nil
        while true {
            let e: Int64, gridFrame: Int64
            var before: BarBeatView?
            if let point = known {
                (e, gridFrame) = (point.pulse, point.frame)
                known = nil
            } else {
                e = nextGridPulse()
                // What a JACK master publishes for frames before e, should e lie beyond the block.
                if agenda.first?.pulse == e { before = barBeatView }
                // Tempo and bar bend the grid at e before its frame is known.
                while let change = agenda.takeFirst(at: e, through: .trainer) {
                    switch change {
                    case .tempo(let t): grid.change(tempo: t, at: e)
                    case .bar(let bar): applyBar(bar, at: e, status: status, retired: retired)
                    case .section(let index): applySegment(Int(index), at: e, retired: retired)
                    case .trainer: stepTrainer(at: e)
                    case .transport: break
                    }
                }
                gridFrame = grid.frame(of: e)
            }
            if gridFrame >= blockEnd {
                nextPoint = GridPoint(pulse: e, frame: gridFrame)
                if let before { heldView = HeldBarBeatView(view: before, until: gridFrame) }
                break
            }
            heldView = nil
            if case .transport(let t)? = agenda.takeFirst(at: e, through: .transport) {
                startSong(t, at: e, gridFrame: gridFrame, status: status, retired: retired)
                // The map's end stopped the song (and the clock, unless it runs while stopped).
                if !rolling { break }
            }
            if e % Grid.pulsesPerClock == 0 && !practice.holdsClock(whileStopped: clockWhileStopped) {
                midi.flushNoteOffs(before: gridFrame + midi.delay + 1)
                midi.emitClock(gridFrame: gridFrame, blockStart: blockStart, status: status)
                status.clocksSent.add(1, ordering: .relaxed)
                song.clocksSent()
            }
            if song.running {
                syncIfAny(at: e, gridFrame: gridFrame, status: status)
                clickIfAny(at: e, gridFrame: gridFrame, blockStart: blockStart, status: status)
            } else if practice.countingIn {
                countInClick(at: e, gridFrame: gridFrame, blockStart: blockStart, status: status)
            }
            cursor = e + 1
        }
    }

    /// The next pulse where something may happen: a clock tick, a click, a change due.
    func nextGridPulse() -> Int64 {
        var e = nextClock
        if song.running {
            e = min(e, song.gridPulse(barRelative: pattern.nextClickPulse(atOrAfter: song.barRelative(cursor), tempo: grid.tempo)))
        } else if practice.countingIn {
            e = min(e, nextCountInBeat(atOrAfter: cursor))
        }
        if let due = agenda.first?.pulse { e = min(e, due) }
        if let pulse = nextSyncPulse { e = min(e, pulse) }
        return e
    }

    /// After a long gap (xruns, a stalled server) jump the cursor to the block
    /// instead of walking through pulses that are too late to send.
    mutating func skipAhead(to blockStart: Int64, status: borrowing EngineStatus) {
        let horizon = blockStart - midi.maximumLateness
        guard grid.frame(of: cursor) < horizon else { return }
        forgetCachedPoints()
        if case .tempo(let t)? = agenda.remove(.tempo)?.change { grid.change(tempo: t, at: cursor) }
        let target = max(cursor, grid.pulse(atOrBefore: horizon) + 1)
        let firstClock = nextClock
        let skippedClocks = target > firstClock ? (target - firstClock + Grid.pulsesPerClock - 1) / Grid.pulsesPerClock : 0
        status.droppedEvents.add(Int(skippedClocks), ordering: .relaxed)
        song.clocksSent(skippedClocks)
        cursor = target
        if let transport = agenda.remove(.transport) {
            agenda.schedule(AgendaEntry(pulse: max(transport.pulse, nextClock), change: transport.change))
        }
        if let bar = agenda.remove(.bar), case .bar(let change) = bar.change {
            let line = song.gridPulse(barRelative: pattern.nextSwitchPulse(atOrAfter: song.barRelative(target), point: change.point))
            agenda.schedule(AgendaEntry(pulse: max(bar.pulse, line), change: bar.change))
        }
    }

    mutating func applyBar(_ change: BarChange, at e: Int64, status: borrowing EngineStatus, retired: borrowing SPSCRing<SoundSet>) {
        if let line = change.line {
            song.anchorMeter(line)
        } else {
            song.changeMeter(at: e, oldPulsesPerBar: pattern.bar.meter.pulsesPerBar)
        }
        pattern.bar = change.settings
        if grid.isFollowing {
            grid.follow(pulsesPerBeat: change.settings.meter.pulsesPerBeat)
        } else {
            grid.change(tempo: change.tempo, pulsesPerBeat: change.settings.meter.pulsesPerBeat, at: e)
        }
        if !change.sound.isEmpty { audio.schedule(change.sound, atGridFrame: grid.frame(of: e), retired: retired) }
        heard(change, status: status)
    }

    /// A bar change applied: its number (if the control thread waits for it) published.
    func heard(_ change: BarChange, status: borrowing EngineStatus) {
        if change.request > 0 { status.barRequestApplied.store(change.request, ordering: .releasing) }
    }

    /// Start, Continue or a relocation, on the clock tick at pulse `e`.
    mutating func startSong(_ change: TransportChange, at e: Int64, gridFrame: Int64, status: borrowing EngineStatus,
                            retired: borrowing SPSCRing<SoundSet>) {
        switch change {
        case .start:
            // A count-in first: the song's Start waits for the downbeat after it.
            if beginCountIn(at: e, gridFrame: gridFrame) { return }
            song.start(at: e)
            midi.emit(.start, gridFrame: gridFrame)
            sync.run(true, at: gridFrame + sync.delay, status: status)
            beginMap(at: e, gridFrame: gridFrame, retired: retired)
            beginTrainer(at: e)
        case .resume:
            song.resume(at: e)
            resumeMap(at: e, gridFrame: gridFrame, retired: retired)
            sendSongPositionPointer(at: gridFrame)
            midi.emit(.continue, gridFrame: gridFrame)
            sync.run(true, at: gridFrame + sync.delay, status: status)
        case .relocate:
            midi.emit(.stop, gridFrame: gridFrame)
            song.resume(at: e)
            // DIN sync has no position to locate to: its run line stays high (§14.2).
            syncResetDue = true
            // A locate inside a tempo map plays the map from the place located
            // to, as Continue does (§10.3): its tempo, meter and bars there,
            // not the segment that was playing, going on from the old pulse.
            if map?.active == true {
                stopMap()
                // The old map's pending end must go: a locate past the end of
                // a map that does not loop leaves `resumeMap` nothing to play,
                // and that end would then stop the song at the old place.
                if case .transport(.end)? = agenda.entry(.transport)?.change { _ = agenda.remove(.transport) }
                resumeMap(at: e, gridFrame: gridFrame, retired: retired)
            }
            sendSongPositionPointer(at: gridFrame)
            midi.emit(.continue, gridFrame: gridFrame)
        case .end:
            endMap(at: gridFrame, status: status)
        }
    }

    mutating func clickIfAny(at e: Int64, gridFrame: Int64, blockStart: Int64, status: borrowing EngineStatus) {
        guard let hit = pattern.hit(atBarRelative: song.barRelative(e), tempo: grid.tempo) else { return }
        let sound: ClickSound
        var scale: Float = 1
        switch hit {
        case .beat(let index, let accent):
            status.bar.store(song.barNumber(at: e, pulsesPerBar: pattern.bar.meter.pulsesPerBar), ordering: .relaxed)
            status.beat.store(index + 1, ordering: .relaxed)
            status.lastAccent.store(accent.rawValue, ordering: .relaxed)
            publishPractice(at: e, status: status)
            switch accent {
            case .silent: return
            case .normal: sound = .beat
            case .accent: sound = .accent
            case .soft: sound = .beat; scale = Accent.softGain
            }
        case .subdivision:
            sound = .subdivision
        }
        // A gap bar: the beat is counted and shown, its click silent.
        guard !gapMutes(at: e) else { return }
        var frame = gridFrame
        if sound == .subdivision, pattern.swungPulse(tempo: grid.tempo) != nil {
            // `--swing`: between this pulse and the next, at the exact fraction of the beat's frames.
            let beat = pattern.bar.meter.pulsesPerBeat
            let beatStart = e - song.barRelative(e) % beat
            frame = pattern.swungFrame(beatStart: grid.frame(of: beatStart), beatEnd: grid.frame(of: beatStart + beat))
        }
        audio.click(sound, gridFrame: frame, blockStart: blockStart, status: status, scale: scale)
    }
}


extension Engine {
    /// Anything that moves the grid, the song or the agenda (a command, a time
    /// source's position, a skip, a locate, a new rate) makes the points the
    /// last block cached wrong: the next point it stopped at (`nextPoint`) and
    /// the grid as it was before a change applied early (`heldView`, read by
    /// `barBeatTick`). The one place they are forgotten; `advanceGrid` then
    /// finds the next point afresh.
    mutating func forgetCachedPoints() {
        nextPoint = nil
        heldView = nil
    }
}

/// A pulse of the grid and its frame.
struct GridPoint: BitwiseCopyable {
    var pulse: Int64
    var frame: Int64
}
