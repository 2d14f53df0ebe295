import TactusCore

/// Everything the JACK client needs from the command line (`tactus` parses it).
public struct JackRunOptions: Sendable {
    /// `-n`: JACK client name.
    public var clientName = "tactus"
    /// `-s`: a named JACK server; nil for the default one.
    public var serverName: String?
    /// Positional arguments: ports the `click` (and `feedback`) outputs connect to at start.
    public var clickConnections: [String] = []
    /// `--connect-feedback`: ports the `feedback` output connects to at start; nil:
    /// the same ports as `click`, so the cues are heard where the click is.
    public var feedbackConnections: [String]?
    /// `--connect-clock`: ports the `clock` MIDI output connects to at start.
    public var clockConnections: [String] = []
    /// `--connect-control`: MIDI outputs connected to the `control` input at start.
    public var controlConnections: [String] = []
    /// `--connect-sync`, `--connect-sync-run`: audio ports the `sync` and
    /// `sync_run` outputs connect to at start (with `engine.sync`, docs/DESIGN.md §14).
    public var syncConnections: [String] = []
    public var syncRunConnections: [String] = []
    /// `--start-stopped`: wait for a start command instead of starting at once.
    public var startStopped = false
    /// `--transport`: JACK transport off, joined, as timebase master, or followed.
    public var transport = JackTransportMode.off
    /// `--clock-offset MS`: delay of the MIDI clock against the click (negative: the click is delayed).
    public var clockOffsetMilliseconds: Double = 0
    /// `--align`: delay each output by the difference between the longest
    /// playback latency among the connected outputs and its own, so that the
    /// click, the clock and the sync pulses arrive together (docs/DESIGN.md §3.8).
    /// `tactus run` sets it unless `--no-align`; a client built here says it itself.
    public var align = false
    /// Tempo, bar, gains and clock options; `sampleRate` is replaced by the server's.
    public var engine = EngineConfiguration(sampleRate: 48000)
    /// The click sounds for a sample rate: synthesised unless the user gave samples.
    public var sounds: @Sendable (Int) -> SoundSet = { SoundSet.synthesized(sampleRate: $0) }
    /// Capacity of the control-input ring (`control` port → control thread).
    public var controlInputCapacity = 4096
    /// When set, every clock event is also copied to a ring of this capacity for the ALSA output.
    public var clockStreamCapacity: Int?
    /// `mlockall` before activation (warns once when not permitted).
    public var lockMemory = true
    /// `--link`: Ableton Link as the time source; nil without it.
    public var link: LinkRunOptions?
    /// `--clock-in`: a `clock_in` MIDI input whose beat clock is the time source
    /// (docs/DESIGN.md §9.1).
    public var clockIn = false
    /// `--alsa-clock-from`: the incoming clock comes from the ALSA sequencer's
    /// `clock_in` port, not JACK's: no `clock_in` JACK port is registered, and
    /// the cycle follows what the ALSA input thread hands it in
    /// `JackShared.clockInArrivals` (docs/DESIGN.md §9.1). Goes with `clockIn`.
    public var clockInFromALSA = false
    /// Capacity of that ring: 2 s of ticks at 300 BPM (120 a second) and more,
    /// for cycles that stopped reading while no server ran.
    public static let clockInArrivalsCapacity = 1024
    /// `--connect-clock-in`: MIDI outputs (the leader's clock) connected to
    /// `clock_in` at start and on every new server, as the other ports' are
    /// (`JackConnectionKeeper`): the leader is heard again after a restart
    /// without a hand-made `jack_connect`.
    public var clockInConnections: [String] = []

    public init() {}

    /// The clock offset against its range, in milliseconds: at most one beat of
    /// the start tempo either way (no sample rate needed: the server's is not known yet).
    public func checkClockOffset() throws(JackError) {
        let beatMilliseconds = 60_000 / engine.tempo.value
        guard abs(clockOffsetMilliseconds) <= beatMilliseconds else {
            throw .clockOffsetTooLarge(milliseconds: clockOffsetMilliseconds, beatMilliseconds: beatMilliseconds)
        }
    }

    /// The clock offset in frames at `sampleRate`, checked first (`checkClockOffset`).
    public func clockOffsetFrames(sampleRate: Int) throws(JackError) -> Int32 {
        try checkClockOffset()
        return Int32((clockOffsetMilliseconds * Double(sampleRate) / 1000).rounded())
    }

    /// What the engine is told once the first server is there: the clock
    /// running while stopped (`--clock-while-stopped`: from the first cycle, so
    /// a slave shows the tempo before anything starts, docs/DESIGN.md §4.1),
    /// then Start, unless `--start-stopped`, so the listener and the slaves get
    /// the first beat and its Start.
    static func firstCommands(_ options: JackRunOptions, _ push: (EngineCommand) -> Void) {
        if options.engine.clockWhileStopped { push(.setClockWhileStopped(true)) }
        if !options.startStopped { push(.start) }
    }
}

/// `--link`, `--link-quantum N`, `--link-start-stop` (docs/DESIGN.md §11).
public struct LinkRunOptions: Sendable, Equatable {
    /// Link's quantum in beats; nil: the beats of a bar of the starting meter.
    public var quantum: Int?
    /// Share start and stop with the session's peers that share them too.
    public var sharesStartStop = false

    public init(quantum: Int? = nil, sharesStartStop: Bool = false) {
        self.quantum = quantum
        self.sharesStartStop = sharesStartStop
    }
}
