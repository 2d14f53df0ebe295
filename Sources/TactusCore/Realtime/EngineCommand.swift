/// What the control thread asks of the engine, through an `SPSCRing`: the one
/// way anything reaches the render thread, tempo included (`setTempo`; the
/// control thread's `ControlLoop` is its only writer), so commands take effect
/// in the order they were given.
public enum EngineCommand: Sendable, BitwiseCopyable {
    /// A new tempo, taken at the next MIDI clock tick, where the grid is
    /// re-anchored (or at once while the grid stands still); with a bar change
    /// waiting for its bar line, it rides on that change instead.
    case setTempo(BPM)
    /// MIDI Start: play from bar 1 (0xFA before the first clock).
    case start
    /// MIDI Stop: silence, 0xFC, then Song Position Pointer of where it stopped.
    case stop
    /// MIDI Continue from the stored song position (SPP, then 0xFB).
    case `continue`
    /// Move the song position to the start of `bar` (1-based).
    case locate(bar: Int32)
    /// Move the song position to the start of the bar a shared transport's
    /// frame is in, counted at the grid's tempo and meter
    /// (`Engine.transportBar(atFrame:)`, docs/DESIGN.md §13.2).
    case locateTransport(frame: UInt32)
    /// New meter, accents, subdivision and optionally tempo, at a bar line or beat;
    /// with `sounds` and `gains`, the click plays them from that bar line's first
    /// click (a preset's samples and levels: the old bar keeps its sound to the
    /// end). The set replaced, or one never used (the switch overtaken by
    /// another), comes back in `EngineControl.retiredSounds`.
    /// `request`: its number when the control thread waits for it to be heard
    /// (`EngineControl.pushBarChange`), 0 otherwise.
    case changeBar(BarSettings, tempo: BPM?, at: SwitchPoint, sounds: SoundSet? = nil, gains: SoundGains? = nil, request: Int = 0)
    /// A time source's bars (an LV2 host's meter and `time:bar`): bar `bar`
    /// (from 1) of `settings` starts at song pulse `songPulse` (96 a quarter
    /// note, the source's song position), which may already be behind: a host
    /// tells a meter change in the cycle after its bar line. The bar count is
    /// re-anchored there, so beat 1 is where the source says (docs/DESIGN.md §8.5).
    case anchorBar(BarSettings, atSongPulse: Int64, bar: Int32)
    /// Play a feedback cue on the feedback output, at the start of the next block
    /// (and as a MIDI note on the clock stream when feedback notes are on).
    case cue(ClickSound)
    /// Feedback cues as MIDI notes on the clock stream, or nil for none.
    case setFeedbackNotes(FeedbackNotes?)
    case setGains(SoundGains)
    /// Silence the clicks; the clock keeps running.
    case setMuted(Bool)
    /// Delay of the MIDI clock against the click in frames; negative delays the click instead.
    case setClockOffset(frames: Int32)
    /// Latency alignment (`--align`): each output's delay on top of the clock
    /// offset, so that the click, the clock and the sync lines arrive together
    /// (`OutputShifts`, docs/DESIGN.md §3.8).
    case setAlignment(OutputShifts)
    /// Send 0xF8 while stopped, so a slave can lock its tempo before Start.
    case setClockWhileStopped(Bool)
    case setSongPositionEnabled(Bool)
    /// A practice tool set or cleared while Tactus runs (OSC, docs/DESIGN.md §12.2).
    case setPractice(PracticeChange)
    /// Render from these sounds from now on; the old set comes back in `EngineControl.retiredSounds`.
    case replaceSounds(SoundSet)
}

extension EngineCommand {
    /// The tempo the command carries to the engine (`.setTempo`, a bar change
    /// with a tempo); nil for every other command.
    public var tempo: BPM? {
        switch self {
        case .setTempo(let tempo): tempo
        case .changeBar(_, let tempo, _, _, _, _): tempo
        default: nil
        }
    }
}
