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
    /// The frame the last ALSA arrival was followed at: arrivals are taken in
    /// order, and a frame is never given before the one before it (the cycle's
    /// frame/time reference moves a little between cycles).
    var lastArrivalFrame = Int64.min

    init(enabled: Bool, sampleRate: Int) {
        self.enabled = enabled
        follower = ClockFollower(sampleRate: sampleRate)
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
    /// (`ClockInputDecoder.endOfEvent`). Errors are counted by the decoder.
    /// From the ALSA sequencer, the arrivals its input thread stamped
    /// (`followArrivals`). Inlined, so that without a clock in the cycle pays
    /// a comparison, not a call.
    @inline(__always)
    static func readClockIn<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host,
                                             frames: jack_nframes_t, start: Int64,
                                             cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> TimelinePosition? {
        guard context.pointee.clockIn.enabled else { return nil }
        if context.pointee.shared.pointee.clockInArrivals != nil {
            return followArrivals(context, frames: frames, start: start, cycleMicroseconds: cycleMicroseconds,
                                  microsecondsPerFrame: microsecondsPerFrame)
        }
        return followClockIn(context, host: &host, frames: frames, start: start)
    }

    /// `readClockIn` with `--clock-in`.
    static func followClockIn<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host,
                                               frames: jack_nframes_t, start: Int64) -> TimelinePosition {
        _ = context.pointee.clockIn.follower.advance(toFrame: start)
        if let buffer = host.buffer(.clockIn, frames) {
            let count = host.midiEventCount(buffer)
            var index: UInt32 = 0
            while index < count {
                if let event = host.midiEvent(buffer, index), let bytes = event.buffer {
                    let frame = start + Int64(event.time)
                    var i = 0
                    while i < event.size {
                        if case .event(let message)? = context.pointee.clockIn.decoder.decode(bytes[i], atFrame: frame) {
                            _ = context.pointee.clockIn.follower.receive(message, atFrame: frame)
                        }
                        i += 1
                    }
                    _ = context.pointee.clockIn.decoder.endOfEvent(atFrame: frame)
                }
                index += 1
            }
        }
        return context.pointee.clockIn.position(atFrame: start)
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
    static func followArrivals(_ context: UnsafeMutablePointer<ProcessContext>, frames: jack_nframes_t, start: Int64,
                               cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> TimelinePosition {
        let shared = context.pointee.shared
        let end = start + Int64(frames)
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
            _ = context.pointee.clockIn.follower.receive(arrival.event, atFrame: at)
        }
        _ = context.pointee.clockIn.follower.advance(toFrame: start)
        return context.pointee.clockIn.position(atFrame: start)
    }
}
