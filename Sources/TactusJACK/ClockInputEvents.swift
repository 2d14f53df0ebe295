import CJack
import TactusCore

/// Where an incoming clock's decoded bytes go: the metronome's follower
/// (`--clock-in`, `ClockInSink`) or the meter's ring (`tactus clock-meter`,
/// `ClockMeterSink`). Both read the same JACK MIDI events the same way
/// (`ClockInputEvents.decode`), so the meter measures what the follower follows.
protocol ClockInputSink {
    /// One decoded message, or a malformed byte, at the frame of its event.
    mutating func take(_ output: ClockInputDecoder.Output, atFrame frame: Int64)
}

/// The one reading of an incoming clock's JACK MIDI events (docs/DESIGN.md §9.1).
enum ClockInputEvents {
    /// One JACK MIDI event, its bytes decoded at its frame (the block's first
    /// frame plus the event's offset: JACK MIDI is sample-accurate) and handed to
    /// `sink` in order; then its end, which cuts a message left incomplete
    /// (`ClockInputDecoder.endOfEvent`): a JACK MIDI event holds one whole message.
    /// `decoder` and `sink` are distinct parts of the caller's context. Generic,
    /// so the real-time check is made where it is specialized, in the callers'
    /// checked cycles (a generic body checked alone would be refused for its call
    /// through the protocol's witness table, which a specialization does not make).
    @inline(__always)
    static func decode<Sink: ClockInputSink>(_ event: jack_midi_event_t, blockStart start: Int64,
                                             decoder: inout ClockInputDecoder, into sink: inout Sink) {
        guard let bytes = event.buffer else { return }
        let frame = start + Int64(event.time)
        var i = 0
        while i < event.size {
            if let output = decoder.decode(bytes[i], atFrame: frame) { sink.take(output, atFrame: frame) }
            i += 1
        }
        if let error = decoder.endOfEvent(atFrame: frame) { sink.take(.error(error), atFrame: frame) }
    }
}
