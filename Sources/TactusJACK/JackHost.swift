import CJack
import TactusLink

/// The `CycleHost` of a JACK server: the client's handle and its ports, each
/// call one libjack call through `RealtimeJack` (exempted from the compiler's
/// real-time check one call at a time there, and counted by the interposer
/// test, docs/DESIGN.md §2.2), and Link's own session (`LinkAudio`, its
/// audio-thread API). Made on the callback's stack each cycle from the
/// context's handles: plain pointers, nothing retained.
struct JackHost: CycleHost, BitwiseCopyable {
    let client: OpaquePointer
    let ports: JackPorts
    let link: LinkAudio?

    @inline(__always) @_noLocks @_noAllocation
    mutating func cycleTimes(frames: jack_nframes_t, sampleRate: Int,
                             offset: inout RawClockOffset) -> (frame: jack_nframes_t, microseconds: Int64, nextMicroseconds: Int64) {
        RealtimeJack.cycleTimes(client, frames: frames, sampleRate: sampleRate, offset: &offset)
    }

    @inline(__always) @_noLocks @_noAllocation
    mutating func buffer(_ port: CyclePort, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        switch port {
        case .click: RealtimeJack.buffer(ports.click, frames)
        case .feedback: RealtimeJack.buffer(ports.feedback, frames)
        case .clock: RealtimeJack.buffer(ports.clock, frames)
        case .control: RealtimeJack.buffer(ports.control, frames)
        case .clockIn: if let port = ports.clockIn { RealtimeJack.buffer(port, frames) } else { nil }
        case .sync: if let port = ports.sync { RealtimeJack.buffer(port, frames) } else { nil }
        case .syncRun: if let port = ports.syncRun { RealtimeJack.buffer(port, frames) } else { nil }
        }
    }

    @inline(__always) @_noLocks @_noAllocation
    mutating func transportQuery(_ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t {
        RealtimeJack.transportQuery(client, position)
    }

    @inline(__always) @_noLocks @_noAllocation
    func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 { RealtimeJack.midiEventCount(buffer) }

    @inline(__always) @_noLocks @_noAllocation
    func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t? { RealtimeJack.midiEvent(buffer, index) }

    @inline(__always) @_noLocks @_noAllocation
    mutating func clearMIDI(_ buffer: UnsafeMutableRawPointer) { RealtimeJack.clear(buffer) }

    @inline(__always) @_noLocks @_noAllocation
    mutating func reserveMIDI(_ buffer: UnsafeMutableRawPointer, _ offset: jack_nframes_t, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>? {
        RealtimeJack.reserve(buffer, offset, size)
    }
}
