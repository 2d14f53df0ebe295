/// What `tactus learn` finds out about one keyboard controller: which keys are
/// the control keys, on which channel, and how its pressure sensor behaves.
/// Saved as `$XDG_CONFIG_HOME/tactus/controller.json` and laid over the
/// defaults of `PressureConfiguration` at start.
public struct ControllerSettings: Hashable, Sendable {
    /// The file format's version (the `version` field).
    public static let version = 1

    /// nil: omni (the keys were learned on different channels).
    public var channel: MIDIChannel?
    public var upKey: UInt7
    public var downKey: UInt7
    public var presetKey: UInt7
    public var calibration: PressureConfiguration.Calibration
    /// False when the hard press sent no pressure: the controller has no
    /// aftertouch, and holds will be long presses.
    public var hasAftertouch: Bool
    /// Buttons and pedals bound to actions (tap tempo, start/stop …; `tactus learn --action`).
    public var actions: [ActionBinding]
    /// The JACK transport mode of this studio's runs (the file's `transport`);
    /// nil: `off` unless the command line or the starting preset says another.
    /// `--transport` wins, then the starting preset's `"transport"`, then this.
    public var transport: JackTransportMode?
    /// The MIDI beat clock this studio's runs follow (the file's `clockIn`,
    /// `ClockInSchema`); nil: none unless the command line or the starting
    /// preset names one. `--clock-in` or `--alsa-clock-from` wins, then the
    /// starting preset's `"clockIn"`, then this.
    public var clockIn: ClockInChoice?

    public init(channel: MIDIChannel?, upKey: UInt7, downKey: UInt7, presetKey: UInt7,
                calibration: PressureConfiguration.Calibration = .init(), hasAftertouch: Bool = true,
                actions: [ActionBinding] = [], transport: JackTransportMode? = nil, clockIn: ClockInChoice? = nil) {
        self.actions = actions
        self.clockIn = clockIn
        self.transport = transport
        self.channel = channel
        self.upKey = upKey
        self.downKey = downKey
        self.presetKey = presetKey
        self.calibration = calibration
        self.hasAftertouch = hasAftertouch
    }

    /// The keys, channel and calibration of these settings over `configuration`.
    public func applied(to configuration: PressureConfiguration) -> PressureConfiguration {
        var c = configuration
        c.channel = channel
        c.upKey = upKey
        c.downKey = downKey
        c.presetKey = presetKey
        c.calibration = calibration
        return c
    }

    /// What `tactus learn` prints after saving, one fact a line.
    public var summary: [String] {
        [
            "up key:     \(upKey) (\(NoteName.of(upKey)))",
            "down key:   \(downKey) (\(NoteName.of(downKey)))",
            "preset key: \(presetKey) (\(NoteName.of(presetKey)))",
            "channel:    \(channel.map { String($0.number) } ?? "omni (any)")",
            hasAftertouch
                ? "pressure:   dead zone \(calibration.deadZone), maximum \(calibration.maximum), curve \(calibration.curve.rawValue)"
                : "pressure:   none received (no aftertouch): holding a key accelerates as a long press",
        ] + actions.map { "action:     \($0.action.rawValue) on \($0.trigger)\($0.invert ? " (inverted)" : "")" }
    }
}

/// Note names as most controllers and DAWs print them: middle C (60) is C4.
public enum NoteName {
    static let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    public static func of(_ note: UInt7) -> String {
        let n = Int(note.value)
        return "\(names[n % 12])\(n / 12 - 1)"
    }
}
