import TactusCore

/// Everything the live display shows, as one value: built on the control thread
/// from the engine's status atomics, the pressure controller, the preset
/// switcher and the JACK and ALSA clients, then compared with the last one
/// drawn (`RedrawLimiter`) and drawn (`ScreenRenderer`) or logged (`ChangeLog`).
/// Plain data, so tests build it by hand.
public struct DisplayModel: Hashable, Sendable {
    /// The tempo heard: what the keys and the controller last stored, but for a
    /// preset's tempo, which counts from its bar line (`pending` until then).
    public var tempo: BPM
    public var meter: Meter
    public var accents: AccentPattern
    public var running: Bool
    /// Clicks silenced with `m`; the clock keeps running.
    public var muted: Bool
    /// Bar and beat (1-based) of the last beat heard; 0 before the first.
    public var bar: Int
    public var beat: Int
    /// The accent of that beat (the engine's, so a preset switch shows when it lands).
    public var beatAccent: Accent
    /// The pressure controller: force, level, key held, acceleration, deep press.
    public var pressure: PressureStatus
    public var preset: PresetPosition?
    public var jack: JackView
    /// ALSA sequencer and JACK MIDI connections of Tactus' ports.
    public var connections: [MIDIConnection]
    /// Whether the ALSA sequencer client runs (`--no-alsa`, or no `/dev/snd/seq`: false).
    public var alsaActive: Bool
    /// `--clock-offset` (or the preset's): the MIDI clock against the click, ms.
    public var clockOffsetMilliseconds: Double
    /// The last thing said to the player (a refused preset, a stuck key), for a few seconds.
    public var message: String?
    /// Tempo map, trainer and gap (nil: none of them runs).
    public var practice: PracticeView?
    /// A bar change asked for and not heard yet (a preset before its bar line).
    public var pending: PendingChange?
    /// The subdivision of the bar heard.
    public var subdivision: Subdivision
    /// Whether a MIDI controller has sent anything (false: no force to show yet).
    public var controllerHeard: Bool
    /// The beat (from 0) whose accent `a` edits; nil: no cursor shown.
    public var beatCursor: Int?
    /// The Link session, with `--link`; nil without it.
    public var link: LinkSessionView?
    /// The incoming MIDI clock, with `--clock-in`; nil without it.
    public var clockIn: ClockInView?

    public init(tempo: BPM, meter: Meter = .fourFour, accents: AccentPattern? = nil, running: Bool = false, muted: Bool = false,
                bar: Int = 0, beat: Int = 0, beatAccent: Accent = .accent, pressure: PressureStatus? = nil,
                preset: PresetPosition? = nil, jack: JackView = .waiting(server: nil), connections: [MIDIConnection] = [],
                alsaActive: Bool = false, clockOffsetMilliseconds: Double = 0, message: String? = nil, practice: PracticeView? = nil,
                pending: PendingChange? = nil, subdivision: Subdivision = .none, controllerHeard: Bool = true, beatCursor: Int? = nil) {
        self.tempo = tempo
        self.meter = meter
        self.accents = accents ?? .standard(beats: meter.beatsPerBar)
        self.running = running
        self.muted = muted
        self.bar = bar
        self.beat = beat
        self.beatAccent = beatAccent
        self.pressure = pressure ?? PressureStatus(tempo: tempo)
        self.preset = preset
        self.jack = jack
        self.connections = connections
        self.alsaActive = alsaActive
        self.clockOffsetMilliseconds = clockOffsetMilliseconds
        self.message = message
        self.practice = practice
        self.pending = pending
        self.subdivision = subdivision
        self.controllerHeard = controllerHeard
        self.beatCursor = beatCursor
    }
}

/// The preset playing and where it stands in the list Program Change and the
/// deep press walk through.
public struct PresetPosition: Hashable, Sendable {
    public var name: String
    /// 0-based place in the list; nil when the preset came from a file outside it.
    public var index: Int?
    public var count: Int
    /// The list is a set list (`--setlist`), not the library's order.
    public var isSetlist: Bool

    public init(name: String, index: Int?, count: Int, isSetlist: Bool = false) {
        self.name = name
        self.index = index
        self.count = count
        self.isSetlist = isSetlist
    }
}

/// The JACK side as the display shows it.
public enum JackView: Hashable, Sendable {
    case connected(JackFigures)
    /// No server (not yet, or it went away): Tactus retries every second.
    case waiting(server: String?)
}

public struct JackFigures: Hashable, Sendable {
    /// The server's name (`-s`, else `default`).
    public var server: String
    /// The name JACK gave the client.
    public var client: String
    public var sampleRate: Int
    /// Frames per period.
    public var period: Int
    /// Xruns since Tactus started.
    public var xruns: Int
    /// JACK's DSP load (`jack_cpu_load`), whole percent; refreshed slowly so it
    /// does not redraw the screen on its own.
    public var dspLoadPercent: Int
    /// `--transport`: the mode, whether the transport rolls, and the timebase
    /// master ("transport master, rolling; timebase tactus (this client)"); nil: off.
    public var transport: String?
    /// `--sync-out`: the kind and its ports ("po on tactus:sync -> system:playback_2"); nil: none.
    public var sync: String?

    public init(server: String, client: String, sampleRate: Int, period: Int, xruns: Int = 0, dspLoadPercent: Int = 0, transport: String? = nil,
                sync: String? = nil) {
        self.transport = transport
        self.sync = sync
        self.server = server
        self.client = client
        self.sampleRate = sampleRate
        self.period = period
        self.xruns = xruns
        self.dspLoadPercent = dspLoadPercent
    }
}

/// One MIDI connection of a Tactus port.
public struct MIDIConnection: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum System: String, Sendable, Hashable, Comparable {
        case jack = "JACK"
        case alsa = "ALSA"
        public static func < (a: System, b: System) -> Bool { a.rawValue > b.rawValue }
    }

    public enum Port: String, Sendable, Hashable, Comparable {
        /// MIDI beat clock out.
        case clock
        /// Controller in.
        case control
        public static func < (a: Port, b: Port) -> Bool { a.rawValue < b.rawValue }
    }

    public var system: System
    public var port: Port
    /// The other end, as its system names it ("system:midi_capture_1", "USB Keystation 49:0").
    public var other: String

    public init(_ system: System, _ port: Port, _ other: String) {
        self.system = system
        self.port = port
        self.other = other
    }

    /// "clock -> Qtractor:0", "control <- USB Keystation 49:0": the direction the MIDI flows.
    public var description: String {
        port == .clock ? "clock -> \(other)" : "control <- \(other)"
    }

    public static func < (a: MIDIConnection, b: MIDIConnection) -> Bool {
        (a.system, a.port, a.other) < (b.system, b.port, b.other)
    }
}
