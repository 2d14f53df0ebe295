import TactusCore
import TactusJACK

/// Everything the `tactus` command line can say, parsed once. Every subcommand
/// reads the options it needs; the parser refuses an option the command does
/// not take (`OptionSpec.commands`), so none is silently ignored.
///
/// Fields are optional where "not given" must differ from the default (a preset
/// or the last tempo may supply the value instead).
public struct Options: Sendable {
    public enum Command: String, Sendable, CaseIterable {
        /// Run on JACK (the default).
        case run
        /// Render a click track to a WAV file offline.
        case render
        /// List presets, or `presets check FILE…`.
        case presets
        /// List ALSA sequencer and JACK MIDI ports.
        case ports
        /// MIDI learn: map the control keys and calibrate the pressure sensor.
        case learn
        /// Measure an incoming MIDI beat clock: tempo, spread, drift, missing ticks.
        case clockMeter = "clock-meter"
    }

    public var command: Command = .run
    /// The command was written (`tactus run`), not taken as the default.
    public var commandGiven = false
    /// Words after the subcommand that are not options: ports to connect (run),
    /// the output file (render), `check FILE…` (presets).
    public var arguments: [String] = []

    public var showHelp = false
    public var showVersion = false

    // Tempo and bar.
    public var tempo: BPM?
    /// The tempo of klick's form (`tactus 7/8 133`), in quarter notes a minute as
    /// klick counts it; `resolveQuarterNoteTempo` turns it into `tempo` once the meter is known.
    public var quarterNoteTempo: BPM?
    public var meter: Meter?
    public var accents: AccentPattern?
    public var subdivision: Subdivision?
    /// `--pulse beat|dotted`.
    public var pulse: Pulse?
    /// `--swing RATIO`: eighths, the off-beat at RATIO of the beat.
    public var swingRatio: Double?
    /// Output gain of the click in dB.
    public var gainDecibels: Double = 0
    public var mute = false
    /// User WAV samples by sound (`--sample-*`): they win over a preset's.
    public var samples: [ClickSound: String] = [:]
    /// The starting preset's WAV samples by sound, paths resolved (`PresetStart.applySettings`).
    public var presetSamples: [ClickSound: String] = [:]
    /// Per-sound gains: the starting preset's (no option sets them); the master is `--gain`.
    public var soundGains = SoundGains()
    /// The starting preset's clock keys (`PresetStart.applySettings`).
    public var presetClock = ClockOptions()

    // JACK.
    public var clientName = "tactus"
    public var serverName: String?
    /// `--wait SECONDS`: how long a run waits for a first JACK server before it
    /// gives up with status 1; nil waits until Ctrl-C.
    public var waitSeconds: Double?
    public var connectClock: [String] = []
    public var connectFeedback: [String] = []
    /// `--connect-sync`, `--connect-sync-run`: where the sync ports go (docs/DESIGN.md §14).
    public var connectSync: [String] = []
    public var connectSyncRun: [String] = []
    public var connectControl: [String] = []
    public var startStopped = false
    /// `--transport off|join|master|master-force|follow` (or the starting preset's `"transport"`).
    public var transport = JackTransportMode.off
    /// `--transport` was given: it pins the mode, and presets' `"transport"` leave it alone.
    public var transportPinned = false

    // Ableton Link.
    /// `--link` (or a preset's `"link": true`).
    public var link = false
    /// `--link-quantum N`; nil: the beats of a bar.
    public var linkQuantum: Int?
    /// `--link-start-stop`.
    public var linkStartStop = false
    /// `--clock-in`: follow the MIDI beat clock on the `clock_in` JACK input.
    public var clockIn = false
    /// An incoming MIDI clock is the time source: `--clock-in` (JACK) or
    /// `--alsa-clock-from` (the ALSA sequencer), docs/DESIGN.md §9.
    public var followsClock: Bool { clockIn || alsaClockFrom != nil }
    /// `--connect-clock-in`: the leaders' MIDI outputs connected to `clock_in`.
    public var connectClockIn: [String] = []

    // Clock.
    /// `--clock-offset`; nil: not given (a preset's `clock.offsetMs`, else 0).
    /// What plays is `clock`: these three as they leave the preset's keys.
    public var clockOffsetMilliseconds: Double?
    /// Outputs aligned on their JACK playback latencies (docs/DESIGN.md §3.8): on
    /// unless `--no-align`, so the click, the clock and the sync pulses arrive together.
    public var align = true
    public var clockWhileStopped = false
    public var sendSongPosition = true

    // Pressure control.
    public var pressureMode: PressureConfiguration.Mode?
    /// `.some(nil)` means omni was asked for explicitly.
    public var controlChannel: MIDIChannel??
    public var upKey: UInt7?
    public var downKey: UInt7?
    public var presetKey: UInt7?
    /// Send feedback cues as MIDI notes too.
    public var feedbackMIDI = false

    // Presets.
    public var preset: String?
    public var setlist: String?
    public var switchPoint: SwitchPoint = .nextBar
    /// `tactus presets --names`: the names alone, for a shell's completion.
    public var presetNamesOnly = false

    // ALSA sequencer.
    public var useALSA = true
    public var alsaClockTo: [String] = []
    public var alsaControlFrom: [String] = []
    /// `--alsa-clock-from C:P`: follow the MIDI beat clock arriving from this
    /// sequencer port on Tactus's ALSA `clock_in` (the clock in, from ALSA);
    /// with `tactus clock-meter`, the port whose clock is measured.
    public var alsaClockFrom: String?
    public var alsaLookaheadMilliseconds: Double = 5

    // Remote control.
    /// `--osc PORT`: the OSC server's UDP port; nil: no server.
    public var oscPort: UInt16?
    /// `--osc-host ADDRESS`: the address it listens on.
    public var oscHost = "127.0.0.1"
    /// `--osc-host` was written (it means nothing without `--osc`).
    public var oscHostGiven = false
    /// `tactus learn --action ACTION`: learn a button or pedal for it.
    public var learnAction: ControlAction?

    // Tempo map.
    /// `--map FILE`, klick's format; `tempoMap` is the map read from it (`MapFile`), from `--start-at`'s label on.
    public var mapFile: String?
    public var startAt: String?
    public var mapLoop = false
    public var tempoMap: TempoMap?

    // Practice.
    /// `--count-in BARS` (0: two beats).
    public var countInBars: Int?
    public var countInClock = false
    /// `--trainer`, or klick's positional `80-120/10`; in the meter's beats once
    /// `resolveQuarterNoteTempo` has run (klick's form counts quarter notes).
    public var trainer: SpeedTrainer?
    public var trainerInQuarterNotes = false
    /// `--gap`, `--gap-random`, `--seed`.
    public var gap = GapTrainer()

    // Display.
    /// nil: interactive when standard output is a terminal.
    public var interactive: Bool?

    // Render, and the clock meter's length.
    public var seconds: Double?
    public var sampleRate = 48_000
    public var blockSize = 1024
    public var midiLog: String?
    public var wavFormat: WAVFormat = .pcm16
    /// `--format` was given (an Ogg Vorbis file refuses it rather than ignore it).
    public var wavFormatGiven = false

    // Sync outputs (docs/DESIGN.md §14).
    public var syncKind: SyncKind?
    public var syncWidthMilliseconds: Double?
    public var syncReset: SyncReset?

    public enum WAVFormat: String, Sendable, CaseIterable {
        case pcm16 = "16"
        case pcm24 = "24"
        case float
    }

    public init() {}
}

/// A command-line mistake: one line naming the option and what is allowed.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The exit status it ends the command with: 2 for usage (the default), 1
    /// for a failure of a sound command line (a file that cannot be written).
    public let status: Int32
    public init(_ message: String, status: Int32 = OptionError.exitStatus) {
        self.message = message
        self.status = status
    }
    /// Exit status for a failure while running (the manual's EXIT STATUS).
    public static let failureStatus: Int32 = 1
    public var description: String { message }
    /// The message without its leading `tactus: `, to put after another subject.
    public var reason: String { message.hasPrefix("tactus: ") ? String(message.dropFirst(8)) : message }
    /// Exit status for a usage error, as JACK tools and getopt programs use.
    public static let exitStatus: Int32 = 2
}
