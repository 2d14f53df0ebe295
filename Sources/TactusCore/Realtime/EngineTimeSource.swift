/// What a time source says about one cycle (docs/DESIGN.md §8): at the cycle's
/// first frame the song is at `songPulse` (pulses, 96 a quarter note, from song
/// position 0; fractional), a pulse lasts `framesPerPulse` frames during the
/// cycle, and time rolls or stands still.
///
/// A JACK timebase master's BBT, Link's beat at the buffer's host time, an LV2
/// host's `time:Position` and the tests' scripted source all come down to
/// this; the engine places every click and clock tick of the block from it,
/// rounded to the nearest frame, through the same `render` as its own time.
public struct TimelinePosition: Sendable, BitwiseCopyable, Equatable {
    public var rolling: Bool
    public var songPulse: Double
    public var framesPerPulse: Double

    public init(rolling: Bool, songPulse: Double, framesPerPulse: Double) {
        self.rolling = rolling
        self.songPulse = songPulse
        self.framesPerPulse = framesPerPulse
    }

    /// A jump of more than this between where the last cycle's position puts
    /// this cycle and where the source says it is counts as a locate; less is
    /// the source's own jitter (or a tempo ramp within one cycle).
    public static let locateTolerance = 1.0
}

extension Engine {
    /// Positions the grid for this block from a time source. A start, a stop or
    /// a jump goes through the transport's rules: Start at song position 0 (or
    /// Song Position and Continue on the next 16th), Stop and Song Position when
    /// time stands still, Stop/Song Position/Continue for a locate.
    mutating func follow(_ position: TimelinePosition, blockStart: Int64, frames: Int, control: borrowing EngineControl) {
        nextPoint = nil
        guard position.rolling, position.framesPerPulse > 0, position.framesPerPulse.isFinite else {
            if song.running || agenda.entry(.transport) != nil { stop(at: blockStart, control: control) }
            rolling = false
            followed = nil
            return
        }
        let starting = !rolling || (!song.running && agenda.entry(.transport) == nil)
        var jumped = false
        if !starting, let last = followed {
            let expected = last.pulsePosition(at: blockStart)
            jumped = abs(Double(followBase) + position.songPulse - expected) > TimelinePosition.locateTolerance
        }
        if starting || jumped {
            if !rolling { rolling = true }
            cursor = nextClock
            // Within a frame of song position 0 is Start, and so is song position 0
            // still ahead inside this block (Link's start on a bar line: the block's
            // first frame is before it, and Start sounds on its own frame); elsewhere
            // the next 16th.
            let fromZero = position.songPulse * position.framesPerPulse
            let atZero = fromZero < 1 && fromZero > -Double(frames)
            let resume = atZero ? 0 : roundUp(ceilToInt64(position.songPulse), toMultipleOf: Grid.pulsesPerMIDIBeat)
            followBase = cursor - resume
            if atZero && starting {
                agenda.schedule(AgendaEntry(pulse: cursor, change: .transport(.start)))
            } else {
                song.locate(songPulse: resume, pulsesPerBar: pattern.bar.meter.pulsesPerBar)
                agenda.schedule(AgendaEntry(pulse: cursor, change: .transport(song.running ? .relocate : .resume)))
            }
        }
        let map = MeasuredMapping(frame: blockStart, pulse: Double(followBase) + position.songPulse, framesPerPulse: position.framesPerPulse)
        grid.follow(map)
        followed = map
    }

    /// Back to the engine's own time after a time source let go: the grid goes
    /// on from where the source left it, at the tempo it had.
    mutating func stopFollowing() {
        guard followed != nil else { return }
        followed = nil
        nextPoint = nil
        if rolling { grid.change(at: cursor) }
    }
}
