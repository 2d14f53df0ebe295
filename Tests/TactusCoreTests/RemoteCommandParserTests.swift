import Testing
@testable import TactusCore

@Suite("OSC namespace: each /tactus/ path typed and range-checked into a command, or refused with a reason")
struct RemoteCommandParserTests {
    func parse(_ path: String, _ arguments: [OSCArgument] = []) -> Result<RemoteCommand, RemoteCommandError> {
        RemoteCommandParser.parse(path: path, arguments: arguments)
    }

    func reason(_ path: String, _ arguments: [OSCArgument] = []) -> String? {
        if case .failure(let error) = parse(path, arguments) { return error.reason }
        return nil
    }

    @Test func transportPathsTakeNoArgumentsAndLocateABarFromOne() throws {
        #expect(try parse("/tactus/start").get() == .start)
        #expect(try parse("/tactus/stop").get() == .stop)
        #expect(try parse("/tactus/continue").get() == .continue)
        #expect(try parse("/tactus/locate", [.int32(9)]).get() == .locate(bar: 9))
        // A tablet's float, when whole, is the same bar.
        #expect(try parse("/tactus/locate", [.float(9)]).get() == .locate(bar: 9))
        #expect(reason("/tactus/locate", [.float(9.5)]) == "9.5 is not a whole number: a bar number")
        #expect(reason("/tactus/locate", [.int32(0)]) == "0 is out of range: a bar number, 1 to 100000")
        #expect(reason("/tactus/start", [.int32(1)]) == "takes no arguments (got i)")
    }

    @Test func tempoIsOneTo999BPMInAnyNumericTypeAndNudgeMovesByHundredths() throws {
        #expect(try parse("/tactus/tempo", [.float(96)]).get() == .tempo(BPM(96)))
        #expect(try parse("/tactus/tempo", [.int32(1)]).get() == .tempo(BPM(1)))
        #expect(try parse("/tactus/tempo", [.double(97.3)]).get() == .tempo(BPM(hundredths: 9730)))
        #expect(reason("/tactus/tempo", [.float(1200)]) == "1200 is out of range: the tempo in BPM, 1 to 999")
        #expect(reason("/tactus/tempo", [.float(.nan)]) == "nan is out of range: the tempo in BPM, 1 to 999")
        #expect(reason("/tactus/tempo", [.string("96")]) == "takes one number (f): the tempo in BPM, 1 to 999 (got s)")
        #expect(reason("/tactus/tempo") == "takes one number (f): the tempo in BPM, 1 to 999 (got none)")
        #expect(try parse("/tactus/nudge", [.float(-2.5)]).get() == .nudge(hundredths: -250))
        #expect(try parse("/tactus/tap").get() == .tap)
    }

    @Test func meterAccentsSubdivisionGainAndMuteAreCheckedAsTheirOptionsAre() throws {
        #expect(try parse("/tactus/meter", [.int32(7), .int32(8)]).get() == .meter(Meter(beatsPerBar: 7, beatUnit: 8)!))
        #expect(reason("/tactus/meter", [.int32(7), .int32(6)]) == "7/6 is not a meter: 1 to 32 beats of 1, 2, 4, 8, 16 or 32")
        #expect(reason("/tactus/meter", [.int32(7)]) == "takes two numbers (ii): beats a bar and the beat unit, e.g. 7 8 (got i)")
        #expect(try parse("/tactus/accents", [.string("X.x.")]).get() == .accents(AccentPattern("X.x.")!))
        #expect(reason("/tactus/accents", [.string("XQ")])?.hasPrefix("'XQ' is not an accent pattern") == true)
        #expect(try parse("/tactus/subdivision", [.string("triplets")]).get() == .subdivision(.triplets))
        #expect(reason("/tactus/subdivision", [.string("fives")])?.hasPrefix("'fives' is not a subdivision: one of none, ") == true)
        #expect(try parse("/tactus/gain", [.float(-6)]).get() == .gain(decibels: -6))
        #expect(reason("/tactus/gain", [.float(13)]) == "13 is out of range: a gain in dB, -60 to 12")
        #expect(try parse("/tactus/mute", [.int32(1)]).get() == .mute(true))
        #expect(try parse("/tactus/mute", [.bool(false)]).get() == .mute(false))
        #expect(reason("/tactus/mute", [.int32(2)]) == "2 is out of range: 1 to mute, 0 to unmute, 0 to 1")
    }

    @Test func aPresetIsANameOfTheLibraryOrAProgramNumberNeverAPath() throws {
        #expect(try parse("/tactus/preset", [.string("Andante")]).get() == .presetNamed(RemoteText("Andante")!))
        #expect(try parse("/tactus/preset", [.int32(3)]).get() == .presetProgram(UInt7(3)!))
        #expect(reason("/tactus/preset", [.string("/etc/passwd")])?.hasSuffix("never a path") == true)
        #expect(reason("/tactus/preset", [.string("../x")])?.hasSuffix("never a path") == true)
        #expect(reason("/tactus/preset", [.string(String(repeating: "a", count: 65))])?.hasPrefix("'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…' is not a preset name") == true)
        #expect(reason("/tactus/preset", [.int32(128)]) == "128 is out of range: a program number, 0 to 127")
        #expect(try parse("/tactus/next").get() == .nextPreset)
        #expect(try parse("/tactus/previous").get() == .previousPreset)
    }

    @Test func queryRegisterAndUnregisterTakeALibloUDPURLWithANumericAddress() throws {
        let peer = RemotePeer(address: 0x7F00_0001, port: 9001)
        #expect(try parse("/tactus/query").get() == .query(replyTo: nil))
        #expect(try parse("/tactus/query", [.string("osc.udp://127.0.0.1:9001/")]).get() == .query(replyTo: peer))
        #expect(try parse("/tactus/register", [.string("osc.udp://localhost:9001")]).get() == .register(peer))
        #expect(try parse("/tactus/unregister", [.string("osc.udp://127.0.0.1:9001/")]).get() == .unregister(peer))
        #expect(reason("/tactus/register", [.string("osc.tcp://127.0.0.1:9001/")])?.hasPrefix("'osc.tcp://127.0.0.1:9001/' is not a UDP URL") == true)
        #expect(reason("/tactus/register", [.string("osc.udp://example.org:9001/")]) != nil)
        #expect(reason("/tactus/register", [.string("osc.udp://127.0.0.1:0/")]) != nil)
        #expect(reason("/tactus/register", [.string("osc.udp://127.0.0.256:9001/")]) != nil)
        #expect(try parse("/tactus/ping").get() == .ping)
    }

    @Test func practiceToolsAreParsedAsTheirOptionsAre() throws {
        #expect(try parse("/tactus/countin", [.int32(2)]).get() == .practice(.countIn(CountIn(bars: 2))))
        #expect(try parse("/tactus/countin", [.int32(-1)]).get() == .practice(.countIn(nil)))
        #expect(reason("/tactus/countin", [.int32(17)]) == "17 is out of range: count-in bars, -1 for none (0: two beats), -1 to 16")
        #expect(try parse("/tactus/trainer", [.string("80-120/10:2")]).get() == .practice(.trainer(SpeedTrainer(from: BPM(80), to: BPM(120), bars: 10, stepHundredths: 200))))
        #expect(try parse("/tactus/trainer", [.string("off")]).get() == .practice(.trainer(nil)))
        #expect(reason("/tactus/trainer", [.string("fast")])?.hasPrefix("'fast' is not a speed trainer: FROM-TO/BARS[:STEP]") == true)
        #expect(try parse("/tactus/gap", [.string("3/1")]).get() == .practice(.gap(GapTrainer(play: 3, mute: 1))))
        #expect(try parse("/tactus/gap", [.string("off")]).get() == .practice(.gap(nil)))
        #expect(reason("/tactus/gap", [.string("3")]) == "'3' is not a gap trainer: PLAY/MUTE: bars heard, then bars silent, each from 1 to 1000 (e.g. 3/1), or off")
    }

    @Test func anUnknownPathOrTagIsRefusedByName() throws {
        #expect(reason("/tactus/bogus")?.hasPrefix("unknown path: the paths are start, stop, continue, locate, tempo,") == true)
        #expect(reason("/other/tempo", [.float(96)]) == "unknown path: Tactus answers under /tactus/")
        #expect(reason("/tactus/tempo", [.other(tag: "b")]) == "takes one number (f): the tempo in BPM, 1 to 999 (got b)")
    }

    @Test func aPeerPrintsAsItsURLAndTextKeepsItsBytes() throws {
        let peer = RemotePeer(address: 0xC0A8_0102, port: 8000)
        #expect(peer.url == "osc.udp://192.168.1.2:8000/")
        #expect(RemotePeer(url: peer.url) == peer)
        #expect(RemoteText("Adagio für Streicher")?.description == "Adagio für Streicher")
        #expect(RemoteText(String(repeating: "x", count: 129)) == nil)
    }
}
