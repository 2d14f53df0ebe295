/// One port on a JACK server, as `tactus ports` lists it.
struct JackPortDescription: Equatable, Sendable {
    /// Full name ("system:playback_1").
    var name: String
    /// JACK's type string (`JACK_DEFAULT_AUDIO_TYPE`, `JACK_DEFAULT_MIDI_TYPE`, or another client's own).
    var type: String
    /// `JackPortIsOutput`: data leaves the port (a source for `jack_connect`).
    var isOutput: Bool
}
