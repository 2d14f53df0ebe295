import Testing
@testable import TactusCLI
import TactusCore

/// What the display and the change log say of a Link session (docs/DESIGN.md §11).
@Suite("Link on the display and in the change log")
struct LinkDisplayTests {
    @Test func theRowShowsPeersAndThePhaseInTenthsOfABeat() {
        #expect(LinkSessionView(peers: 1, phaseTenths: 23, quantum: 4, tempoFromPeer: false).text == "on  1 peer  phase 2.3/4")
        #expect(LinkSessionView(peers: 0, phaseTenths: 0, quantum: 8, tempoFromPeer: false).text == "on  0 peers  phase 0.0/8")
        var m = DisplayModel(tempo: BPM(120))
        m.link = LinkSessionView(peers: 2, phaseTenths: 5, quantum: 4, tempoFromPeer: false)
        #expect(ScreenRenderer(width: 80, height: 40).render(m).contains { $0.hasPrefix("Link") && $0.hasSuffix("on  2 peers  phase 0.5/4") })
    }

    @Test func withoutLinkTheRowSaysOffAndGoesBeforeTheRowsAMusicianNeeds() {
        let m = DisplayModel(tempo: BPM(120))
        let tall = ScreenRenderer(width: 80, height: 40).render(m)
        #expect(tall.filter { $0.hasPrefix("Link") } == ["Link    off"])
        // On a short screen it goes (after the blank rows and the key help) while the
        // JACK row just above it and the tempo stay.
        let short = ScreenRenderer(width: 80, height: 7).render(m)
        #expect(!short.contains { $0.hasPrefix("Link") }, "\(short)")
        #expect(short.contains { $0.hasPrefix("JACK") } && short.contains { $0.hasPrefix("tempo") })
    }

    @Test func aPeersTempoIsLoggedWithLinkAndThePeerCountWhenItChanges() {
        var log = ChangeLog()
        var m = DisplayModel(tempo: BPM(120))
        m.link = LinkSessionView(peers: 0, phaseTenths: 0, quantum: 4, tempoFromPeer: false)
        #expect(log.changes(to: m) == ["jack waiting for server default", "meter 4/4 Xxxx", "tempo 120 BPM", "link peers 0"])
        m.link?.peers = 1
        m.link?.phaseTenths = 17
        #expect(log.changes(to: m) == ["link peers 1"])
        m.tempo = BPM(128)
        m.link?.tempoFromPeer = true
        #expect(log.changes(to: m) == ["tempo 128 BPM (Link)"])
        m.tempo = BPM(129)
        m.link?.tempoFromPeer = false
        #expect(log.changes(to: m) == ["tempo 129 BPM"])
    }

    @Test func linkQuantumAndStartStopMeanLink() throws {
        let options = try OptionParser.parse(["--link-quantum", "8", "--link-start-stop"])
        let jack = try RunCommand.jackOptions(options)
        #expect(jack.link?.quantum == 8 && jack.link?.sharesStartStop == true)
        #expect(try RunCommand.jackOptions(OptionParser.parse([])).link == nil)
        let plain = try RunCommand.jackOptions(OptionParser.parse(["--link"])).link
        #expect(plain != nil && plain?.quantum == nil && plain?.sharesStartStop == false)
    }
}

/// `"link": true` in a preset (Presets/README.md): `--link` at start.
@Suite("Link in a preset")
struct LinkPresetTests {
    @Test func aPresetsLinkKeyIsReadAndWrittenAndAWrongTypeNamed() throws {
        let preset = try Preset.decode(Array(#"{ "format": 1, "name": "Jam", "tempo": 128, "link": true }"#.utf8), file: "jam.json")
        #expect(preset.link)
        #expect(try Preset.decode(Array(preset.encoded().utf8), file: "jam.json").link)
        #expect(preset.encoded().contains(#""link": true"#))
        #expect(!(try Preset.decode(Array(#"{ "format": 1, "name": "Solo", "tempo": 90 }"#.utf8), file: "solo.json").link))
        do {
            _ = try Preset.decode(Array(#"{ "format": 1, "name": "Bad", "tempo": 90, "link": "yes" }"#.utf8), file: "bad.json")
            Issue.record("a string for link was taken")
        } catch {
            #expect(error.description.contains("bad.json") && error.description.contains("link"), "\(error)")
        }
    }
}
