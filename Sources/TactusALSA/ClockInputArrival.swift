import CALSA
import TactusCore

/// What one event read from the `clock_in` port (`--alsa-clock-from`) means to
/// the clock follower (docs/DESIGN.md §9.1).
///
/// The sequencer hands over typed events, not bytes: a MIDI interface's driver
/// has already parsed the wire (sound/core/seq/seq_midi_event.c), so a stray
/// data byte never reaches a client. What can still be wrong is what a client
/// writes itself: a Song Position outside MIDI's 14 bits, a channel or value
/// outside MIDI's range (`DecodedInput.malformed`). Each is said in one line
/// naming the sender and the value, and skipped; the ticks around it still
/// count, as on JACK's `clock_in`, where the decoder says a broken byte stream.
/// Well-formed events that are not beat clock (notes, Active Sensing, MTC) are
/// counted and skipped without a word, as the JACK decoder's `otherMessages`.
enum ClockInputArrival: Hashable, Sendable {
    /// Timing Clock, Start, Continue, Stop or a Song Position in range.
    case clock(ClockInputEvent)
    /// An event with a field no MIDI byte stream can carry: its kind (a Song
    /// Position, or the event's type) and the line that says so.
    case malformed(kind: String, line: String)
    /// A well-formed event that is not beat clock.
    case notClock

    init(_ event: snd_seq_event_t) {
        // DecodedInput, the control port's reading, takes Timing Clock for no message.
        if UInt32(event.type) == SND_SEQ_EVENT_CLOCK.rawValue { self = .clock(.tick); return }
        let sender = SequencerAddress(client: event.source.client, port: event.source.port)
        switch DecodedInput(event) {
        case .message(.start): self = .clock(.start)
        case .message(.continue): self = .clock(.continue)
        case .message(.stop): self = .clock(.stop)
        case .message(.songPosition(let midiBeats)): self = .clock(.songPosition(midiBeats: midiBeats))
        case .malformed where UInt32(event.type) == SND_SEQ_EVENT_SONGPOS.rawValue:
            self = .malformed(kind: "song position", line: "ALSA clock in: Song Position Pointer \(event.data.control.value) from \(sender) is outside MIDI's 0–16383 (14 bits): "
                              + "ignored, the ticks still count")
        case .malformed:
            self = .malformed(kind: "type \(event.type)", line: "ALSA clock in: an event of type \(event.type) from \(sender) with a channel or value outside MIDI's range: "
                              + "ignored, the ticks still count")
        case .message, .ignored:
            self = .notClock
        }
    }
}
