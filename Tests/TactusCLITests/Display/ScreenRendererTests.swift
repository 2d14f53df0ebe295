import Testing
@testable import TactusCLI
import TactusCore

@Suite("Screen renderer: the display's lines for a width and height")
struct ScreenRendererTests {
    @Test func an80By24TerminalShowsEveryPart() {
        let lines = ScreenRenderer(width: 80, height: 24).render(DisplayFixtures.playing)
        let expected = [
            "Tactus  RUNNING",
            "",
            "tempo   1/8 = 133   7/8   bar:beat 12:3   (MIDI clock 1/4 = 66.5)",
            "beat     X   x  [X]  x   X   x   x ",
            "",
            "force   [####################-------------]   62%  light   up        +6.25 BPM/s",
            "",
            "",
            "preset  7/8 (2+2+3)  (3/5 of the set list)",
            "JACK    default: tactus  48000 Hz  256 frames  xruns 0  DSP 3%",
            "Link    off",
            "MIDI    JACK clock -> rec:midi_1, control <- sender:out",
            "        ALSA control <- USB Keystation 49:0",
            "clock   offset +2.5 ms",
            "",
            "> preset refused: broken.json: pressure.strongThreshold 1.5 is not in 0…1",
        ] + Array(repeating: "", count: 5) + [
            "keys    space start/stop  <- -> -1/+1  up down +10/-10  = type a tempo  t tap",
            "        [ ] preset  m mute  + - volume  s subdivision  1-9 0 beats a bar",
            "        < > beat  a accent  w save preset  q quit",
        ]
        #expect(lines == expected)
    }

    @Test func tempoShowsTwoDecimalsOnlyWhenFractional() {
        var m = DisplayFixtures.idle
        m.tempo = BPM(97.3)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[2] == "tempo   97.30 BPM   4/4   bar:beat -:-")
        m.tempo = BPM(120.05)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[2] == "tempo   120.05 BPM   4/4   bar:beat -:-")
        m.tempo = BPM(999)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[2] == "tempo   999 BPM   4/4   bar:beat -:-")
    }

    @Test func theBeatIndicatorBracketsTheBeatHeardAndTellsAccentFromBeat() {
        var m = DisplayFixtures.idle
        m.running = true
        m.bar = 1
        m.beat = 1
        m.beatAccent = .accent
        let renderer = ScreenRenderer(width: 80, height: 24)
        #expect(renderer.render(m)[3] == "beat    [X]  x   x   x ")
        m.beat = 2
        m.beatAccent = .normal
        #expect(renderer.render(m)[3] == "beat     X  [x]  x   x ")
        m.beat = 4
        #expect(renderer.render(m)[3] == "beat     X   x   x  [x]")
        // Before the first beat, nothing is bracketed; a silent beat is a dot.
        m.beat = 0
        m.accents = AccentPattern("X.x.")!
        #expect(renderer.render(m)[3] == "beat     X   .   x   . ")
    }

    @Test func aBarTooWideToSpaceOutIsPacked() {
        var m = DisplayFixtures.idle
        m.meter = Meter(beatsPerBar: 32, beatUnit: 16)!
        m.accents = .standard(beats: 32)
        m.beat = 5
        m.beatAccent = .normal
        m.bar = 2
        let line = ScreenRenderer(width: 80, height: 24).render(m)[3]
        #expect(line == "beat    Xxxx[x]" + String(repeating: "x", count: 27))
    }

    @Test func accentAndBeatHaveDifferentColours() {
        var m = DisplayFixtures.idle
        m.running = true
        m.bar = 1
        m.beat = 1
        m.beatAccent = .accent
        let renderer = ScreenRenderer(width: 80, height: 24, color: true)
        let accent = renderer.render(m)[3]
        m.beat = 2
        m.beatAccent = .normal
        let beat = renderer.render(m)[3]
        #expect(accent.contains("\u{1B}[1;37;41m[X]\u{1B}[0m"))
        #expect(beat.contains("\u{1B}[1;30;42m[x]\u{1B}[0m"))
    }

    @Test func theForceBarIsProportionalToTheCalibratedForce() {
        // 80 columns: 33 cells. filled = round(force × 33).
        let renderer = ScreenRenderer(width: 80, height: 24)
        for (force, filled) in [(0.0, 0), (0.03, 1), (0.25, 8), (0.5, 17), (0.7, 23), (1.0, 33)] {
            var m = DisplayFixtures.idle
            m.pressure = PressureStatus(tempo: m.tempo, force: force, level: .light, key: .down, acceleration: -6.25)
            let line = renderer.render(m)[5]
            #expect(line.filter { $0 == "#" }.count == filled, "force \(force): \(line)")
            #expect(line.filter { $0 == "-" }.count == 33 - filled + 1, "the minus of -6.25 too")
        }
    }

    @Test func theForceRowNamesLevelKeyAndAcceleration() {
        var m = DisplayFixtures.idle
        m.pressure = PressureStatus(tempo: m.tempo, force: 0.8, level: .strong, key: .down, acceleration: -62.5)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[5]
                == "force   [##########################-------]   80%  strong  down      -62.5 BPM/s")
        m.pressure = PressureStatus(tempo: m.tempo, force: 0, level: .rest, key: .up, acceleration: 10, mode: .longPress)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[5]
                == "force   [---------------------------------]    0%  rest    up          +10 BPM/s")
    }

    @Test func deepPressProgressShowsOnlyWhileThePresetKeyIsHeld() {
        var m = DisplayFixtures.idle
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[6] == "")
        m.pressure = PressureStatus(tempo: m.tempo, force: 0.3, level: .light, key: .preset, deepPressProgress: 0.4)
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[6]
                == "deep    [#############--------------------]   40%  toward next preset")
        m.pressure.deepPressProgress = 1
        #expect(ScreenRenderer(width: 80, height: 24).render(m)[6]
                == "deep    [#################################]  100%  next preset")
    }

    @Test func presetPositionInListOrSetListOrFromAFile() {
        var m = DisplayFixtures.idle
        let renderer = ScreenRenderer(width: 80, height: 24)
        m.preset = PresetPosition(name: "Andante", index: 3, count: 16)
        #expect(renderer.render(m)[8] == "preset  Andante  (4/16 of the list)")
        m.preset = PresetPosition(name: "Mine", index: nil, count: 16)
        #expect(renderer.render(m)[8] == "preset  Mine  (from a file, not in the list of 16)")
    }

    @Test func jackStatusConnectedAndWaiting() {
        var m = DisplayFixtures.idle
        let renderer = ScreenRenderer(width: 80, height: 24)
        #expect(renderer.render(m)[9] == "JACK    no server default yet; retrying every second")
        m.jack = .connected(JackFigures(server: "studio", client: "tactus-01", sampleRate: 44100, period: 128, xruns: 7, dspLoadPercent: 41))
        #expect(renderer.render(m)[9] == "JACK    studio: tactus-01  44100 Hz  128 frames  xruns 7  DSP 41%")
    }

    @Test func everyLineFitsEveryWidthAndHeight() {
        for width in [10, 20, 32, 40, 50, 60, 64, 79, 80, 120] {
            for height in [1, 5, 10, 12, 16, 24, 40] {
                for color in [false, true] {
                    let lines = ScreenRenderer(width: width, height: height, color: color).render(DisplayFixtures.playing)
                    #expect(lines.count == height, "the layout fills the screen: blank rows when it is tall")
                    for line in lines {
                        #expect(withoutEscapes(line).count <= width, "\(width)x\(height): \(line)")
                    }
                }
            }
        }
    }

    @Test func aSmallScreenKeepsTempoBeatAndForce() {
        let lines = ScreenRenderer(width: 40, height: 5).render(DisplayFixtures.playing)
        #expect(lines == [
            "Tactus  RUNNING",
            "tempo   1/8 = 133   7/8   bar:beat 12:3",
            "beat     X   x  [X]  x   X   x   x ",
            "force   [##########------]   62%  light ",
            "> preset refused: broken.json:",
        ])
        let tiny = ScreenRenderer(width: 40, height: 3).render(DisplayFixtures.playing)
        #expect(tiny == [
            "tempo   1/8 = 133   7/8   bar:beat 12:3",
            "beat     X   x  [X]  x   X   x   x ",
            "force   [##########------]   62%  light ",
        ])
    }

    @Test func colourAddsEscapesOnlyAndTheTextStaysTheSame() {
        let plain = ScreenRenderer(width: 80, height: 24).render(DisplayFixtures.playing)
        let coloured = ScreenRenderer(width: 80, height: 24, color: true).render(DisplayFixtures.playing)
        #expect(coloured.map(withoutEscapes) == plain)
        #expect(coloured.contains { $0.contains("\u{1B}[") })
        #expect(!plain.contains { $0.contains("\u{1B}") })
    }

    @Test func colourIsOffWithNoColorOrWithoutATerminal() {
        #expect(ColorPolicy.allowed(environment: ["TERM": "xterm-256color"], outputIsTerminal: true))
        #expect(!ColorPolicy.allowed(environment: ["TERM": "xterm", "NO_COLOR": "1"], outputIsTerminal: true))
        // no-color.org: an empty NO_COLOR does not count.
        #expect(ColorPolicy.allowed(environment: ["TERM": "xterm", "NO_COLOR": ""], outputIsTerminal: true))
        #expect(!ColorPolicy.allowed(environment: ["TERM": "dumb"], outputIsTerminal: true))
        #expect(!ColorPolicy.allowed(environment: ["TERM": "xterm"], outputIsTerminal: false))
    }

    @Test func numberFormats() {
        #expect(Format.acceleration(6.25) == "+6.25")
        #expect(Format.acceleration(-62.5) == "-62.5")
        #expect(Format.acceleration(0) == "0")
        #expect(Format.acceleration(-0.001) == "0")
        #expect(Format.signedMilliseconds(-10) == "-10 ms")
        #expect(Format.percent(0.004) == "  0%")
        #expect(Format.percent(1.7) == "100%")
        #expect(Format.wrap("aaa bbb ccc", width: 7, indent: 2) == ["aaa bbb", "  ccc"])
        #expect(Format.wrap("abcdefghij", width: 4) == ["abcd"])
    }
}
