import CJack
import TactusCore

/// What the clock meter's process callback touches (`tactus clock-meter`,
/// docs/DESIGN.md §9.1): the input port, the decoder, and the ring that takes
/// every decoded byte to the printing thread. Made and filled before the
/// client is activated, read only by the callback while it is active.
struct ClockMeterContext: ~Copyable {
    let client: OpaquePointer
    let port: OpaquePointer
    let sampleRate: Int
    var decoder = ClockInputDecoder()
    var offset = RawClockOffset()
    /// JACK's 32-bit frame time of the last cycle, and frames since the meter
    /// started at it: the meter's times are 64-bit, so a run past JACK's wrap
    /// (24.8 hours at 48 kHz) goes on counting.
    var lastCycleFrame: jack_nframes_t
    var elapsed: Int64 = 0
    /// Real-time → printing thread: each byte's tick, transport message or error at its frame.
    let inputs: SPSCRing<TimedClockInput>

    init(client: OpaquePointer, port: OpaquePointer, sampleRate: Int, startFrame: jack_nframes_t, capacity: Int) {
        self.client = client
        self.port = port
        self.sampleRate = sampleRate
        lastCycleFrame = startFrame
        inputs = SPSCRing(capacity: capacity)
    }
}

enum ClockMeterCycle {
    /// One cycle: each event on the port read by `ClockInputEvents.decode`, the
    /// reading the metronome's `clock_in` uses (each byte at its event's frame:
    /// JACK MIDI is sample-accurate, so the times are where the sender put its
    /// ticks, not when anyone woke up), and handed over. A full ring drops and
    /// counts (`SPSCRing.dropped`): the cycle never waits.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func run(_ context: UnsafeMutablePointer<ClockMeterContext>, frames: jack_nframes_t) {
        let times = RealtimeJack.cycleTimes(context.pointee.client, frames: frames, sampleRate: context.pointee.sampleRate,
                                            offset: &context.pointee.offset)
        // Signed: a first cycle may begin a little before the frame read at activation.
        context.pointee.elapsed += Int64(Int32(bitPattern: times.frame &- context.pointee.lastCycleFrame))
        context.pointee.lastCycleFrame = times.frame
        let start = context.pointee.elapsed
        guard let buffer = RealtimeJack.buffer(context.pointee.port, frames) else { return }
        let count = RealtimeJack.midiEventCount(buffer)
        var index: UInt32 = 0
        var sink = ClockMeterSink(context: context)
        while index < count {
            if let event = RealtimeJack.midiEvent(buffer, index) {
                ClockInputEvents.decode(event, blockStart: start, decoder: &context.pointee.decoder, into: &sink)
            }
            index += 1
        }
    }
}

/// The meter's end of `ClockInputEvents.decode`: every result, with its
/// frame, into the ring the printing thread reads.
struct ClockMeterSink: ClockInputSink {
    let context: UnsafeMutablePointer<ClockMeterContext>

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func take(_ output: ClockInputDecoder.Output, atFrame frame: Int64) {
        context.pointee.inputs.push(TimedClockInput(output, at: frame))
    }
}

/// The meter's process callback: JACK passes the context's address as `arg`.
#if REALTIME_CHECKS
@_noLocks @_noAllocation
#endif
func tactusClockMeterProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    ClockMeterCycle.run(arg.assumingMemoryBound(to: ClockMeterContext.self), frames: frames)
    return 0
}
