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
    /// The source's own bars, when it has them (a JACK timebase master's BBT):
    /// clicks and accents follow its bar lines and meter, not the engine's.
    public var bar: SourceBar?
    /// The source's own tempo in the meter's beat, when it has one (Link's
    /// session tempo): what the status shows and a trainer steps from, rather
    /// than the tempo the cycle's frames imply (the host-time filter's jitter
    /// is a few thousandths of a BPM).
    public var tempo: BPM?
    /// The source moved its own line ahead this cycle and says it is no locate
    /// (JACK follow on PipeWire: from a line drawn from stale BBT to a fresher
    /// one, whole periods ahead, docs/DESIGN.md §13.6): the engine plays on, and
    /// what the move passed sounds at the block's first frame.
    public var corrected: Bool

    /// Annotated for the process cycle's real-time check, which builds positions.
    @_noLocks @_noAllocation
    public init(rolling: Bool, songPulse: Double, framesPerPulse: Double, bar: SourceBar? = nil, tempo: BPM? = nil,
                corrected: Bool = false) {
        self.rolling = rolling
        self.songPulse = songPulse
        self.framesPerPulse = framesPerPulse
        self.bar = bar
        self.tempo = tempo
        self.corrected = corrected
    }

    /// A jump of more than this between where the last cycle's position puts
    /// this cycle and where the source says it is counts as a locate; less is
    /// the source's own jitter (or a tempo ramp within one cycle).
    public static let locateTolerance = 1.0
}

/// What a block's time source owns (docs/DESIGN.md §9), said by the host once
/// a block in `Engine.cycle` (`CycleInput.owner`), before the block's commands are read: the
/// one rule of who decides. What the source owns, the player only asks for:
/// the tempo (keys, taps, pressure, presets, the trainer's and a tempo map's
/// steps) and Start, Continue and Stop become `TimeSourceRequests`, which the
/// host hands to the source (Link commits them from the cycle, JACK transport
/// follow hands Start/Stop to `jack_transport_start`/`_stop` and refuses the
/// tempo); what it does not own the engine plays itself.
public struct SourceOwnership: Sendable, BitwiseCopyable, Equatable {
    public var tempo: Bool
    public var transport: Bool

    public init(tempo: Bool = false, transport: Bool = false) {
        self.tempo = tempo
        self.transport = transport
    }

    /// The engine's own time: it owns everything (no source, or quitting).
    public static var none: SourceOwnership { SourceOwnership() }
    /// Tempo and transport (Link, JACK transport follow).
    public static var tempoAndTransport: SourceOwnership { SourceOwnership(tempo: true, transport: true) }
    /// The tempo only (an LV2 host's `time:Position`).
    public static var tempoOnly: SourceOwnership { SourceOwnership(tempo: true) }
}

/// A time source's bar line: the song pulse of the first beat of the bar the
/// cycle is in, its number (from 1) and the meter the source counts there.
public struct SourceBar: Sendable, BitwiseCopyable, Equatable {
    public var songPulse: Int64
    public var number: Int
    public var meter: Meter

    public init(songPulse: Int64, number: Int, meter: Meter) {
        self.songPulse = songPulse
        self.number = number
        self.meter = meter
    }
}

extension Engine {
    /// Positions the grid for this block from a time source. A start, a stop or
    /// a jump goes through the transport's rules: Start at song position 0 (or
    /// Song Position and Continue on the next 16th), Stop and Song Position when
    /// time stands still, Stop/Song Position/Continue for a locate.
    mutating func follow(_ position: TimelinePosition, blockStart: Int64, frames: Int, control: borrowing EngineControl) {
        forgetCachedPoints()
        guard position.rolling, position.framesPerPulse > 0, position.framesPerPulse.isFinite else {
            if song.running || agenda.entry(.transport) != nil { stop(at: blockStart, control: control) }
            // `--clock-while-stopped`: the clock goes on at the last tempo while
            // the source stands still (docs/DESIGN.md §4.1).
            if !clockWhileStopped { rolling = false }
            followed = nil
            return
        }
        let starting = !rolling || (!song.running && agenda.entry(.transport) == nil)
        var jumped = false
        if !starting, let last = followed {
            let expected = last.pulsePosition(at: blockStart)
            jumped = !position.corrected && abs(Double(followBase) + position.songPulse - expected) > TimelinePosition.locateTolerance
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
        // A point still to play before the source's bar line while the engine
        // catches up a move ahead (`corrected`, below) is in the bar before: the
        // new bar line is taken from the block that reaches it. Any other cycle
        // takes the source's bar as it says it (Link's session bar, a JACK
        // master's), as the bar counts and the trainer's steps need.
        if let bar = position.bar, !position.corrected || starting || nextGridPulse() - song.songOrigin >= bar.songPulse {
            align(to: bar, status: control.status)
        }
        let source = MeasuredMapping(frame: blockStart, pulse: Double(followBase) + position.songPulse, framesPerPulse: position.framesPerPulse)
        var map = source
        // A source that corrects itself back within the tolerance (a JACK
        // master's phase known to a tick at a new tempo) would put the pulse not
        // yet played (a click, a tick) before this block, and it would be lost:
        // it sounds at the block's first frame instead. Not after cycles this
        // client missed (the block does not begin where the last one ended):
        // what fell in the gap is late as in the engine's own time (§3.6), the
        // ticks sent at the block's first frame and the clicks dropped.
        if !(starting || jumped), blockStart == lastBlockEnd, map.pulse > Double(cursor) {
            let next = Double(nextGridPulse())
            if map.pulse > next { map.pulse = next }
        }
        grid.follow(map, tempo: position.tempo)
        // The next cycle is judged against the source's line, not the held one:
        // a move ahead caught up a grid point a block does not count as a jump,
        // and neither does a point played late at the block's first frame
        // after cycles this client missed (the source moved on by what the
        // clock moved; judged against the held map, a point more than the
        // tolerance late was answered as a locate the cycle after).
        followed = source
    }

    /// The source's meter and bar line: the bar counts and the accents from
    /// there. A new meter is taken at the source's bar line even when the cycle
    /// that says so begins just after it: the bar's first beat sounds the same
    /// (the accent) in either meter, and its second is a beat away.
    mutating func align(to bar: SourceBar, status: borrowing EngineStatus) {
        if bar.meter != pattern.bar.meter {
            pattern.bar.meter = bar.meter
            pattern.bar.accents = .standard(beats: bar.meter.beatsPerBar)
            grid.set(pulsesPerBeat: bar.meter.pulsesPerBeat)
        }
        song.align(bar: bar.number, atSongPulse: bar.songPulse)
    }

    /// Back to the engine's own time after a time source let go: the grid goes
    /// on from where the source left it, at the tempo it had.
    mutating func stopFollowing() {
        guard followed != nil else { return }
        followed = nil
        forgetCachedPoints()
        if rolling { grid.change(at: cursor) }
    }
}
