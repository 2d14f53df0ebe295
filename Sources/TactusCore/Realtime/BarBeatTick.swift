/// Where the song is at one frame, as a JACK timebase master publishes it
/// (`jack_position_t` with `JackPositionBBT`, docs/DESIGN.md §13): bar and beat
/// counted from 1, the tick within the beat (1920 a beat, fractional), the tick
/// count of the bar's first beat from song position 0, the meter, and the tempo
/// in beats of the meter's lower number a minute (7/8 at 133 is 133).
public struct BarBeatTick: Sendable, BitwiseCopyable, Equatable {
    /// The resolution JACK clients commonly publish (Ardour, Hydrogen, klick).
    @inlinable public static var ticksPerBeat: Double { 1920 }
    public var bar: Int32
    public var beat: Int32
    public var tick: Double
    public var barStartTick: Double
    public var beatsPerBar: Int
    public var beatType: Int
    public var beatsPerMinute: Double

    public init(bar: Int32, beat: Int32, tick: Double, barStartTick: Double, beatsPerBar: Int, beatType: Int, beatsPerMinute: Double) {
        self.bar = bar
        self.beat = beat
        self.tick = tick
        self.barStartTick = barStartTick
        self.beatsPerBar = beatsPerBar
        self.beatType = beatType
        self.beatsPerMinute = beatsPerMinute
    }
}

/// What the song's bar, beat and tick are computed from: the grid's mapping
/// and tempo, the song's origin and bar lines, the meter.
struct BarBeatView: BitwiseCopyable {
    var mapping: GridMapping
    var tempo: BPM
    var playing: Bool
    var songOrigin: Int64
    var resumeSongPulse: Int64
    var meterOriginSong: Int64
    var meterOriginBar: Int
    var meter: Meter

    func barBeatTick(atFrame frame: Int64) -> BarBeatTick {
        let pulsesPerBeat = Double(meter.pulsesPerBeat)
        let pulsesPerBar = Double(meter.pulsesPerBar)
        var songPulse = Double(resumeSongPulse)
        if playing { songPulse = max(0, mapping.pulsePosition(at: frame) - Double(songOrigin)) }
        let inMeter = max(0, songPulse - Double(meterOriginSong))
        let bars = Double(floorToInt64(inMeter / pulsesPerBar))
        let inBar = inMeter - bars * pulsesPerBar
        let beat = Double(floorToInt64(inBar / pulsesPerBeat))
        let tick = min((inBar - beat * pulsesPerBeat) / pulsesPerBeat * BarBeatTick.ticksPerBeat, BarBeatTick.ticksPerBeat.nextDown)
        return BarBeatTick(bar: Int32(clamping: meterOriginBar + Int(bars)), beat: Int32(beat) + 1, tick: tick,
                           barStartTick: (songPulse - inBar) / pulsesPerBeat * BarBeatTick.ticksPerBeat,
                           beatsPerBar: meter.beatsPerBar, beatType: meter.beatUnit, beatsPerMinute: tempo.value)
    }
}

extension Engine {
    /// The song's bar, beat and tick at `frame` (the first frame of the next
    /// block, which nothing of the grid has reached yet), from the grid the
    /// engine plays: the same mapping that placed this block's clicks, so a
    /// follower's beat is the engine's click (±0.5 frame, the click's own
    /// rounding). Stopped (or before a Start's first clock): the resume point.
    ///
    /// A change due at the first grid point beyond the block (a tempo, a bar, a
    /// map's entry) bends the grid before that point's frame is known, so it is
    /// already applied when the block ends; a frame before that point is read
    /// from the grid as it was before (`heldView`).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func barBeatTick(atFrame frame: Int64) -> BarBeatTick {
        if let held = heldView, frame < held.until { return held.view.barBeatTick(atFrame: frame) }
        return barBeatView.barBeatTick(atFrame: frame)
    }

    /// The song's bar, beat and tick at `frame` (the next block's first) where a
    /// time source's `position` there puts it, as that block's `follow` will
    /// place the grid: this grid's song, meter and bars on the source's line.
    /// A JACK timebase master publishes the next cycle's BBT before that cycle's
    /// input (jack2 calls the timebase callback after the process callback), so
    /// with `--clock-in` the next block follows the line the ticks so far drew,
    /// and the BBT is read from that line, not from the one this block followed
    /// (docs/DESIGN.md §9). Not rolling, not following, or before a change held
    /// for the next grid point: `barBeatTick(atFrame:)`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func barBeatTick(atFrame frame: Int64, following position: TimelinePosition) -> BarBeatTick {
        guard followed != nil, heldView == nil, position.rolling, position.framesPerPulse > 0, position.framesPerPulse.isFinite else {
            return barBeatTick(atFrame: frame)
        }
        var view = barBeatView
        view.mapping = .measured(MeasuredMapping(frame: frame, pulse: Double(followBase) + position.songPulse, framesPerPulse: position.framesPerPulse))
        return view.barBeatTick(atFrame: frame)
    }

    var barBeatView: BarBeatView {
        BarBeatView(mapping: grid.mapping, tempo: grid.tempo, playing: song.running && rolling, songOrigin: song.songOrigin,
                    resumeSongPulse: song.resumeSongPulse, meterOriginSong: song.meterOriginSong, meterOriginBar: song.meterOriginBar,
                    meter: pattern.bar.meter)
    }
}

/// The grid as it was before changes applied at a point not yet reached, and that point's frame.
struct HeldBarBeatView: BitwiseCopyable {
    var view: BarBeatView
    var until: Int64
}
