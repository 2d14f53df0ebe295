#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// What the control input ports say, in the engine's and the pressure
/// controller's terms. Read at the start of every run(); a value out of its
/// port's range (a host that ignores lv2:minimum/maximum) is clamped to it, so
/// no port value can stop the metronome.
struct PluginSettings: Equatable, BitwiseCopyable {
    /// Host sync (1) or the plugin's own grid (0).
    var followsHost: Bool
    var tempo: BPM
    var beatsPerBar: Int
    var beatUnit: Int
    var subdivision: Subdivision
    var accent: Bool
    /// Linear gain of the click output, from the `gain` port's dB.
    var gainDecibels: Float
    var continuous: Bool
    var upKey: UInt8
    var downKey: UInt8
    var presetKey: UInt8
    /// 0: omni; 1–16.
    var channel: Int

    init(_ ports: PluginBuffers) {
        followsHost = ports.value(.sync, 1) >= 0.5
        tempo = BPM(Double(clamp(ports.value(.tempo, 120), 1, 999)))
        beatsPerBar = Int(clamp(ports.value(.beatsPerBar, 4), 1, 32).rounded())
        // Denominators 1, 2, 4 … 32 (Meter.allowedUnits): the nearest power of two.
        let unit = clamp(ports.value(.beatUnit, 4), 1, 32)
        beatUnit = 1 << Int(log2(Double(unit)).rounded())
        switch Int(clamp(ports.value(.subdivision, 0), 0, 4).rounded()) {
        case 1: subdivision = .eighths
        case 2: subdivision = .triplets
        case 3: subdivision = .sixteenths
        case 4: subdivision = .swing
        default: subdivision = .none
        }
        accent = ports.value(.accent, 1) >= 0.5
        gainDecibels = clamp(ports.value(.gain, 0), -60, 12)
        continuous = ports.value(.pressureMode, 0) >= 0.5
        upKey = UInt8(clamp(ports.value(.upKey, 72), 0, 127).rounded())
        downKey = UInt8(clamp(ports.value(.downKey, 71), 0, 127).rounded())
        presetKey = UInt8(clamp(ports.value(.presetKey, 70), 0, 127).rounded())
        channel = Int(clamp(ports.value(.channel, 0), 0, 16).rounded())
    }

    /// Meter, accents and subdivision; `meter` overrides the ports' (the host's, in host sync).
    func bar(_ meters: MeterTable, meter: Meter? = nil) -> BarSettings {
        let m = meter ?? meters.meter(beatsPerBar: beatsPerBar, beatUnit: beatUnit) ?? meters.meter(beatsPerBar: 4, beatUnit: 4)!
        var accents = AccentPattern.standard(beats: m.beatsPerBar)
        if !accent { accents[0] = .normal }
        return BarSettings(meter: m, accents: accents, subdivision: subdivision)
    }

    var gains: SoundGains {
        SoundGains(master: Float(pow(10, Double(gainDecibels) / 20)))
    }

    /// The pressure controller's settings: its defaults, with the ports' keys, channel and mode.
    func pressure(over base: PressureConfiguration) -> PressureConfiguration {
        var c = base
        c.mode = continuous ? .continuous : .levels
        c.upKey = UInt7(truncating: upKey)
        c.downKey = UInt7(truncating: downKey)
        c.presetKey = UInt7(truncating: presetKey)
        c.channel = MIDIChannel(number: channel)
        return c
    }

    /// Whether anything the bar is made of changed.
    func barDiffers(from other: PluginSettings) -> Bool {
        beatsPerBar != other.beatsPerBar || beatUnit != other.beatUnit || subdivision != other.subdivision || accent != other.accent
    }

    func pressureDiffers(from other: PluginSettings) -> Bool {
        continuous != other.continuous || upKey != other.upKey || downKey != other.downKey
            || presetKey != other.presetKey || channel != other.channel
    }
}

@inline(__always)
func clamp(_ value: Float, _ low: Float, _ high: Float) -> Float {
    value.isNaN ? low : min(max(value, low), high)
}
