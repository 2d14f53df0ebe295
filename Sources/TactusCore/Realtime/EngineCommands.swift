/// The engine's commands from the control thread, applied at the start of a
/// render call (docs/DESIGN.md §4, §8).
extension Engine {
    mutating func apply(_ command: EngineCommand, blockStart: Int64, control: borrowing EngineControl) {
        forgetCachedPoints()
        // What the block's source owns is asked of it, not played (docs/DESIGN.md §9).
        if owner.transport {
            switch command {
            case .start, .continue: sourceRequests.running = true; return
            case .stop: sourceRequests.running = false; return
            default: break
            }
        }
        if owner.tempo {
            switch command {
            case .setTempo(let tempo): sourceRequests.ask(tempo: tempo); return
            case .changeBar(let settings, let tempo?, let point, let sounds, let gains, let request):
                // The tempo goes to the source; the bar still lands on its bar line.
                sourceRequests.ask(tempo: tempo)
                apply(.changeBar(settings, tempo: nil, at: point, sounds: sounds, gains: gains, request: request), blockStart: blockStart, control: control)
                return
            default: break
            }
        }
        switch command {
        case .start:
            beginRolling(at: blockStart)
            agenda.schedule(AgendaEntry(pulse: nextClock, change: .transport(.start)))
        case .continue:
            guard !song.running else { return }
            beginRolling(at: blockStart)
            agenda.schedule(AgendaEntry(pulse: nextClock, change: .transport(.resume)))
        case .stop:
            stop(at: blockStart, control: control)
        case .locate(let bar):
            song.locate(bar: Int(bar), pulsesPerBar: pattern.bar.meter.pulsesPerBar)
            if song.running {
                agenda.schedule(AgendaEntry(pulse: nextClock, change: .transport(.relocate)))
            } else {
                sendSongPositionPointer(at: blockStart)
            }
        case .locateTransport(let frame):
            apply(.locate(bar: transportBar(atFrame: frame)), blockStart: blockStart, control: control)
        case .setTempo(let tempo):
            request(tempo: tempo)
        case .changeBar(let settings, let tempo, let point, let sounds, let gains, let request):
            changeBar(BarChange(settings: settings, tempo: tempo, point: point, sound: SoundChange(sounds: sounds, gains: gains), request: request),
                      control: control)
        case .anchorBar(let settings, let songPulse, let bar):
            // Resolved after the time source's position for this block (`Engine.resolve(_:status:retired:)`, EngineBarAnchor.swift).
            barAnchor = BarAnchor(settings: settings, line: BarLine(songPulse: songPulse, number: Int(bar)))
        case .cue(let sound):
            audio.cue(sound)
            midi.noteOn(for: sound, blockStart: blockStart, sampleRate: sampleRate)
        case .setFeedbackNotes(let notes):
            midi.setFeedbackNotes(notes)
        case .setGains(let g):
            audio.setGains(g)
        case .setMuted(let m):
            audio.muted = m
        case .setClockOffset(let frames):
            setClockOffset(frames)
        case .setAlignment(let shifts):
            setAlignment(shifts)
        case .setClockWhileStopped(let on):
            clockWhileStopped = on
            if on { beginRolling(at: blockStart) } else if !song.running && agenda.entry(.transport) == nil { rolling = false }
        case .setSongPositionEnabled(let on):
            sendSongPosition = on
        case .setPractice(.countIn(let countIn)):
            practice.countIn = countIn
        case .setPractice(.trainer(let trainer)):
            practice.trainer = trainer
            if trainer == nil { _ = agenda.remove(.trainer) }
        case .setPractice(.gap(let gap)):
            practice.gap = gap
        case .replaceSounds(let set):
            audio.replace(sounds: set, retired: control.retiredSounds)
        }
    }

    var nextClock: Int64 { roundUp(cursor, toMultipleOf: Grid.pulsesPerClock) }

    mutating func changeBar(_ new: BarChange, control: borrowing EngineControl) {
        if song.running {
            var change = new
            // A switch overtaken before its bar line: its sounds never played.
            if case .bar(let older)? = agenda.remove(.bar)?.change {
                change.sound = older.sound
                change.sound.take(new.sound, retired: control.retiredSounds)
            }
            let pulse = song.gridPulse(barRelative: pattern.nextSwitchPulse(atOrAfter: song.barRelative(cursor), point: new.point))
            if let tempo = agenda.entry(.tempo), tempo.pulse >= pulse, case .tempo(let t) = tempo.change {
                change.tempo = change.tempo ?? t
                _ = agenda.remove(.tempo)
            }
            agenda.schedule(AgendaEntry(pulse: pulse, change: .bar(change)))
        } else {
            // Stopped: a new bar setting starts a new song from bar 1.
            _ = agenda.remove(.tempo)
            adoptBarNow(new, retired: control.retiredSounds)
            song.newSong()
            heard(new, status: control.status)
        }
    }

    /// A bar change taken at once, with no bar line to wait for (the song is
    /// stopped): its meter, tempo and sounds from the next clock tick if the
    /// grid rolls on its own time, else for when it starts (a time source's
    /// measured map keeps the rest of its cycle).
    mutating func adoptBarNow(_ change: BarChange, retired: borrowing SPSCRing<SoundSet>) {
        pattern.bar = change.settings
        if rolling && !grid.isFollowing {
            grid.change(tempo: change.tempo, pulsesPerBeat: change.settings.meter.pulsesPerBeat, at: nextClock)
        } else {
            grid.set(tempo: change.tempo, pulsesPerBeat: change.settings.meter.pulsesPerBeat)
        }
        audio.apply(change.sound, retired: retired)
    }

    mutating func request(tempo: BPM) {
        if case .bar(var change)? = agenda.entry(.bar)?.change, let pulse = agenda.entry(.bar)?.pulse {
            change.tempo = tempo
            agenda.schedule(AgendaEntry(pulse: pulse, change: .bar(change)))
        } else if !rolling {
            grid.set(tempo: tempo)
        } else {
            agenda.schedule(AgendaEntry(pulse: nextClock, change: .tempo(tempo)))
        }
    }

    /// Starts the grid at the block's first frame if it was not running.
    mutating func beginRolling(at blockStart: Int64) {
        guard !rolling else { return }
        rolling = true
        cursor = nextClock
        if case .tempo(let t)? = agenda.remove(.tempo)?.change { grid.set(tempo: t) }
        grid.start(pulse: cursor, at: blockStart)
    }

    mutating func stop(at blockStart: Int64, control: borrowing EngineControl) {
        if agenda.entry(.transport) != nil && !song.running {
            _ = agenda.remove(.transport)
            stopPractice()
            if !clockWhileStopped { rolling = false }
            return
        }
        guard song.running else { return }
        song.stop()
        stopMap()
        stopPractice()
        _ = agenda.remove(.transport)
        // A pending bar change never reached its bar line: it becomes the new song's setting.
        if case .bar(let change)? = agenda.remove(.bar)?.change {
            adoptBarNow(change, retired: control.retiredSounds)
            song.restartMeter()
        }
        midi.emit(.stop, gridFrame: blockStart)
        sync.run(false, at: blockStart + sync.delay, status: control.status)
        sendSongPositionPointer(at: blockStart)
        if !clockWhileStopped {
            rolling = false
            if case .tempo(let t)? = agenda.remove(.tempo)?.change { grid.set(tempo: t) }
        }
    }

    mutating func sendSongPositionPointer(at frame: Int64) {
        guard sendSongPosition, let beats = song.songPositionBeats else { return }
        midi.emit(.songPosition(beats), gridFrame: frame)
    }

}
