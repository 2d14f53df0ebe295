/// The clock stream on its way out: every MIDI event the engine emits, built
/// from a typed `MIDIMessage`, delayed by the clock offset, kept in frame order,
/// and held until the block that contains its frame.
///
/// Frame order is a promise to JACK (`jack_midi_event_write` wants events in
/// order) and to the ALSA thread: an event never goes before one already
/// queued (`lastFrame`). Feedback-cue notes (Note On at the cue, Note Off
/// `lengthMilliseconds` later) ride on the same stream.
struct MIDIOutput: ~Copyable {
    private var queue = MIDIEventQueue(capacity: 1024)
    private var lastFrame: Int64 = .min
    /// Delay of the clock stream against the grid (a positive clock offset).
    private(set) var delay: Int64 = 0
    /// Events later than this are dropped rather than sent late (a long xrun).
    private(set) var maximumLateness: Int64
    private(set) var feedbackNotes: FeedbackNotes?
    /// Output frame of the Note Off each cue (impact, selection, maximum, commit)
    /// still owes, or nil: at most one sounding note per cue.
    private var noteOffs: (Int64?, Int64?, Int64?, Int64?) = (nil, nil, nil, nil)

    init(maximumLateness: Int64, feedbackNotes: FeedbackNotes?) {
        self.maximumLateness = maximumLateness
        self.feedbackNotes = feedbackNotes
    }

    mutating func setDelay(_ frames: Int64) { delay = frames }

    /// `message` at grid frame `gridFrame` (plus the delay), after anything queued.
    mutating func emit(_ message: MIDIMessage, gridFrame: Int64) {
        let frame = max(gridFrame + delay, lastFrame)
        if queue.append(TimedMIDIEvent(frame: frame, bytes: message.bytes)) { lastFrame = frame }
    }

    /// A clock tick whose frame may already have passed (after skipped cycles):
    /// sent at the block's first frame when slightly late, dropped when later
    /// than `maximumLateness`, so a slave never gets a burst of stale ticks.
    mutating func emitClock(gridFrame: Int64, blockStart: Int64, status: borrowing EngineStatus) {
        var frame = gridFrame + delay
        if frame < blockStart {
            if blockStart - frame > maximumLateness {
                status.droppedEvents.add(1, ordering: .relaxed)
                return
            }
            status.lateEvents.add(1, ordering: .relaxed)
            frame = blockStart
        }
        frame = max(frame, lastFrame)
        if queue.append(TimedMIDIEvent(frame: frame, bytes: MIDIMessage.timingClock.bytes)) {
            lastFrame = frame
        } else {
            status.droppedEvents.add(1, ordering: .relaxed)
        }
    }

    /// Moves the events due before `end` into `events`.
    mutating func drain(before end: Int64, into events: inout MIDIEventBuffer) {
        while let event = queue.first, event.frame < end {
            events.append(event)
            queue.removeFirst()
        }
    }

    /// A sample-rate change at `frame`: what is still queued after it keeps its
    /// distance in time (scaled by `ratio`, new rate over old).
    mutating func resample(continuingAt frame: Int64, ratio: Double, maximumLateness newLateness: Int64) {
        func scale(_ f: Int64) -> Int64 { f <= frame ? f : frame + Int64((Double(f - frame) * ratio).rounded()) }
        maximumLateness = newLateness
        queue.rescaleFrames(scale)
        if lastFrame > frame { lastFrame = scale(lastFrame) }
        noteOffs = (noteOffs.0.map(scale), noteOffs.1.map(scale), noteOffs.2.map(scale), noteOffs.3.map(scale))
    }

    // MARK: - Feedback notes

    mutating func setFeedbackNotes(_ notes: FeedbackNotes?) {
        flushNoteOffs(before: .max)
        feedbackNotes = notes
    }

    /// The cue's Note On at the block's first frame (where its sound starts), after
    /// any Note Off the same cue still owes, so a fast repeat retriggers the pad.
    mutating func noteOn(for sound: ClickSound, blockStart: Int64, sampleRate: Int) {
        guard let notes = feedbackNotes, let note = notes.note(for: sound) else { return }
        let index = MIDIOutput.cueIndex(sound)
        let frame = max(blockStart + delay, lastFrame)
        if noteOffFrame(index) != nil {
            setNoteOffFrame(index, frame)
            sendNoteOff(index, notes)
        }
        if queue.append(TimedMIDIEvent(frame: frame, bytes: MIDIMessage.noteOn(channel: notes.channel, note: note, velocity: notes.velocity).bytes)) {
            lastFrame = frame
            setNoteOffFrame(index, frame + Int64(notes.lengthMilliseconds * sampleRate / 1000))
        }
    }

    /// Sends the Note Offs due before `frame`, in frame order with everything else
    /// in the queue (a Note Off never goes before an event already queued).
    mutating func flushNoteOffs(before frame: Int64) {
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
        let frame = max(due, lastFrame)
        if queue.append(TimedMIDIEvent(frame: frame, bytes: MIDIMessage.noteOff(channel: notes.channel, note: note, velocity: .zero).bytes)) {
            lastFrame = frame
        }
    }

    private static func cueIndex(_ sound: ClickSound) -> Int { sound.rawValue - ClickSound.impact.rawValue }

    private func noteOffFrame(_ index: Int) -> Int64? {
        switch index {
        case 0: noteOffs.0
        case 1: noteOffs.1
        case 2: noteOffs.2
        default: noteOffs.3
        }
    }

    private mutating func setNoteOffFrame(_ index: Int, _ frame: Int64?) {
        switch index {
        case 0: noteOffs.0 = frame
        case 1: noteOffs.1 = frame
        case 2: noteOffs.2 = frame
        default: noteOffs.3 = frame
        }
    }
}
