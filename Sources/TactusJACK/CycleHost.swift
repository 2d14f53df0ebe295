import CJack
import TactusLink

/// The ports of Tactus's JACK client, as the process cycle asks a `CycleHost`
/// for their buffers.
enum CyclePort: BitwiseCopyable {
    case click, feedback, clock, control, clockIn
    /// The sync lines (`--sync-out`, docs/DESIGN.md §14): no buffer when the port is not registered.
    case sync, syncRun
}

/// Everything the process cycle asks of the JACK server, and only that: the
/// cycle's times, the port buffers, the transport, the MIDI buffers; and of
/// the Link session beside it, its audio-thread API. The cycle
/// (`ProcessCycle.run`) is generic over it, so the same code runs on a
/// server (`JackHost`, libjack's calls and Link's) and in the deterministic
/// tests (a simulated process loop with a virtual frame clock, a scripted
/// transport and a scripted Link session), which then prove the logic of the
/// real cycle, not of a copy.
///
/// A generic parameter, never an existential: the callback's call is
/// specialized for `JackHost` and dispatched statically, so it stays as cheap
/// as the direct libjack calls it replaced, and the compiler's real-time check
/// (`@_noLocks @_noAllocation`, docs/DESIGN.md §2.2) sees through it into each
/// conformance's bodies.
protocol CycleHost {
    /// The Link session (`--link`; nil without it), read and changed once a
    /// cycle through `LinkTimeline` (docs/DESIGN.md §11.4).
    associatedtype Link: LinkAudioSession
    var link: Link? { get }

    /// This cycle's first frame (JACK's 32-bit frame time, `jack_last_frame_time`),
    /// its time and the next cycle's time in µs on CLOCK_MONOTONIC
    /// (`jack_get_cycle_times`, moved by `offset`, `RealtimeJack.cycleTimes`).
    mutating func cycleTimes(frames: jack_nframes_t, sampleRate: Int,
                             offset: inout RawClockOffset) -> (frame: jack_nframes_t, microseconds: Int64, nextMicroseconds: Int64)

    /// A port's buffer for this cycle (`jack_port_get_buffer`): `frames` samples
    /// of audio, or a JACK MIDI buffer.
    mutating func buffer(_ port: CyclePort, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer?

    /// The transport's state and position for this cycle (`jack_transport_query`).
    mutating func transportQuery(_ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t

    /// The events of an input MIDI buffer (`jack_midi_get_event_count`, `jack_midi_event_get`).
    func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32
    func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t?

    /// An output MIDI buffer emptied, and room for one event at `offset`
    /// (`jack_midi_clear_buffer`, `jack_midi_event_reserve`: nil when full, or
    /// for an offset before the last event's or past the cycle).
    mutating func clearMIDI(_ buffer: UnsafeMutableRawPointer)
    mutating func reserveMIDI(_ buffer: UnsafeMutableRawPointer, _ offset: jack_nframes_t, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>?
}
