import Testing
@testable import TactusCLI
import TactusCore

@Suite("Change log: the non-interactive mode's lines, one per meaningful change")
struct ChangeLogTests {
    /// 2025-06-01T18:30:00Z in µs since the epoch.
    static let start: Int64 = 1_748_802_600_000_000

    @Test func timestampsAreUTCISO8601WithMilliseconds() {
        #expect(Timestamp.iso8601(microsecondsSinceEpoch: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(microsecondsSinceEpoch: ChangeLogTests.start + 2_480_999) == "2025-06-01T18:30:02.480Z")
        #expect(Timestamp.iso8601(microsecondsSinceEpoch: 951_868_799_000_000) == "2000-02-29T23:59:59.000Z")
        #expect(Timestamp.iso8601(microsecondsSinceEpoch: 4_107_542_400_000_000) == "2100-03-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(microsecondsSinceEpoch: -1) == "1969-12-31T23:59:59.999Z")
    }

    /// A scripted session, model by model as the control thread would see it,
    /// with the log's lines checked one by one.
    @Test func aScriptedSessionLogsEachMeaningfulChangeOnce() {
        var log = ChangeLog()
        var lines: [String] = []
        var m = DisplayModel(tempo: BPM(120), jack: .waiting(server: nil))
        func at(_ seconds: Double, _ change: (inout DisplayModel) -> Void = { _ in }) {
            change(&m)
            lines += log.lines(for: m, at: ChangeLogTests.start + Int64((seconds * 1_000_000).rounded()))
        }
        let jack = JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256)
        let keyboard = MIDIConnection(.alsa, .control, "USB Keystation 49:0")
        let daw = MIDIConnection(.jack, .clock, "ardour:MIDI Clock in")

        at(0)                                                            // waiting for JACK
        at(0.2) { $0.jack = .connected(jack); $0.connections = [daw] }   // server found, port connected
        at(0.25)                                                         // nothing new: no line
        at(0.3) { $0.running = true; $0.bar = 1; $0.beat = 1 }           // started
        at(0.8) { $0.beat = 2 }                                          // beats are not logged
        // An up key held with strong pressure: tap to 121, steps to 131 and 141, then released.
        at(1.0) { $0.tempo = BPM(121); $0.pressure = PressureStatus(tempo: BPM(121), force: 0.1, level: .light, key: .up) }
        at(1.32) { $0.tempo = BPM(131); $0.pressure = PressureStatus(tempo: BPM(131), force: 0.8, level: .strong, key: .up, acceleration: 62.5) }
        at(1.48) { $0.tempo = BPM(141); $0.pressure.tempo = BPM(141) }
        at(1.5) { $0.pressure = PressureStatus(tempo: BPM(141)) }        // released: the tempo has settled
        at(2.0) { $0.tempo = BPM(131) }                                  // ↓ key in the terminal: at once
        at(2.5) { $0.connections = [daw, keyboard] }                     // the keyboard plugged in
        at(3.0) {
            $0.preset = PresetPosition(name: "Waltz", index: 5, count: 16)
            $0.meter = Meter("3/4")!
            $0.accents = AccentPattern("Xxx")!
            $0.tempo = BPM(96.5)
        }
        at(3.5) { $0.muted = true }
        at(4.0) { $0.jack = .connected(JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256, xruns: 1)) }
        at(4.1) { $0.jack = .connected(JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256, xruns: 3)) }
        at(4.5) { $0.message = "preset refused, Waltz keeps playing: broken.json: tempo 1200 is not in 1…999" }
        at(4.6) { $0.pressure = PressureStatus(tempo: $0.tempo, force: 0.5, level: .light, key: .preset, deepPressProgress: 0.66) }
        at(5.0) { $0.connections = [daw] }                               // the keyboard unplugged
        at(6.0) { $0.jack = .waiting(server: "default") }                // the server went away
        at(7.0) { $0.jack = .connected(jack) }                           // and came back (xruns counted afresh)
        at(7.5) { $0.running = false; $0.muted = false }

        #expect(lines == [
            "2025-06-01T18:30:00.000Z jack waiting for server default",
            "2025-06-01T18:30:00.000Z meter 4/4 Xxxx",
            "2025-06-01T18:30:00.000Z tempo 120 BPM",
            "2025-06-01T18:30:00.200Z jack connected default: tactus 48000 Hz 256 frames",
            "2025-06-01T18:30:00.200Z connected JACK clock -> ardour:MIDI Clock in",
            "2025-06-01T18:30:00.300Z running",
            "2025-06-01T18:30:01.500Z tempo 141 BPM",
            "2025-06-01T18:30:02.000Z tempo 131 BPM",
            "2025-06-01T18:30:02.500Z connected ALSA control <- USB Keystation 49:0",
            "2025-06-01T18:30:03.000Z preset 6/16 Waltz",
            "2025-06-01T18:30:03.000Z meter 3/4 Xxx",
            "2025-06-01T18:30:03.000Z tempo 96.50 BPM",
            "2025-06-01T18:30:03.500Z muted",
            "2025-06-01T18:30:04.000Z xruns 1 (+1)",
            "2025-06-01T18:30:04.100Z xruns 3 (+2)",
            "2025-06-01T18:30:04.500Z message preset refused, Waltz keeps playing: broken.json: tempo 1200 is not in 1…999",
            "2025-06-01T18:30:05.000Z disconnected ALSA control <- USB Keystation 49:0",
            "2025-06-01T18:30:06.000Z jack lost default: waiting for it to come back",
            "2025-06-01T18:30:07.000Z jack connected default: tactus 48000 Hz 256 frames",
            "2025-06-01T18:30:07.500Z stopped",
            "2025-06-01T18:30:07.500Z unmuted",
        ])
    }

    @Test func aPresetFromASetListOrAFileSaysSo() {
        var log = ChangeLog()
        var m = DisplayModel(tempo: BPM(120), preset: PresetPosition(name: "Song 2", index: 1, count: 5, isSetlist: true),
                             jack: .connected(JackFigures(server: "s", client: "t", sampleRate: 44100, period: 128)))
        #expect(log.changes(to: m).contains("preset 2/5 (set list) Song 2"))
        m.preset = PresetPosition(name: "Mine", index: nil, count: 5, isSetlist: true)
        #expect(log.changes(to: m) == ["preset file (set list) Mine"])
    }

    @Test func aPeriodOrRateChangeIsOneLine() {
        var log = ChangeLog()
        var m = DisplayModel(tempo: BPM(120), jack: .connected(JackFigures(server: "s", client: "t", sampleRate: 48000, period: 256)))
        _ = log.changes(to: m)
        m.jack = .connected(JackFigures(server: "s", client: "t", sampleRate: 48000, period: 512))
        #expect(log.changes(to: m) == ["jack period 512 frames"])
        m.jack = .connected(JackFigures(server: "s", client: "t", sampleRate: 44100, period: 512))
        #expect(log.changes(to: m) == ["jack rate 44100 Hz"])
    }

    @Test func aClockOffsetIsLoggedWhenSetOrChanged() {
        var log = ChangeLog()
        var m = DisplayModel(tempo: BPM(120), jack: .waiting(server: nil), clockOffsetMilliseconds: -3)
        #expect(log.changes(to: m).contains("clock offset -3 ms"))
        m.clockOffsetMilliseconds = 0
        #expect(log.changes(to: m) == ["clock offset 0 ms"])
    }
}
