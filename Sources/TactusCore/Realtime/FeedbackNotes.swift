/// The feedback cues as MIDI notes, for a controller with pads or LEDs that can
/// light up when the force enters *strong*, on each strong step, at the maximum
/// and on a deep-press commit (the phone metronome's haptics made visible,
/// docs/DESIGN.md §5.6).
///
/// Each cue is a Note On, then its Note Off `lengthMilliseconds` later, on the
/// clock stream (JACK `clock` port and the ALSA `clock` port), in frame order
/// with the clock.
public struct FeedbackNotes: Hashable, Sendable, BitwiseCopyable {
    public var channel: MIDIChannel
    public var impact: UInt7
    public var selection: UInt7
    public var maximum: UInt7
    public var commit: UInt7
    public var velocity: UInt7
    public var lengthMilliseconds: Int

    /// Channel 16 (clear of the player's channel 1), the four lowest pads of a
    /// General MIDI drum map: 36 kick (impact), 37 side stick (selection),
    /// 38 snare (maximum), 39 hand clap (commit).
    public static let standard = FeedbackNotes(
        channel: MIDIChannel(number: 16)!, impact: UInt7(36)!, selection: UInt7(37)!, maximum: UInt7(38)!, commit: UInt7(39)!,
        velocity: UInt7(100)!, lengthMilliseconds: 50)

    public init(channel: MIDIChannel, impact: UInt7, selection: UInt7, maximum: UInt7, commit: UInt7, velocity: UInt7, lengthMilliseconds: Int) {
        self.channel = channel
        self.impact = impact
        self.selection = selection
        self.maximum = maximum
        self.commit = commit
        self.velocity = velocity
        self.lengthMilliseconds = lengthMilliseconds
    }

    /// The note of a feedback cue; nil for the clicks, which have no note.
    public func note(for sound: ClickSound) -> UInt7? {
        switch sound {
        case .impact: impact
        case .selection: selection
        case .maximum: maximum
        case .commit: commit
        case .accent, .beat, .subdivision: nil
        }
    }
}
