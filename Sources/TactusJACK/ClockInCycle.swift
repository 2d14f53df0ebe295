import CJack
import TactusCore

/// The incoming MIDI beat clock as the cycle's time source (`--clock-in`,
/// docs/DESIGN.md §9.1): the `clock_in` port's bytes decoded (`ClockInputDecoder`)
/// and followed (`ClockFollower`) at their frames, and the filtered grid given
/// to the engine through the time-source seam, as JACK transport follow's BBT
/// and Link's beat are: the clock owns tempo and transport (§9), so the click
/// and the clock out follow the filtered grid, and the engine's own tempi are
/// refused while it does.
///
/// Kept in `ProcessContext` (made with it, so its tick store is allocated off
/// the real-time thread) and touched only by the cycle.
struct ClockInFollow: ~Copyable {
    /// `--clock-in` was given: the port exists and the clock is the source.
    let enabled: Bool
    var decoder = ClockInputDecoder()
    var follower: ClockFollower
    /// The raw arrival frames the display's meter measures: the follower's own
    /// ring holds the lost ticks it put back (docs/DESIGN.md §9.1, "The meter").
    var arrivals: TickTimes
    /// Ticks since the meter last measured (it measures once a beat).
    var ticksSinceMeasured = 0

    /// The intervals the display's meter measures: the last two beats.
    static var meterIntervals: Int { 2 * Int(Grid.clocksPerQuarterNote) }
    /// The frame the last ALSA arrival was followed at: arrivals are taken in
    /// order, and a frame is never given before the one before it (the cycle's
    /// frame/time reference moves a little between cycles).
    var lastArrivalFrame = Int64.min

    init(enabled: Bool, sampleRate: Int) {
        self.enabled = enabled
        follower = ClockFollower(sampleRate: sampleRate)
        arrivals = TickTimes(capacity: Self.meterIntervals + 1)
    }

    /// Where the followed song is at the block's first frame: rolling from the
    /// filtered tick line while the follower plays (locked or holding), else
    /// standing at the song position the clock set (a Song Position, or where
    /// it stopped), as JACK transport follow stands when stopped. A tick is 4 of the engine's
    /// pulses (96 a quarter note, MIDI 1.0's 24 clocks).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    func position(atFrame frame: Int64) -> TimelinePosition {
        let pulsesPerClock = Double(Grid.pulsesPerClock)
        if let song = follower.songPosition(atFrame: frame) {
            return TimelinePosition(rolling: true, songPulse: song.songTick * pulsesPerClock, framesPerPulse: song.framesPerTick / pulsesPerClock)
        }
        return TimelinePosition(rolling: false, songPulse: Double(follower.nextSongTick) * pulsesPerClock, framesPerPulse: 0)
    }
}

extension ProcessCycle {
    /// This cycle's incoming clock, followed; nil without `--clock-in` or
    /// `--alsa-clock-from`. From JACK's `clock_in` port, each byte decoded at
    /// its frame (the block's `start` plus the event's offset: JACK MIDI is
    /// sample-accurate) and followed, after the follower noticed the time
    /// passed since its last tick (`advance`); a JACK MIDI event holds one
    /// complete message, so its end cuts one left incomplete
    /// (`ClockInputDecoder.endOfEvent`; `ClockInputEvents.decode`). A malformed
    /// byte is told to the control thread.
    /// From the ALSA sequencer, the arrivals its input thread stamped
    /// (`followArrivals`). Inlined, so that without a clock in the cycle pays
    /// a comparison, not a call.
    @inline(__always)
    static func readClockIn<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host,
                                             frames: jack_nframes_t, start: Int64, publishesBBT: Bool,
                                             cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> TimelinePosition? {
        guard context.pointee.clockIn.enabled else { return nil }
        if context.pointee.shared.pointee.clockInArrivals != nil {
            return followArrivals(context, frames: frames, start: start, publishesBBT: publishesBBT,
                                  cycleMicroseconds: cycleMicroseconds, microsecondsPerFrame: microsecondsPerFrame)
        }
        return followClockIn(context, host: &host, frames: frames, start: start, publishesBBT: publishesBBT)
    }

    /// `readClockIn` with `--clock-in`. With `publishesBBT` (`--transport master`)
    /// the block follows the line as it was before its own ticks: the BBT of
    /// this cycle was published at the end of the last one, before these ticks
    /// existed (jack2 calls the timebase callback after the process callback,
    /// for the next cycle; `publishBarBeatTick` reads the follower's line
    /// there), and a JACK transport follower plays this cycle's beats where that
    /// BBT puts them. A block's ticks move the line by a fraction of their
    /// jitter, so the click is the BBT's beat (±0.5 frame, its rounding) and
    /// a tick's news reaches the click a period later. A Start, a Stop or a
    /// move of more than `TimelinePosition.locateTolerance` (a Song Position and
    /// Continue) is this block's, as without `publishesBBT`.
    static func followClockIn<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host,
                                               frames: jack_nframes_t, start: Int64, publishesBBT: Bool) -> TimelinePosition {
        let quiet = context.pointee.clockIn.follower.advance(toFrame: start)
        reportClockIn(context, quiet)
        let publishedLine = context.pointee.clockIn.position(atFrame: start)
        if let buffer = host.buffer(.clockIn, frames) {
            let count = host.midiEventCount(buffer)
            var index: UInt32 = 0
            var sink = ClockInSink(context: context)
            while index < count {
                if let event = host.midiEvent(buffer, index) {
                    ClockInputEvents.decode(event, blockStart: start, decoder: &context.pointee.clockIn.decoder, into: &sink)
                }
                index += 1
            }
        }
        publishClockIn(context)
        return blockPosition(context, start: start, publishesBBT: publishesBBT, publishedLine: publishedLine)
    }

    /// The block's position once its clock is taken: the follower's line now,
    /// or with `publishesBBT` the line the published BBT was read from, unless
    /// the block started, stopped or moved by more than a locate's tolerance.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func blockPosition(_ context: UnsafeMutablePointer<ProcessContext>, start: Int64, publishesBBT: Bool,
                              publishedLine: TimelinePosition) -> TimelinePosition {
        let now = context.pointee.clockIn.position(atFrame: start)
        if publishesBBT && publishedLine.rolling && now.rolling && abs(now.songPulse - publishedLine.songPulse) <= TimelinePosition.locateTolerance {
            return publishedLine
        }
        return now
    }

    /// One message of the incoming clock, arrived at `frame`: followed, its
    /// arrival measured by the display's meter if it is a tick, and what it
    /// changed told to the control thread.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func followClockMessage(_ context: UnsafeMutablePointer<ProcessContext>, _ message: ClockInputEvent, atFrame frame: Int64) {
        let changes = context.pointee.clockIn.follower.receive(message, atFrame: frame)
        if message == .tick { measureClockIn(context, arrivalFrame: frame) }
        reportClockIn(context, changes)
    }

    /// What the follower changed, told once; a fit narrowed to the ticks after
    /// a tempo change is the filter's own business, not news (§9.1).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func reportClockIn(_ context: UnsafeMutablePointer<ProcessContext>, _ changes: ClockFollowerChanges) {
        let news = changes.subtracting(.narrowed)
        guard !news.isEmpty else { return }
        tell(context, .clockIn(news, tempoHundredths: context.pointee.clockIn.follower.tempoHundredths(),
                               nextSongTick: context.pointee.clockIn.follower.currentSongTick()))
    }

    /// A tick's raw arrival, for the meter; once a beat the last two beats'
    /// intervals are measured (`ClockJitter`, against the filtered period) and
    /// published for the display.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func measureClockIn(_ context: UnsafeMutablePointer<ProcessContext>, arrivalFrame frame: Int64) {
        context.pointee.clockIn.arrivals.append(frame)
        context.pointee.clockIn.ticksSinceMeasured += 1
        guard context.pointee.clockIn.ticksSinceMeasured >= Int(Grid.clocksPerQuarterNote),
              let period = context.pointee.clockIn.follower.filteredFramesPerTick() else { return }
        context.pointee.clockIn.ticksSinceMeasured = 0
        let jitter = ClockJitter(ticks: context.pointee.clockIn.arrivals, lastIntervals: ClockInFollow.meterIntervals,
                                 expectedFramesPerTick: period, sampleRate: context.pointee.clockIn.follower.sampleRate)
        // The shared class through its pointer, never bound to a local (no retain on the real-time thread).
        let shared = context.pointee.shared
        shared.pointee.clockIn.spreadMicroseconds.store(Int(jitter.milliseconds(jitter.standardDeviation) * 1_000 + 0.5), ordering: .relaxed)
        shared.pointee.clockIn.worstMicroseconds.store(Int(jitter.milliseconds(jitter.worstDeviation) * 1_000 + 0.5), ordering: .relaxed)
        shared.pointee.clockIn.missingTicks.store(jitter.missingTicks, ordering: .relaxed)
        shared.pointee.clockIn.measuredIntervals.store(jitter.intervals, ordering: .relaxed)
    }

    /// The follower's state and tempo for the display, every cycle.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func publishClockIn(_ context: UnsafeMutablePointer<ProcessContext>) {
        let shared = context.pointee.shared
        shared.pointee.clockIn.state.store(context.pointee.clockIn.follower.state.rawValue, ordering: .relaxed)
        shared.pointee.clockIn.tempoHundredths.store(Int(context.pointee.clockIn.follower.tempoHundredths()), ordering: .relaxed)
        shared.pointee.clockIn.lostTicks.store(context.pointee.clockIn.follower.lostTicks, ordering: .relaxed)
    }

    /// `readClockIn` with `--alsa-clock-from`: every message the ALSA input
    /// thread handed on (`JackShared.clockInArrivals`) that arrived before this
    /// block's end, followed at the frame of its arrival time, by the inverse of
    /// the arithmetic that stamps a JACK `control` event's frame with its time
    /// (`receiveControlInput`): this cycle's time at its first frame and JACK's
    /// filtered µs a frame. One clock on both sides (CLOCK_MONOTONIC, docs/DESIGN.md
    /// §2.4), so a tick lands on the frame it arrived at, not on the cycle that
    /// read it: one that arrived during the last period is taken at its frame
    /// before `start`. A message stamped after the block's end (read between the
    /// cycle's wake-up and this line) waits for the next cycle. The arrivals are
    /// taken first and the silence noticed after (`advance`), so a tick that
    /// arrived before `start` is not taken for a gap.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func followArrivals(_ context: UnsafeMutablePointer<ProcessContext>, frames: jack_nframes_t, start: Int64, publishesBBT: Bool,
                               cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> TimelinePosition {
        let shared = context.pointee.shared
        let end = start + Int64(frames)
        let publishedLine = context.pointee.clockIn.position(atFrame: start)
        while let arrival = shared.pointee.clockInArrivals?.peek() {
            // The nearest frame, ⌊x + ½⌋, without `FloatingPointRoundingRule` (whose
            // metadata the real-time checker cannot rule out).
            let x = Double(arrival.microseconds - cycleMicroseconds) / microsecondsPerFrame + 0.5
            let whole = Int64(x)
            let frame = start + (Double(whole) > x ? whole - 1 : whole)
            if frame >= end { break }
            _ = shared.pointee.clockInArrivals?.pop()
            let at = max(frame, context.pointee.clockIn.lastArrivalFrame)
            context.pointee.clockIn.lastArrivalFrame = at
            followClockMessage(context, arrival.event, atFrame: at)
        }
        reportClockIn(context, context.pointee.clockIn.follower.advance(toFrame: start))
        publishClockIn(context)
        return blockPosition(context, start: start, publishesBBT: publishesBBT, publishedLine: publishedLine)
    }
}

/// The metronome's end of `ClockInputEvents.decode`: a message followed, a
/// malformed byte told to the control thread.
struct ClockInSink: ClockInputSink {
    let context: UnsafeMutablePointer<ProcessContext>

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func take(_ output: ClockInputDecoder.Output, atFrame frame: Int64) {
        switch output {
        case .event(let message): ProcessCycle.followClockMessage(context, message, atFrame: frame)
        case .error(let error): ProcessCycle.tell(context, .clockInError(error))
        }
    }
}
