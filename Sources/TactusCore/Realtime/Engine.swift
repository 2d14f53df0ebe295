/// How an engine starts.
public struct EngineConfiguration: Sendable {
    public var sampleRate: Int
    public var tempo: BPM
    public var bar: BarSettings
    public var gains: SoundGains
    /// Delay of the MIDI clock against the click, in frames; negative delays the click.
    public var clockOffsetFrames: Int32
    public var clockWhileStopped: Bool
    public var sendSongPosition: Bool
    public var muted: Bool
    /// Feedback cues also as MIDI notes on the clock stream; nil: sound only.
    public var feedbackNotes: FeedbackNotes?

    public init(sampleRate: Int, tempo: BPM = BPM(120), bar: BarSettings = BarSettings(), gains: SoundGains = SoundGains(),
                clockOffsetFrames: Int32 = 0, clockWhileStopped: Bool = false, sendSongPosition: Bool = true, muted: Bool = false,
                feedbackNotes: FeedbackNotes? = nil) {
        self.sampleRate = sampleRate
        self.tempo = tempo
        self.bar = bar
        self.gains = gains
        self.clockOffsetFrames = clockOffsetFrames
        self.clockWhileStopped = clockWhileStopped
        self.sendSongPosition = sendSongPosition
        self.muted = muted
        self.feedbackNotes = feedbackNotes
    }
}

/// A click waiting for its frame.
struct TimedClick: BitwiseCopyable {
    var frame: Int64
    var sound: ClickSound
}

/// The metronome: from a tempo, a meter and a frame position it renders click
/// audio and the MIDI beat clock for any block of frames.
///
/// The one timing path of Tactus: the JACK process callback, `tactus render` and
/// the tests all call `render`. It keeps the LV2 shape: everything is allocated
/// in `init`; `render` allocates nothing, takes no lock and makes no system call,
/// so it is safe on the real-time thread.
///
/// Time is counted in pulses (96 per quarter note, see `Grid`), positioned in
/// frames by a `GridAnchor`. MIDI clock is every 4th pulse; clicks fall on beats
/// and their subdivisions. Every change (tempo, bar, transport) takes effect on a
/// pulse, tempo changes on the next clock tick, where the grid is re-anchored.
public struct Engine: ~Copyable {
    public let sampleRate: Int

    // Sound.
    private var sounds: SoundSet
    private var clickVoices = VoicePool()
    private var feedbackVoices = VoicePool()
    private var gains: SoundGains
    private var muted: Bool

    // The grid.
    private var tempo: BPM
    private var bar: BarSettings
    private var anchor: GridAnchor
    /// The next pulse not yet processed.
    private var cursor: Int64 = 0
    /// Whether the grid advances: while running, or stopped with clock-while-stopped.
    private var rolling = false

    // The song (transport).
    private var running = false
    /// Grid pulse of song position 0.
    private var songOrigin: Int64 = 0
    /// Song pulse of a bar line of the current meter, and that bar's number.
    private var meterOriginSong: Int64 = 0
    private var meterOriginBar = 1
    /// Clocks sent since song position 0 (the slave's position, in clocks).
    private var songClocks: Int64 = 0
    /// Where Continue resumes, in song pulses.
    private var resumeSongPulse: Int64 = 0
    private var pendingTransport = PendingTransport.none
    private var pendingTransportPulse: Int64 = 0

    // Changes waiting for their pulse.
    private var pendingTempo: BPM?
    private var pendingTempoPulse: Int64 = 0
    private var pendingBar: BarSettings?
    private var pendingBarTempo: BPM?
    private var pendingBarPoint = SwitchPoint.nextBar
    private var pendingBarPulse: Int64 = 0
    /// The sounds and gains of the pending bar change, for its first click.
    private var pendingSound = SoundChange()
    /// Those of a bar change that took effect, swapped in by `renderClicks` at
    /// `scheduledSoundFrame` (its first click's frame).
    private var scheduledSound = SoundChange()
    private var scheduledSoundFrame: Int64 = 0

    // Output.
    private var clockDelay: Int64 = 0
    private var clickDelay: Int64 = 0
    private var clockWhileStopped: Bool
    private var sendSongPosition: Bool
    private var midiQueue = EventQueue<TimedMIDIEvent>(capacity: 1024)
    private var clickQueue = EventQueue<TimedClick>(capacity: 512)
    private var lastMIDIFrame: Int64 = .min
    /// Events later than this are dropped rather than sent late (a long xrun).
    private let maximumLateness: Int64
    private var feedbackNotes: FeedbackNotes?
    /// Output frame of the Note Off each feedback note still owes (impact, selection,
    /// maximum, commit), or nil: at most one sounding note per cue.
    private var pendingNoteOffs: (Int64?, Int64?, Int64?, Int64?) = (nil, nil, nil, nil)

    private enum PendingTransport: BitwiseCopyable {
        case none
        case start
        case resume
        /// Stop, Song Position, Continue at a new position (locate while running).
        case relocate
    }

    public init(configuration c: EngineConfiguration, sounds: SoundSet) {
        sampleRate = c.sampleRate
        self.sounds = sounds
        gains = c.gains
        muted = c.muted
        tempo = c.tempo
        bar = c.bar
        anchor = GridAnchor(frame: 0, pulse: 0, sampleRate: c.sampleRate, tempo: c.tempo, pulsesPerBeat: c.bar.meter.pulsesPerBeat)
        clockWhileStopped = c.clockWhileStopped
        sendSongPosition = c.sendSongPosition
        maximumLateness = Int64(c.sampleRate / 4)
        feedbackNotes = c.feedbackNotes
        setClockOffset(c.clockOffsetFrames)
    }

    /// The sound set in use (to free it when the engine is gone).
    public var soundSet: SoundSet { sounds }

    /// Sets held for a preset switch not yet heard (waiting for its bar line, or
    /// for its frame in this block): whoever discards this engine (a sample-rate
    /// rebuild) frees them with `soundSet`. Not for the render thread.
    public var unheardSoundSets: [SoundSet] { [pendingSound.sounds, scheduledSound.sounds].compactMap { $0 } }

    /// The settings in force now (after every command applied so far), to build an
    /// engine at another sample rate that sounds the same (JACK server restarted at
    /// a new rate). The clock offset is scaled to keep its duration.
    public func configuration(atSampleRate rate: Int) -> EngineConfiguration {
        let offsetFrames = clockDelay - clickDelay
        return EngineConfiguration(
            sampleRate: rate, tempo: pendingBarTempo ?? pendingTempo ?? tempo, bar: pendingBar ?? bar, gains: pendingSound.gains ?? scheduledSound.gains ?? gains,
            clockOffsetFrames: Int32(clamping: (offsetFrames * Int64(rate) + Int64(sampleRate / 2)) / Int64(sampleRate)),
            clockWhileStopped: clockWhileStopped, sendSongPosition: sendSongPosition, muted: muted, feedbackNotes: feedbackNotes)
    }

    /// Stops every click and cue sounding now, keeping the grid: for an output cut
    /// off mid-click (a JACK server gone), whose rest would otherwise begin, on the
    /// next server, whole periods after its grid frame. Not for the render thread
    /// while it renders: call it only when no render runs (like `configuration`).
    public mutating func silence() {
        clickVoices.stopAll()
        feedbackVoices.stopAll()
    }

    // MARK: - Render

    /// Renders `frames` frames starting at absolute frame `start`.
    ///
    /// Applies every queued command, then writes the click
    /// into `click` and feedback cues into `feedback` (each `frames` long, may be
    /// nil) and the MIDI events of the block into `events` (cleared first).
    /// Consecutive calls normally continue where the last ended; a later `start`
    /// (skipped cycles) keeps the grid where it was in time: what fell in the gap
    /// is late, sent at the block's first frame if it is MIDI and not too late.
    public mutating func render(frames: Int, at start: Int64, control: borrowing EngineControl,
                                click: UnsafeMutablePointer<Float>?, feedback: UnsafeMutablePointer<Float>?,
                                events: inout MIDIEventBuffer) {
        events.removeAll()
        // A plain loop: the optimiser makes it a memset, and the real-time checker
        // can see through it (it cannot see into the stdlib's update(repeating:)).
        if let click { for i in 0..<frames { click[i] = 0 } }
        if let feedback { for i in 0..<frames { feedback[i] = 0 } }
        let end = start + Int64(frames)

        while let command = control.commands.pop() {
            apply(command, blockStart: start, control: control)
        }

        advanceGrid(blockStart: start, blockEnd: end, status: control.status, retired: control.retiredSounds)
        flushNoteOffs(before: end)

        while let event = midiQueue.first, event.frame < end {
            events.append(event)
            midiQueue.removeFirst()
        }
        // Cues first: a preset's sounds swapped in mid-block (renderClicks) stop them.
        if let feedback {
            feedbackVoices.mix(into: feedback, from: 0, to: frames, sounds: sounds)
        } else {
            feedbackVoices.skip(frames, sounds: sounds)
        }
        renderClicks(blockStart: start, frames: frames, into: click, control: control)

        control.status.running.store(running, ordering: .relaxed)
        control.status.tempoHundredths.store(tempo.hundredths, ordering: .relaxed)
        control.status.beatsPerBar.store(bar.meter.beatsPerBar, ordering: .relaxed)
        control.status.frame.store(start, ordering: .releasing)
    }

    // MARK: - Commands

    private mutating func apply(_ command: EngineCommand, blockStart: Int64, control: borrowing EngineControl) {
        switch command {
        case .start:
            beginRolling(at: blockStart)
            pendingTransport = .start
            pendingTransportPulse = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
        case .continue:
            guard !running else { return }
            beginRolling(at: blockStart)
            pendingTransport = .resume
            pendingTransportPulse = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
        case .stop:
            stop(at: blockStart, control: control)
        case .locate(let barNumber):
            resumeSongPulse = Int64(max(0, barNumber - 1)) * bar.meter.pulsesPerBar
            meterOriginSong = 0
            meterOriginBar = 1
            if running {
                pendingTransport = .relocate
                pendingTransportPulse = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
            } else {
                songClocks = resumeSongPulse / Grid.pulsesPerClock
                sendSongPositionPointer(at: blockStart)
            }
        case .changeBar(let settings, let newTempo, let point, let newSounds, let newGains):
            if running {
                pendingSound.take(SoundChange(sounds: newSounds, gains: newGains), retired: control.retiredSounds)
                pendingBar = settings
                pendingBarTempo = newTempo
                pendingBarPoint = point
                pendingBarPulse = nextSwitchPulse(atOrAfter: cursor, point: point)
                if let t = pendingTempo, pendingTempoPulse >= pendingBarPulse {
                    pendingBarTempo = pendingBarTempo ?? t
                    pendingTempo = nil
                }
            } else {
                // Stopped: a new bar setting starts a new song from bar 1.
                if rolling { reanchor(at: roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)) }
                bar = settings
                if let newTempo { tempo = newTempo }
                pendingTempo = nil
                resumeSongPulse = 0
                meterOriginSong = 0
                meterOriginBar = 1
                songClocks = 0
                refreshAnchor()
                apply(SoundChange(sounds: newSounds, gains: newGains), control: control)
                control.status.barChanges.add(1, ordering: .relaxed)
            }
        case .setTempo(let t):
            request(tempo: t)
        case .cue(let sound):
            feedbackVoices.start(sound, gain: gains.gain(for: sound))
            noteOn(for: sound, blockStart: blockStart)
        case .setFeedbackNotes(let notes):
            flushNoteOffs(before: .max)
            feedbackNotes = notes
        case .setGains(let g):
            gains = g
        case .setMuted(let m):
            muted = m
        case .setClockOffset(let frames):
            setClockOffset(frames)
        case .setClockWhileStopped(let on):
            clockWhileStopped = on
            if on { beginRolling(at: blockStart) } else if !running && pendingTransport == .none { rolling = false }
        case .setSongPositionEnabled(let on):
            sendSongPosition = on
        case .replaceSounds(let set):
            replace(sounds: set, control: control)
        }
    }

    /// A preset's sounds and gains from now on (either may be nil: unchanged).
    private mutating func apply(_ change: SoundChange, control: borrowing EngineControl) {
        if let set = change.sounds { replace(sounds: set, control: control) }
        if let g = change.gains { gains = g }
    }

    /// Plays from `set` from now on. Voices sounding stop: their positions index
    /// the old buffers, which go back to the control thread to be freed.
    private mutating func replace(sounds set: SoundSet, control: borrowing EngineControl) {
        clickVoices.stopAll()
        feedbackVoices.stopAll()
        control.retiredSounds.push(sounds)
        sounds = set
    }

    private mutating func setClockOffset(_ frames: Int32) {
        clockDelay = max(0, Int64(frames))
        clickDelay = max(0, -Int64(frames))
    }

    /// Starts the grid at the block's first frame if it was not running.
    private mutating func beginRolling(at blockStart: Int64) {
        guard !rolling else { return }
        rolling = true
        cursor = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
        if let t = pendingTempo { tempo = t; pendingTempo = nil }
        anchor = GridAnchor(frame: blockStart, pulse: cursor, sampleRate: sampleRate, tempo: tempo, pulsesPerBeat: bar.meter.pulsesPerBeat)
    }

    private mutating func stop(at blockStart: Int64, control: borrowing EngineControl) {
        if pendingTransport != .none && !running {
            pendingTransport = .none
            if !clockWhileStopped { rolling = false }
            return
        }
        guard running else { return }
        running = false
        pendingTransport = .none
        // A pending bar change never reached its bar line: it becomes the new song's setting.
        if let settings = pendingBar {
            bar = settings
            if let t = pendingBarTempo { tempo = t }
            pendingBar = nil
            meterOriginSong = 0
            meterOriginBar = 1
            apply(pendingSound, control: control)
            pendingSound = SoundChange()
        }
        emitMIDI(MIDIBytes(MIDIStatus.stop), gridFrame: blockStart)
        resumeSongPulse = (songClocks / Grid.clocksPerMIDIBeat) * Grid.pulsesPerMIDIBeat
        songClocks = resumeSongPulse / Grid.pulsesPerClock
        sendSongPositionPointer(at: blockStart)
        if !clockWhileStopped {
            rolling = false
            if let t = pendingTempo { tempo = t; pendingTempo = nil }
        }
    }

    private mutating func sendSongPositionPointer(at frame: Int64) {
        guard sendSongPosition, let beats = SongPosition.midiBeats(afterClocks: resumeSongPulse / Grid.pulsesPerClock) else { return }
        emitMIDI(MIDIMessage.songPosition(beats).bytes, gridFrame: frame)
    }

    private mutating func request(tempo newTempo: BPM) {
        if pendingBar != nil {
            pendingBarTempo = newTempo
        } else if !rolling {
            tempo = newTempo
        } else {
            pendingTempo = newTempo
            pendingTempoPulse = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
        }
    }

    // MARK: - The grid

    private mutating func reanchor(at pulse: Int64) {
        anchor = GridAnchor(frame: anchor.frame(of: pulse), pulse: pulse, sampleRate: sampleRate, tempo: tempo, pulsesPerBeat: bar.meter.pulsesPerBeat)
    }

    /// After tempo or meter changed at the anchor pulse itself.
    private mutating func refreshAnchor() {
        anchor = GridAnchor(frame: anchor.frame, pulse: anchor.pulse, sampleRate: sampleRate, tempo: tempo, pulsesPerBeat: bar.meter.pulsesPerBeat)
    }

    private var subdivisionsOn: Bool { bar.subdivision != .none && tempo < Subdivision.cutoff }

    /// Song pulse of grid pulse `p`, relative to the current meter's bar lines.
    private func barRelative(_ p: Int64) -> Int64 { p - songOrigin - meterOriginSong }

    private func nextClickPulse(atOrAfter p: Int64) -> Int64 {
        let beat = bar.meter.pulsesPerBeat
        let step = subdivisionsOn ? beat / Int64(bar.subdivision.divisions) : beat
        return roundUp(barRelative(p), toMultipleOf: step) + songOrigin + meterOriginSong
    }

    private func nextSwitchPulse(atOrAfter p: Int64, point: SwitchPoint) -> Int64 {
        let step = point == .nextBar ? bar.meter.pulsesPerBar : bar.meter.pulsesPerBeat
        return roundUp(barRelative(p), toMultipleOf: step) + songOrigin + meterOriginSong
    }

    private mutating func advanceGrid(blockStart: Int64, blockEnd: Int64, status: borrowing EngineStatus, retired: borrowing SPSCRing<SoundSet>) {
        guard rolling else { return }
        skipAhead(to: blockStart, status: status)
        while true {
            var e = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
            if running { e = min(e, nextClickPulse(atOrAfter: cursor)) }
            if pendingTempo != nil { e = min(e, pendingTempoPulse) }
            if pendingBar != nil { e = min(e, pendingBarPulse) }
            if pendingTempo != nil, pendingTempoPulse == e {
                reanchor(at: e)
                tempo = pendingTempo!
                pendingTempo = nil
                refreshAnchor()
            }
            if pendingBar != nil, pendingBarPulse == e {
                applyPendingBar(at: e, status: status, retired: retired)
            }
            let gridFrame = anchor.frame(of: e)
            if gridFrame >= blockEnd { break }
            if pendingTransport != .none, pendingTransportPulse == e {
                startSong(at: e, gridFrame: gridFrame)
            }
            if e % Grid.pulsesPerClock == 0 {
                flushNoteOffs(before: gridFrame + clockDelay + 1)
                emitMIDI(MIDIBytes(MIDIStatus.timingClock), gridFrame: gridFrame, lateFrom: blockStart, status: status)
                status.clocksSent.add(1, ordering: .relaxed)
                if running { songClocks += 1 }
            }
            if running { clickIfAny(at: e, gridFrame: gridFrame, blockStart: blockStart, status: status) }
            cursor = e + 1
        }
    }

    /// After a long gap (xruns, a stalled server) jump the cursor to the block
    /// instead of walking through pulses that are too late to send.
    private mutating func skipAhead(to blockStart: Int64, status: borrowing EngineStatus) {
        let horizon = blockStart - maximumLateness
        guard anchor.frame(of: cursor) < horizon else { return }
        if let t = pendingTempo { reanchor(at: cursor); tempo = t; pendingTempo = nil; refreshAnchor() }
        let target = max(cursor, anchor.pulse(atOrBefore: horizon) + 1)
        let firstClock = roundUp(cursor, toMultipleOf: Grid.pulsesPerClock)
        let skippedClocks = target > firstClock ? (target - firstClock + Grid.pulsesPerClock - 1) / Grid.pulsesPerClock : 0
        status.droppedEvents.add(Int(skippedClocks), ordering: .relaxed)
        if running { songClocks += skippedClocks }
        cursor = target
        if pendingTransport != .none { pendingTransportPulse = max(pendingTransportPulse, roundUp(target, toMultipleOf: Grid.pulsesPerClock)) }
        if pendingBar != nil { pendingBarPulse = max(pendingBarPulse, nextSwitchPulse(atOrAfter: target, point: pendingBarPoint)) }
    }

    private mutating func applyPendingBar(at e: Int64, status: borrowing EngineStatus, retired: borrowing SPSCRing<SoundSet>) {
        guard let settings = pendingBar else { return }
        reanchor(at: e)
        let rel = barRelative(e)
        let barLength = bar.meter.pulsesPerBar
        let newBarNumber = meterOriginBar + Int(rel / barLength) + (rel % barLength == 0 ? 0 : 1)
        bar = settings
        if let t = pendingBarTempo { tempo = t }
        pendingBar = nil
        pendingBarTempo = nil
        meterOriginSong = e - songOrigin
        meterOriginBar = newBarNumber
        refreshAnchor()
        if !pendingSound.isEmpty {
            // Two bar changes within one block: the earlier set never sounded.
            scheduledSound.take(pendingSound, retired: retired)
            scheduledSoundFrame = anchor.frame(of: e) + clickDelay
            pendingSound = SoundChange()
        }
        status.barChanges.add(1, ordering: .relaxed)
    }

    /// Start, Continue or a relocation, on the clock tick at pulse `e`.
    private mutating func startSong(at e: Int64, gridFrame: Int64) {
        switch pendingTransport {
        case .none:
            return
        case .start:
            songOrigin = e
            meterOriginSong = 0
            meterOriginBar = 1
            songClocks = 0
            emitMIDI(MIDIBytes(MIDIStatus.start), gridFrame: gridFrame)
        case .resume:
            songOrigin = e - resumeSongPulse
            songClocks = resumeSongPulse / Grid.pulsesPerClock
            sendSongPositionPointer(at: gridFrame)
            emitMIDI(MIDIBytes(MIDIStatus.continue), gridFrame: gridFrame)
        case .relocate:
            emitMIDI(MIDIBytes(MIDIStatus.stop), gridFrame: gridFrame)
            songOrigin = e - resumeSongPulse
            songClocks = resumeSongPulse / Grid.pulsesPerClock
            sendSongPositionPointer(at: gridFrame)
            emitMIDI(MIDIBytes(MIDIStatus.continue), gridFrame: gridFrame)
        }
        pendingTransport = .none
        running = true
    }

    private mutating func clickIfAny(at e: Int64, gridFrame: Int64, blockStart: Int64, status: borrowing EngineStatus) {
        let beatLength = bar.meter.pulsesPerBeat
        let inBar = barRelative(e) % bar.meter.pulsesPerBar
        let beatIndex = Int(inBar / beatLength)
        let withinBeat = inBar % beatLength
        let sound: ClickSound
        if withinBeat == 0 {
            let accent = bar.accents[beatIndex]
            status.bar.store(meterOriginBar + Int(barRelative(e) / bar.meter.pulsesPerBar), ordering: .relaxed)
            status.beat.store(beatIndex + 1, ordering: .relaxed)
            status.lastAccent.store(accent.rawValue, ordering: .relaxed)
            switch accent {
            case .silent: return
            case .normal: sound = .beat
            case .accent: sound = .accent
            }
        } else {
            guard subdivisionsOn else { return }
            let step = beatLength / Int64(bar.subdivision.divisions)
            guard withinBeat % step == 0, bar.subdivision.clicks(atPart: Int(withinBeat / step)) else { return }
            sound = .subdivision
        }
        guard !muted else { return }
        let frame = gridFrame + clickDelay
        if frame < blockStart {
            status.droppedEvents.add(1, ordering: .relaxed)
            return
        }
        if clickQueue.append(TimedClick(frame: frame, sound: sound)) {
            status.clicksPlayed.add(1, ordering: .relaxed)
        } else {
            status.droppedEvents.add(1, ordering: .relaxed)
        }
    }

    // MARK: - Output

    private mutating func emitMIDI(_ bytes: MIDIBytes, gridFrame: Int64) {
        var frame = gridFrame + clockDelay
        frame = max(frame, lastMIDIFrame)
        if midiQueue.append(TimedMIDIEvent(frame: frame, bytes: bytes)) { lastMIDIFrame = frame }
    }

    /// A clock tick whose frame may already have passed (after skipped cycles):
    /// sent at the block's first frame when slightly late, dropped when very late.
    private mutating func emitMIDI(_ bytes: MIDIBytes, gridFrame: Int64, lateFrom blockStart: Int64, status: borrowing EngineStatus) {
        var frame = gridFrame + clockDelay
        if frame < blockStart {
            if blockStart - frame > maximumLateness {
                status.droppedEvents.add(1, ordering: .relaxed)
                return
            }
            status.lateEvents.add(1, ordering: .relaxed)
            frame = blockStart
        }
        frame = max(frame, lastMIDIFrame)
        if midiQueue.append(TimedMIDIEvent(frame: frame, bytes: bytes)) {
            lastMIDIFrame = frame
        } else {
            status.droppedEvents.add(1, ordering: .relaxed)
        }
    }

    // MARK: - Feedback notes

    private func noteOffFrame(_ index: Int) -> Int64? {
        switch index {
        case 0: pendingNoteOffs.0
        case 1: pendingNoteOffs.1
        case 2: pendingNoteOffs.2
        default: pendingNoteOffs.3
        }
    }

    private mutating func setNoteOffFrame(_ index: Int, _ frame: Int64?) {
        switch index {
        case 0: pendingNoteOffs.0 = frame
        case 1: pendingNoteOffs.1 = frame
        case 2: pendingNoteOffs.2 = frame
        default: pendingNoteOffs.3 = frame
        }
    }

    private static func cueIndex(_ sound: ClickSound) -> Int { sound.rawValue - ClickSound.impact.rawValue }

    /// The cue's Note On at the block's first frame (where its sound starts), after
    /// any Note Off the same cue still owes, so a fast repeat retriggers the pad.
    private mutating func noteOn(for sound: ClickSound, blockStart: Int64) {
        guard let notes = feedbackNotes, let note = notes.note(for: sound) else { return }
        let index = Engine.cueIndex(sound)
        let frame = max(blockStart + clockDelay, lastMIDIFrame)
        if noteOffFrame(index) != nil {
            setNoteOffFrame(index, frame)
            sendNoteOff(index, notes)
        }
        if midiQueue.append(TimedMIDIEvent(frame: frame, bytes: MIDIMessage.noteOn(channel: notes.channel, note: note, velocity: notes.velocity).bytes)) {
            lastMIDIFrame = frame
            setNoteOffFrame(index, frame + Int64(notes.lengthMilliseconds * sampleRate / 1000))
        }
    }

    /// Sends the Note Offs due before `frame`, in frame order with everything else
    /// in the queue (a Note Off never goes before an event already queued).
    private mutating func flushNoteOffs(before frame: Int64) {
        guard let notes = feedbackNotes else { return }
        while true {
            var earliest = -1
            for i in 0..<4 {
                if let f = noteOffFrame(i), f < frame, earliest < 0 || f < noteOffFrame(earliest)! { earliest = i }
            }
            if earliest < 0 { return }
            sendNoteOff(earliest, notes)
        }
    }

    private mutating func sendNoteOff(_ index: Int, _ notes: FeedbackNotes) {
        guard let due = noteOffFrame(index) else { return }
        setNoteOffFrame(index, nil)
        let sound = ClickSound(rawValue: ClickSound.impact.rawValue + index) ?? .impact
        guard let note = notes.note(for: sound) else { return }
        let frame = max(due, lastMIDIFrame)
        if midiQueue.append(TimedMIDIEvent(frame: frame, bytes: MIDIMessage.noteOff(channel: notes.channel, note: note, velocity: .zero).bytes)) {
            lastMIDIFrame = frame
        }
    }

    private mutating func renderClicks(blockStart: Int64, frames: Int, into out: UnsafeMutablePointer<Float>?,
                                       control: borrowing EngineControl) {
        let end = blockStart + Int64(frames)
        var position = 0
        while true {
            var clickFrame = Int64.max
            if let click = clickQueue.first { clickFrame = click.frame }
            let swapFrame = scheduledSound.isEmpty ? Int64.max : scheduledSoundFrame
            let next = min(clickFrame, swapFrame)
            guard next < end else { break }
            let offset = max(position, Int(next - blockStart))
            if let out { clickVoices.mix(into: out, from: position, to: offset, sounds: sounds) } else { clickVoices.skip(offset - position, sounds: sounds) }
            position = offset
            // The new sounds before the click on the same frame: a bar's first click is the new preset's.
            if swapFrame <= clickFrame {
                apply(scheduledSound, control: control)
                scheduledSound = SoundChange()
            } else if let click = clickQueue.first {
                clickVoices.start(click.sound, gain: gains.gain(for: click.sound))
                clickQueue.removeFirst()
            }
        }
        if let out { clickVoices.mix(into: out, from: position, to: frames, sounds: sounds) } else { clickVoices.skip(frames - position, sounds: sounds) }
    }
}

/// A preset's sounds and gains riding on a bar change, each nil when unchanged.
struct SoundChange: BitwiseCopyable {
    var sounds: SoundSet?
    var gains: SoundGains?

    var isEmpty: Bool { sounds == nil && gains == nil }

    /// Takes what `newer` changes; a set it replaces never sounded and goes to `retired`.
    mutating func take(_ newer: SoundChange, retired: borrowing SPSCRing<SoundSet>) {
        if let set = newer.sounds {
            if let unused = sounds { retired.push(unused) }
            sounds = set
        }
        if let g = newer.gains { gains = g }
    }
}

#if REALTIME_CHECKS
/// The compiler's proof that `Engine.render` takes no lock and allocates nothing:
/// `@_noLocks @_noAllocation` makes the optimizer reject any lock, allocation,
/// reference counting, existential or runtime metadata in this function and
/// everything it calls. It needs the whole module in view, so it is compiled in
/// release builds (whole-module optimization); it is never called.
@_noLocks @_noAllocation
func realtimeCheckOfRender(_ engine: inout Engine, control: UnsafePointer<EngineControl>, click: UnsafeMutablePointer<Float>,
                           events: inout MIDIEventBuffer) {
    engine.render(frames: 256, at: 0, control: control.pointee, click: click, feedback: click, events: &events)
}
#endif
