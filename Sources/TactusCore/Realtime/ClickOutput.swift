/// The audio side of the engine: click onsets waiting for their frame, the
/// voices that play them and the feedback cues, the sound set and gains in use,
/// and a preset's sounds waiting for the frame of their bar line's first click.
struct ClickOutput: ~Copyable {
    private(set) var sounds: SoundSet
    private var clickVoices = VoicePool()
    private var feedbackVoices = VoicePool()
    private var queue = ClickQueue(capacity: 512)
    private(set) var gains: SoundGains
    var muted: Bool
    /// Delay of the clicks against the grid (a negative clock offset).
    private(set) var delay: Int64 = 0
    /// A bar change's sounds and gains that took effect on the grid, swapped in
    /// at `scheduledFrame` (its first click's output frame; `.max` while none waits,
    /// so a cycle compares one integer instead of copying the change).
    private(set) var scheduled = SoundChange()
    private var scheduledFrame: Int64 = .max

    init(sounds: SoundSet, gains: SoundGains, muted: Bool) {
        self.sounds = sounds
        self.gains = gains
        self.muted = muted
    }

    mutating func setDelay(_ frames: Int64) { delay = frames }
    mutating func setGains(_ g: SoundGains) { gains = g }

    /// A click of `sound` at grid frame `gridFrame`; one whose output frame has
    /// passed (skipped cycles) is dropped: a late click is off the beat.
    /// `scale` multiplies its gain (a count-in's quieter accent).
    mutating func click(_ sound: ClickSound, gridFrame: Int64, blockStart: Int64, status: borrowing EngineStatus, scale: Float = 1) {
        guard !muted else { return }
        let frame = gridFrame + delay
        if frame < blockStart {
            status.droppedEvents.add(1, ordering: .relaxed)
            return
        }
        if queue.append(TimedClick(frame: frame, sound: sound, scale: scale)) {
            status.clicksPlayed.add(1, ordering: .relaxed)
        } else {
            status.droppedEvents.add(1, ordering: .relaxed)
        }
    }

    /// A feedback cue, from the next block's first frame.
    mutating func cue(_ sound: ClickSound) {
        feedbackVoices.start(sound, gain: gains.gain(for: sound))
    }

    /// Sounds and gains from the click at grid frame `gridFrame` on.
    mutating func schedule(_ change: SoundChange, atGridFrame gridFrame: Int64, retired: borrowing SPSCRing<SoundSet>) {
        // Two bar changes within one block: the earlier set never sounded.
        scheduled.take(change, retired: retired)
        scheduledFrame = gridFrame + delay
    }

    /// A preset's sounds and gains from now on (either may be nil: unchanged).
    mutating func apply(_ change: SoundChange, retired: borrowing SPSCRing<SoundSet>) {
        if let set = change.sounds { replace(sounds: set, retired: retired) }
        if let g = change.gains { gains = g }
    }

    /// Plays from `set` from now on. Voices sounding stop: their positions index
    /// the old buffers, which go back to the control thread to be freed.
    mutating func replace(sounds set: SoundSet, retired: borrowing SPSCRing<SoundSet>) {
        silence()
        retired.push(sounds)
        sounds = set
    }

    /// Stops every click and cue sounding now.
    mutating func silence() {
        clickVoices.stopAll()
        feedbackVoices.stopAll()
    }

    /// The cues, then the clicks of the block, into `feedback` and `click`
    /// (either may be nil: the voices still advance).
    mutating func render(blockStart: Int64, frames: Int, click out: UnsafeMutablePointer<Float>?,
                         feedback: UnsafeMutablePointer<Float>?, retired: borrowing SPSCRing<SoundSet>) {
        // Cues first: a preset's sounds swapped in mid-block stop them.
        if let feedback {
            feedbackVoices.mix(into: feedback, from: 0, to: frames, sounds: sounds)
        } else {
            feedbackVoices.skip(frames, sounds: sounds)
        }
        let end = blockStart + Int64(frames)
        var position = 0
        while true {
            var clickFrame = Int64.max
            if let click = queue.first { clickFrame = click.frame }
            let swapFrame = scheduledFrame
            let next = min(clickFrame, swapFrame)
            guard next < end else { break }
            let offset = max(position, Int(next - blockStart))
            mixClicks(into: out, from: position, to: offset)
            position = offset
            // The new sounds before the click on the same frame: a bar's first click is the new preset's.
            if swapFrame <= clickFrame {
                apply(scheduled, retired: retired)
                scheduled = SoundChange()
                scheduledFrame = .max
            } else if let click = queue.first {
                clickVoices.start(click.sound, gain: gains.gain(for: click.sound) * click.scale)
                queue.removeFirst()
            }
        }
        mixClicks(into: out, from: position, to: frames)
    }

    private mutating func mixClicks(into out: UnsafeMutablePointer<Float>?, from: Int, to: Int) {
        if let out { clickVoices.mix(into: out, from: from, to: to, sounds: sounds) } else { clickVoices.skip(to - from, sounds: sounds) }
    }

    /// A sample-rate change at `frame`: new sounds (the old set and any set
    /// still waiting go to `freed`, they are at the old rate), queued clicks
    /// keep their distance in time.
    mutating func resample(sounds set: SoundSet, continuingAt frame: Int64, ratio: Double, freed: (SoundSet) -> Void) {
        silence()
        freed(sounds)
        sounds = set
        if let waiting = scheduled.sounds { freed(waiting) }
        scheduled.sounds = nil
        func scale(_ f: Int64) -> Int64 { f <= frame ? f : frame + Int64((Double(f - frame) * ratio).rounded()) }
        queue.rescaleFrames(scale)
        if scheduledFrame != .max { scheduledFrame = scale(scheduledFrame) }
        if scheduled.isEmpty { scheduledFrame = .max }
    }
}

/// A click waiting for its frame.
struct TimedClick: BitwiseCopyable {
    var frame: Int64
    var sound: ClickSound
    var scale: Float = 1
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
