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
    /// This cycle's `clock_in` events, each byte decoded at its frame (the
    /// block's `start` plus the event's offset: JACK MIDI is sample-accurate)
    /// and followed, after the follower noticed the time passed since its last
    /// tick (`advance`); nil without `--clock-in`. A JACK MIDI event holds one
    /// complete message, so its end cuts one left incomplete
    /// (`ClockInputDecoder.endOfEvent`). Errors are counted by the decoder.
    /// Inlined, so that without `--clock-in` the cycle pays a comparison, not a call.
    @inline(__always)
    static func readClockIn<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host,
                                             frames: jack_nframes_t, start: Int64) -> TimelinePosition? {
        guard context.pointee.clockIn.enabled else { return nil }
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
}
