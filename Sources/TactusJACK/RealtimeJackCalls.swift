import CJack
#if canImport(Glibc)
import Glibc
#endif

/// The JACK API calls the process callback makes, and only those: the ones
/// JACK documents as meant for the process thread (port buffers, MIDI buffer
/// access, the cycle's times). The compiler's `@_noLocks @_noAllocation` check cannot see into
/// libjack, so each call is exempted here, one call at a time, in one place; the LD_PRELOAD test
/// (Tests/RTProbe) proves at run time that none of them allocates or locks.
enum RealtimeJack {
    @inline(__always) @_noLocks @_noAllocation
    static func buffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        _unsafePerformance { jack_port_get_buffer(port, frames) }
    }

    /// This cycle's first frame and its time, and the next cycle's time, in µs
    /// on CLOCK_MONOTONIC.
    ///
    /// jack2 keeps its times on CLOCK_MONOTONIC_RAW (`jack_get_time` reads it to
    /// the microsecond), which NTP does not slew; CLOCK_MONOTONIC, the clock of
    /// every other stamp in Tactus (ALSA input, keys, the control thread, the
    /// ALSA queue), is slewed, so the two drift apart: 100 ms after half an hour
    /// on a virtual machine, enough to move every pressure step. The cycle's
    /// times are moved by the difference of the two clocks (`RawClockOffset`),
    /// read again every 64 cycles: the kernel slews by at most 500 ppm, so the
    /// difference moves by less than 0.2 ms between two readings at a period of
    /// 256 frames, and the two reads stay off most cycles.
    @inline(__always) @_noLocks @_noAllocation
    static func cycleTimes(_ client: OpaquePointer, frames: jack_nframes_t, sampleRate: Int,
                           offset: inout RawClockOffset) -> (frame: jack_nframes_t, microseconds: Int64, nextMicroseconds: Int64) {
        var frame: jack_nframes_t = 0
        var now: jack_time_t = 0
        var next: jack_time_t = 0
        var period: Float = 0
        if offset.cyclesLeft <= 0 {
            var monotonic = timespec()
            _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &monotonic) }
            offset.microseconds = Int64(monotonic.tv_sec) * 1_000_000 + Int64(monotonic.tv_nsec) / 1_000 - Int64(_unsafePerformance { jack_get_time() })
            offset.cyclesLeft = RawClockOffset.cyclesBetweenReadings
        }
        offset.cyclesLeft -= 1
        let difference = offset.microseconds
        if _unsafePerformance({ jack_get_cycle_times(client, &frame, &now, &next, &period) }) == 0 {
            return (frame, Int64(now) + difference, Int64(next) + difference)
        }
        // A server without the DLL times still has the frame and the clock.
        frame = _unsafePerformance { jack_last_frame_time(client) }
        let start = Int64(_unsafePerformance { jack_get_time() }) + difference
        return (frame, start, start + Int64(Double(frames) * 1_000_000 / Double(sampleRate)))
    }

    /// The transport's state and position for this cycle: JACK reads it from
    /// the engine's double-buffered position without a lock ("may be called in
    /// the process thread", transport.h); Tactus calls it once a cycle.
    @inline(__always) @_noLocks @_noAllocation
    static func transportQuery(_ client: OpaquePointer, _ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t {
        _unsafePerformance { jack_transport_query(client, position) }
    }

    @inline(__always) @_noLocks @_noAllocation
    static func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 {
        _unsafePerformance { jack_midi_get_event_count(buffer) }
    }

    @inline(__always) @_noLocks @_noAllocation
    static func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t? {
        var event = jack_midi_event_t()
        return _unsafePerformance { jack_midi_event_get(&event, buffer, index) } == 0 ? event : nil
    }

    @inline(__always) @_noLocks @_noAllocation
    static func clear(_ buffer: UnsafeMutableRawPointer) {
        _unsafePerformance { jack_midi_clear_buffer(buffer) }
    }

    @inline(__always) @_noLocks @_noAllocation
    static func reserve(_ buffer: UnsafeMutableRawPointer, _ offset: jack_nframes_t, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>? {
        _unsafePerformance { jack_midi_event_reserve(buffer, offset, size) }
    }
}

/// CLOCK_MONOTONIC minus jack2's CLOCK_MONOTONIC_RAW, in µs, and the cycles
/// until it is read again (`RealtimeJack.cycleTimes`).
struct RawClockOffset: BitwiseCopyable {
    static let cyclesBetweenReadings = 64
    var microseconds: Int64 = 0
    var cyclesLeft = 0
}
