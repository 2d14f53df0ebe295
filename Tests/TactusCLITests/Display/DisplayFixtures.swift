@testable import TactusCLI
import TactusCore

/// Models the display tests share.
enum DisplayFixtures {
    /// 133 BPM in 7/8 (2+2+3), running, beat 3 of bar 12, an up key held at
    /// light force 0.62, a preset from a set list, JACK up, three connections.
    static var playing: DisplayModel {
        DisplayModel(
            tempo: BPM(133), meter: Meter("7/8")!, accents: AccentPattern("XxXxXxx")!, running: true,
            bar: 12, beat: 3, beatAccent: .accent,
            pressure: PressureStatus(tempo: BPM(133), force: 0.62, level: .light, key: .up, acceleration: 6.25, mode: .force),
            preset: PresetPosition(name: "7/8 (2+2+3)", index: 2, count: 5, isSetlist: true),
            jack: .connected(JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256, xruns: 0, dspLoadPercent: 3)),
            connections: [MIDIConnection(.jack, .clock, "rec:midi_1"), MIDIConnection(.jack, .control, "sender:out"),
                          MIDIConnection(.alsa, .control, "USB Keystation 49:0")],
            alsaActive: true, clockOffsetMilliseconds: 2.5,
            message: "preset refused: broken.json: pressure.strongThreshold 1.5 is not in 0…1")
    }

    static var idle: DisplayModel {
        DisplayModel(tempo: BPM(120), jack: .waiting(server: nil))
    }
}

/// Strips ECMA-48 SGR sequences (ESC [ … m).
func withoutEscapes(_ text: String) -> String {
    var out = ""
    var inEscape = false
    for c in text {
        if inEscape { if c == "m" { inEscape = false }; continue }
        if c == "\u{1B}" { inEscape = true; continue }
        out.append(c)
    }
    return out
}
