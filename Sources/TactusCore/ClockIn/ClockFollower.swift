/// Follows an incoming MIDI beat clock: from the arrival frames of its ticks and
/// its Start, Continue, Stop and Song Position, the filtered tick grid (the frame
/// of any song tick, the tempo) and the song's transport (docs/DESIGN.md §9.1).
///
/// The filter is a least-squares line over the recent ticks whose width adapts
/// (`ClockFollower+Fit.swift`): as wide as 8 beats while the ticks agree with one
/// line, narrowed to the ticks after a tempo change as soon as a narrower fit
/// disagrees with the wide one beyond their confidence intervals, and jumped
/// straight to a new tempo when three intervals in a row differ by more than 20 %;
/// through a ramp, a parabola when it knows the next tick better. A tick lost in
/// transit is put back; a clock gone quiet is held, then dropped.
///
/// The caller gives each message's arrival frame (a JACK MIDI event's frame in
/// the cycle, or an ALSA event's time stamp mapped to frames) and calls `advance`
/// once a cycle, so that a clock gone quiet is noticed without a tick.
///
/// Everything it keeps is allocated when it is made: taking a tick or asking where
/// a tick falls never allocates or locks, so the JACK cycle may run it.
public struct ClockFollower: ~Copyable {
    public let settings: ClockFollowerSettings
    public let sampleRate: Int

    var ticks: TickTimes
    public internal(set) var state: ClockFollowerState = .idle
    /// The fit over `regime` ticks, the newest of which has serial `lineSerial`.
    var line: TickLine?
    var lineSerial: Int64 = 0
    /// The ticks since the last tempo change the fit may use (the fit's width).
    var regime = 0
    /// The same for the parabola a ramp is followed with (`TickCurve`).
    var curvedRegime = 0
    /// Every tick's serial number since the follower began; a gap in the ticks
    /// (`holding`) moves it by the ticks the held tempo says were missed.
    var serial: Int64 = -1
    var lastTickFrame: Int64 = 0
    /// The arrival frames' estimated spread (frames), from their second differences.
    public internal(set) var arrivalSpread: Double
    /// The step of the period lattice the arrivals lie on (frames), 0 if none.
    public internal(set) var latticeStep: Int64 = 0

    // The transport.
    public private(set) var isRolling = false
    private var armed = Armed.none
    /// The song tick the next tick takes when the song plays on (Continue).
    public private(set) var nextSongTick: Int64 = 0
    /// song tick = serial + songTickOffset for the ticks since the song last started.
    private var songTickOffset: Int64 = 0
    /// The song played when its clock dropped out: ticks coming back continue it.
    private var resumeAfterDropout = false
    /// The last interval was about two periods long (`lostTickRatios`).
    private var lastIntervalLong = false
    /// The last interval was taken for a lost tick, put back in `ticks`.
    private var lastIntervalInferred = false
    /// The frame the last inferred tick was put back at, and the filtered period then.
    private var inferredFrame: Int64 = 0
    private var inferredFramesPerTick: Double = 0
    /// Ticks inferred lost in transit (`lostTickRatios`), less those undone.
    public private(set) var lostTicks = 0

    private enum Armed: BitwiseCopyable { case none, start, resume }

    public init(sampleRate: Int, settings: ClockFollowerSettings = ClockFollowerSettings()) {
        precondition(sampleRate > 0 && settings.maximumWindow >= 6)
        self.sampleRate = sampleRate
        self.settings = settings
        ticks = TickTimes(capacity: settings.maximumWindow + 2)
        arrivalSpread = settings.minimumSpread
    }

    /// Takes one message of the clock, arrived at `frame`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func receive(_ event: ClockInputEvent, atFrame frame: Int64) -> ClockFollowerChanges {
        switch event {
        case .tick:
            return tick(atFrame: frame)
        case .start:
            // MIDI 1.0: the first Timing Clock after Start is the song's first.
            isRolling = false
            armed = .start
            nextSongTick = 0
            return .nothing
        case .continue:
            guard !isRolling else { return .nothing }
            armed = .resume
            return .nothing
        case .stop:
            let wasPlaying = isRolling || armed != .none
            isRolling = false
            armed = .none
            resumeAfterDropout = false
            return wasPlaying ? .stopped : .nothing
        case .songPosition(let midiBeats):
            // Sent while stopped (MIDI 1.0); one MIDI beat is a 16th, 6 ticks.
            guard !isRolling else { return .songPositionIgnored }
            nextSongTick = Int64(midiBeats) * Grid.clocksPerMIDIBeat
            resumeAfterDropout = false
            return .located
        }
    }

    /// Time has reached `frame` (each cycle's first frame): notices a clock that
    /// went quiet. After `holdingAfterTicks` periods without a tick the tempo is
    /// held; after the hold time (`dropoutBeats` at the held tempo, at most
    /// `maximumHoldSeconds`) the follower drops out and the song stops, once.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func advance(toFrame frame: Int64) -> ClockFollowerChanges {
        let silent = Double(frame - lastTickFrame)
        switch state {
        case .locked, .holding:
            guard let line else { return .nothing }
            if silent > holdFrames(framesPerTick: line.framesPerTick) {
                state = .droppedOut
                resumeAfterDropout = isRolling || armed == .resume
                isRolling = false
                return .droppedOut
            }
            if state == .locked && silent > settings.holdingAfterTicks * line.framesPerTick {
                state = .holding
                return .holding
            }
            return .nothing
        case .acquiring:
            if silent > settings.maximumHoldSeconds * Double(sampleRate) {
                state = .idle
                regime = 0
                curvedRegime = 0
                ticks.removeAll()
            }
            return .nothing
        case .idle, .droppedOut:
            return .nothing
        }
    }

    /// The hold time (frames) at a tempo.
    @inline(__always) func holdFrames(framesPerTick: Double) -> Double {
        min(settings.dropoutBeats * Double(Grid.clocksPerQuarterNote) * framesPerTick,
            settings.maximumHoldSeconds * Double(sampleRate))
    }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    private mutating func tick(atFrame frame: Int64) -> ClockFollowerChanges {
        var changes = advance(toFrame: frame)
        let before = state
        // After a gap (holding, or dropped out) the fit starts again from this tick,
        // and the serial moves by the ticks the held tempo says were missed, so the
        // song goes on where the sender is.
        var step: Int64 = 1
        var restart = before == .idle || before == .droppedOut
        if before == .holding || before == .droppedOut, let line, line.framesPerTick > 0 {
            let missed = Double(frame - lastTickFrame) / line.framesPerTick
            if missed > settings.holdingAfterTicks { restart = true }
            if restart { step = max(1, floorToInt64(missed + 0.5)) }
        }
        let inference = inferLostTick(atFrame: frame, restart: restart)
        changes.formUnion(inference.changes)
        if restart {
            ticks.removeAll()
            regime = 0
            curvedRegime = 0
            latticeStep = 0
            arrivalSpread = settings.minimumSpread
            if before != .holding { state = .acquiring }
        }
        ticks.append(inference.fittedFrame)
        serial += step
        lastTickFrame = frame
        regime = min(regime + 1, settings.maximumWindow)
        curvedRegime = min(curvedRegime + 1, settings.maximumWindow)

        switch armed {
        case .start:
            songTickOffset = -serial
            isRolling = true
            changes.insert(.started)
        case .resume:
            songTickOffset = nextSongTick - serial
            isRolling = true
            changes.insert(.continued)
        case .none:
            if before == .droppedOut && resumeAfterDropout {
                isRolling = true
                changes.insert(.continued)
            }
        }
        armed = .none
        resumeAfterDropout = false
        if isRolling { nextSongTick = serial + songTickOffset + 1 }

        // A tick just put back: this arrival is the tick after a lost one, or the
        // lost-seeming tick itself delivered late, and only the next tick tells
        // (`inferLostTick`). Either way the sender's ticks are still on the line,
        // so the line stands until then: fitted now, the arrival would move the
        // song a tick ahead of a late tick's sender for a period, and back.
        if !lastIntervalInferred { changes.formUnion(refit()) }
        if state == .locked && before != .locked && before != .holding { changes.insert(.locked) }
        return changes
    }

    /// One interval of about two periods while locked, after a steady one: a tick
    /// lost in transit, put back where the line expected it. A second such interval
    /// at once is a tempo halved, not another loss: the first inference is undone,
    /// and the fit follows the new tempo as any change.
    ///
    /// A tick late by more than half a period makes the same long interval, and
    /// the tick after it tells the two apart: after a loss it comes a period
    /// after the late-seeming one, two after the tick put back; after a late tick
    /// it comes on time, about one period after the tick put back (with a late
    /// delivery often in the same instant as the late tick). Under one and a half
    /// periods it is a late tick: the tick put back keeps that tick's place (the
    /// line's frame for it, its late arrival left out of the fit) and the song
    /// is not moved a tick ahead. Left in, one click too many was played at
    /// the end of an ALSA take in the alsa-vm, every click a tick early after a
    /// delivery 21.6 ms late (docs/DESIGN.md §9.1). Until the next tick the
    /// line stands (`tick`): both readings leave the sender's ticks on it.
    ///
    /// Returns what changed and the frame the arrival is fitted at: its own, or,
    /// for the tick after a late one that came later than its place on the line
    /// by more than the fit's confidence allows (`confidence` arrival spreads),
    /// that place: it was held up by the same delivery (a stall hands on the late
    /// tick and the next together), and its arrival says no more of the sender's
    /// time than the late tick's did.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    private mutating func inferLostTick(atFrame frame: Int64, restart: Bool) -> (changes: ClockFollowerChanges, fittedFrame: Int64) {
        var long = false
        if !restart, state == .locked, let line, line.framesPerTick > 0 {
            // A long interval is told from jitter only where the arrivals are
            // precise enough: half a period (the range's edge) beyond `confidence`
            // interval spreads (√2 arrival spreads). Ticks quantised to periods
            // about as long as a tick (a bridge at 512 or 1024 frames) make intervals
            // of one and two periods in turn; taken for losses, each moved the song
            // a tick, beats off by seconds (docs/DESIGN.md §9.1). And only once a
            // beat of ticks has measured that spread: the lock's first ticks on
            // such a lattice can be one period apart each, a spread of nothing.
            let ratio = Double(frame - lastTickFrame) / line.framesPerTick
            long = ticks.count > Grid.clocksPerQuarterNote
                && line.framesPerTick / 2 > settings.confidence * arrivalSpread * 1.414_213_562_373_095
                && ratio >= settings.lostTickRatios.lowest && ratio <= settings.lostTickRatios.highest
        }
        defer { lastIntervalLong = long }
        if !restart && lastIntervalInferred && Double(frame - inferredFrame) < 1.5 * inferredFramesPerTick {
            ticks.removeNewest()
            serial -= 1
            lostTicks -= 1
            lastIntervalInferred = false
            guard let line else { return (.nothing, frame) }
            let place = line.frame(ticksAfterNewest: Double(serial + 1 - lineSerial))
            let heldUp = Double(frame) - place > settings.confidence * arrivalSpread
            return (.nothing, heldUp ? arrivalFrame(near: place) : frame)
        }
        if long && lastIntervalInferred {
            ticks.removeBeforeNewest()
            serial -= 1
            lostTicks -= 1
            lastIntervalInferred = false
            return (.nothing, frame)
        }
        lastIntervalInferred = false
        guard long && !lastIntervalLong, let line else { return (.nothing, frame) }
        inferredFrame = arrivalFrame(near: line.frame(ticksAfterNewest: Double(serial + 1 - lineSerial)))
        inferredFramesPerTick = line.framesPerTick
        ticks.append(inferredFrame)
        serial += 1
        lostTicks += 1
        lastIntervalInferred = true
        return (.tickLost, frame)
    }

    /// The frame nearest `frame` a tick can arrive at: on the period lattice when
    /// the ticks arrive on one (`latticeStep`, through the last arrival), so that
    /// a tick put in the fit keeps the lattice seen; else the nearest frame.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    func arrivalFrame(near frame: Double) -> Int64 {
        guard latticeStep > 0 else { return floorToInt64(frame + 0.5) }
        let steps = floorToInt64((frame - Double(lastTickFrame)) / Double(latticeStep) + 0.5)
        return lastTickFrame + steps * latticeStep
    }

    // MARK: What the grid is

    /// True while locked (or holding) with the song playing: the grid to click to.
    public var isPlaying: Bool { isRolling && (state == .locked || state == .holding) }

    /// The filtered frames per tick, while locked or holding.
    public var framesPerTick: Double? {
        guard state == .locked || state == .holding, let line else { return nil }
        return line.framesPerTick
    }

    /// The filtered tempo in quarter notes a minute (24 ticks each), while locked or holding.
    public var tempo: Double? {
        guard let framesPerTick, framesPerTick > 0 else { return nil }
        return 60 * Double(sampleRate) / (Double(Grid.clocksPerQuarterNote) * framesPerTick)
    }

    /// The tempo at the engine's resolution and display's two decimals (0.01 BPM).
    public var bpm: BPM? {
        guard let tempo else { return nil }
        return BPM(hundredths: Int32(clamping: floorToInt64(min(tempo, 1e6) * 100 + 0.5)))
    }

    /// What the JACK cycle shows of the follower (the display's clock-in row,
    /// its news to the control thread): the filtered tempo in hundredths of a
    /// BPM (0 when there is none), the frames per tick (nil: none), and the song
    /// tick playing or to play next. Functions, so that the real-time check
    /// sees them from another module (a computed property takes no attribute).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func tempoHundredths() -> Int32 { bpm?.hundredths ?? 0 }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func filteredFramesPerTick() -> Double? { framesPerTick }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func currentSongTick() -> Int64 { newestSongTick ?? nextSongTick }

    /// The filtered frame of the song's tick `songTick` (0: the first tick after Start),
    /// for the song started or continued last; nil until locked.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func frame(ofSongTick songTick: Int64) -> Double? {
        frame(ofSerial: songTick - songTickOffset)
    }

    /// The filtered frame of the tick after the newest.
    public var predictedFrameOfNextTick: Double? { frame(ofSerial: serial + 1) }

    /// The song's newest tick while it plays.
    public var newestSongTick: Int64? { isRolling ? serial + songTickOffset : nil }

    /// Where the song is at `frame`, in ticks (fractional), and the frames a tick
    /// lasts: what a time source's position needs (docs/DESIGN.md §8.3), while playing.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func songPosition(atFrame frame: Int64) -> (songTick: Double, framesPerTick: Double)? {
        guard isPlaying, let line, let newest = self.frame(ofSerial: lineSerial), line.framesPerTick > 0 else { return nil }
        let ticks = Double(frame) - newest
        return (Double(lineSerial + songTickOffset) + ticks / line.framesPerTick, line.framesPerTick)
    }

    /// The width (ticks) of the fit the grid follows now.
    public var fitTicks: Int { line?.count ?? 0 }

    /// The frame of the tick with serial `s`: the line, less half a lattice step when
    /// the ticks arrive on a period lattice (`ClockFollower+Fit.swift`).
    func frame(ofSerial s: Int64) -> Double? {
        guard state == .locked || state == .holding, let line else { return nil }
        return line.frame(ticksAfterNewest: Double(s - lineSerial)) - Double(latticeStep) / 2
    }
}

#if REALTIME_CHECKS
/// The compiler's proof that what the JACK cycle will ask of the clock input takes
/// no lock and allocates nothing (compiled in release builds only; never called).
@_noLocks @_noAllocation
func realtimeCheckOfClockFollower(_ follower: inout ClockFollower, _ decoder: inout ClockInputDecoder, byte: UInt8) -> Double? {
    var changes = follower.advance(toFrame: 256)
    if case .event(let event)? = decoder.decode(byte, atFrame: 300) { changes.formUnion(follower.receive(event, atFrame: 300)) }
    _ = decoder.endOfEvent(atFrame: 300)
    guard !changes.contains(.droppedOut), follower.isPlaying, let bpm = follower.bpm else { return nil }
    return (follower.tempo ?? 0) + Double(bpm.hundredths) + (follower.framesPerTick ?? 0)
        + (follower.predictedFrameOfNextTick ?? 0) + (follower.songPosition(atFrame: 512)?.songTick ?? 0)
        + (follower.frame(ofSongTick: 24) ?? 0)
}
#endif
