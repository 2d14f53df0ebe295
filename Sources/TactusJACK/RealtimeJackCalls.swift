import CJack

/// The JACK API calls the process callback makes, and only those: the ones
/// JACK documents as meant for the process thread (port buffers, MIDI buffer
/// access, the cycle's times). The compiler's `@_noLocks @_noAllocation` check cannot see into
/// libjack, so each call is exempted here, in one place; the LD_PRELOAD test
/// (Tests/RTProbe) proves at run time that none of them allocates or locks.
enum RealtimeJack {
    @inline(__always) @_noLocks @_noAllocation
    static func buffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        _unsafePerformance { jack_port_get_buffer(port, frames) }
    }

    /// This cycle's first frame and its monotonic time (µs), and the next cycle's time.
    @inline(__always) @_noLocks @_noAllocation
    static func cycleTimes(_ client: OpaquePointer, frames: jack_nframes_t, sampleRate: Int) -> (frame: jack_nframes_t, microseconds: jack_time_t, nextMicroseconds: jack_time_t) {
        _unsafePerformance {
            var frame: jack_nframes_t = 0
            var now: jack_time_t = 0
            var next: jack_time_t = 0
            var period: Float = 0
            if jack_get_cycle_times(client, &frame, &now, &next, &period) == 0 { return (frame, now, next) }
            // A server without the DLL times still has the frame and the clock.
            frame = jack_last_frame_time(client)
            now = jack_get_time()
            return (frame, now, now &+ jack_time_t(Double(frames) * 1_000_000 / Double(sampleRate)))
        }
    }

    @inline(__always) @_noLocks @_noAllocation
    static func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 {
        _unsafePerformance { jack_midi_get_event_count(buffer) }
    }

    @inline(__always) @_noLocks @_noAllocation
    static func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t? {
        _unsafePerformance {
            var event = jack_midi_event_t()
            return jack_midi_event_get(&event, buffer, index) == 0 ? event : nil
        }
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
