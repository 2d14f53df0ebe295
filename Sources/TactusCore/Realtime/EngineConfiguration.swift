/// How an engine starts.
public struct EngineConfiguration: Sendable {
    public var sampleRate: Int
    public var tempo: BPM
    public var bar: BarSettings
    public var gains: SoundGains
    /// Delay of the MIDI clock against the click, in frames; negative delays the click.
    public var clockOffsetFrames: Int32
    public var clockWhileStopped: Bool
    public var sendSongPosition: Bool
    public var muted: Bool
    /// Feedback cues also as MIDI notes on the clock stream; nil: sound only.
    public var feedbackNotes: FeedbackNotes?
    /// A tempo map played from each Start (`--map`); the caller owns its memory.
    public var map: MapTimeline?
    /// Practice tools (docs/DESIGN.md §10.4–§10.6); nil: none.
    public var countIn: CountIn?
    public var trainer: SpeedTrainer?
    public var gap: GapTrainer?
    /// Sync outputs (docs/DESIGN.md §14); nil: none.
    public var sync: SyncSettings?

    public init(sampleRate: Int, tempo: BPM = BPM(120), bar: BarSettings = BarSettings(), gains: SoundGains = SoundGains(),
                clockOffsetFrames: Int32 = 0, clockWhileStopped: Bool = false, sendSongPosition: Bool = true, muted: Bool = false,
                feedbackNotes: FeedbackNotes? = nil, map: MapTimeline? = nil,
                countIn: CountIn? = nil, trainer: SpeedTrainer? = nil, gap: GapTrainer? = nil, sync: SyncSettings? = nil) {
        self.sampleRate = sampleRate
        self.tempo = tempo
        self.bar = bar
        self.gains = gains
        self.clockOffsetFrames = clockOffsetFrames
        self.clockWhileStopped = clockWhileStopped
        self.sendSongPosition = sendSongPosition
        self.muted = muted
        self.feedbackNotes = feedbackNotes
        self.map = map
        self.countIn = countIn
        self.trainer = trainer
        self.gap = gap
        self.sync = sync
    }
}
