import Testing
@testable import TactusCLI
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// What a newcomer meets on the display in the first hour, each against a
/// control session in virtual time and an engine state the test drives (bar, beat, applied bar changes).
@Suite("First hour: the display shows what is heard")
struct FirstHourDisplayTests {
    let ch = SessionHarness.channel

    func model(_ h: SessionHarness) -> DisplayModel {
        DisplayModel(engine: h.engine.pointee, session: h.session, ports: PortsStatus())
    }

    @Test func item6_displayShowsWhatIsHeard() {
        let h = SessionHarness(tempo: 120, presets: true)
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.engine.pointee.status.bar.store(12, ordering: .releasing)
        h.engine.pointee.status.beat.store(2, ordering: .releasing)
        var log = ChangeLog()
        _ = log.changes(to: model(h))

        // Program Change 2: preset B, 140 BPM in 3/4, asked for in bar 12.
        h.midi(.programChange(channel: ch, program: UInt7(1)!), at: 1)
        h.poll(at: 1)
        var m = model(h)
        #expect(m.tempo == BPM(120), "the old tempo plays until the bar line")
        #expect(m.meter == Meter("4/4")!)
        #expect(m.pending == PendingChange(tempo: BPM(140), meter: Meter("3/4")!, bar: 13))
        #expect(log.changes(to: m) == ["preset 2/3 B", "pending 140 BPM 3/4 at bar 13"])
        let ascii = ScreenRenderer(width: 80, height: 24).render(m)
        #expect(ascii.contains("tempo   120 BPM   4/4   bar:beat 12:2   -> 140 BPM 3/4 at bar 13"))
        let unicode = ScreenRenderer(width: 80, height: 24, unicode: true).render(m)
        #expect(unicode.contains("tempo   120 BPM   4/4   bar:beat 12:2   \u{2192} 140 BPM 3/4 at bar 13"))

        // Still bar 12, beat 3: nothing new to say.
        h.engine.pointee.status.beat.store(3, ordering: .releasing)
        #expect(log.changes(to: model(h)) == [])

        // The bar line plays it: bar 13, the engine counted the change.
        h.engine.pointee.status.barRequestApplied.store(h.engine.pointee.barRequestsPushed.load(ordering: .relaxed), ordering: .releasing)
        h.engine.pointee.status.bar.store(13, ordering: .releasing)
        h.engine.pointee.status.beat.store(1, ordering: .releasing)
        m = model(h)
        #expect(m.tempo == BPM(140))
        #expect(m.meter == Meter("3/4")!)
        #expect(m.pending == nil)
        #expect(log.changes(to: m) == ["meter 3/4 Xxx", "tempo 140 BPM"])
        #expect(ScreenRenderer(width: 80, height: 24).render(m).contains("tempo   140 BPM   3/4   bar:beat 13:1"))
    }

    @Test func item6_aTempoKeyDuringAPendingSwitchGoesWithTheSwitch() {
        let h = SessionHarness(tempo: 120, presets: true)
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.engine.pointee.status.bar.store(4, ordering: .releasing)
        h.key(.nextPreset, at: 0)
        // The engine folds a tempo asked for before the bar line into the change.
        h.key(.tempoStep(1), at: 0.1)
        #expect(model(h).tempo == BPM(120))
        #expect(model(h).pending == PendingChange(tempo: BPM(141), meter: Meter("3/4")!, bar: 5))
        h.engine.pointee.status.barRequestApplied.store(h.engine.pointee.barRequestsPushed.load(ordering: .relaxed), ordering: .releasing)
        #expect(model(h).tempo == BPM(141))
    }

    @Test func item6_stoppedASwitchIsHeardAtOnce() {
        let h = SessionHarness(tempo: 120, presets: true)
        h.key(.nextPreset, at: 0)
        #expect(model(h).tempo == BPM(140))
        #expect(model(h).pending == nil)
    }

    @Test func item9_subdivisionShownForceRowWaitsForAControllerMessagesGo() {
        let h = SessionHarness(tempo: 120)
        let screen = ScreenRenderer(width: 80, height: 24)
        // Nothing from a controller yet: no empty bar that reads as "at rest".
        var rows = screen.render(model(h))
        #expect(rows.contains("force   no controller (nothing received on the control port yet)"))
        #expect(rows.contains("beat     X   x   x   x "), "no subdivision plays: nothing said")
        h.midi(.channelPressure(channel: ch, pressure: UInt7(0)!), at: 0.5)
        h.poll(at: 0.5)
        rows = screen.render(model(h))
        #expect(rows.contains { $0.hasPrefix("force   [----") })

        // The subdivision of the bar heard, after its bar line.
        h.session.say("first")
        var m = model(h)
        m.subdivision = .triplets
        #expect(screen.render(m).contains("beat     X   x   x   x    subdivision triplets"))

        // A message goes after 5 s without anything new...
        h.poll(at: 1)
        h.session.say("tap tempo: tap again on the beat (taps within 3 s count)")
        #expect(h.session.messageExpires == .seconds(6))
        h.poll(at: 5.9)
        #expect(model(h).message != nil)
        h.poll(at: 6)
        #expect(model(h).message == nil)
        // ...or at the next key.
        h.session.say("no presets: put preset files in ~/.config/tactus/presets or use --preset")
        h.key(.toggleMute, at: 7)
        #expect(h.session.message == nil)
        #expect(h.session.messageExpires == nil)
    }

    @Test func item10_moreLiveKeys() {
        var decoder = KeyDecoder()
        // = then digits and Enter: a tempo, not beats a bar; s, + and - after it.
        #expect(decoder.decode(Array("=13\u{7F}33.5\r4s+-".utf8)) == [
            .beginTempoEntry, .entryCharacter(UInt8(ascii: "1")), .entryCharacter(UInt8(ascii: "3")), .entryBackspace,
            .entryCharacter(UInt8(ascii: "3")), .entryCharacter(UInt8(ascii: "3")), .entryCharacter(UInt8(ascii: ".")),
            .entryCharacter(UInt8(ascii: "5")), .entryDone, .beatsPerBar(4), .cycleSubdivision, .volumeStep(1), .volumeStep(-1),
        ])
        #expect(decoder.decode(Array("=9x".utf8)) == [.beginTempoEntry, .entryCharacter(UInt8(ascii: "9")), .entryCancel])

        let h = SessionHarness(tempo: 120)
        for action in decoder.decode(Array("=133.5".utf8)) { h.key(action, at: 1) }
        #expect(h.session.message == "type a tempo, Enter to set it (1 to 999 BPM): 133.5")
        #expect(h.tempo == BPM(120))
        for action in decoder.decode(Array("\r".utf8)) { h.key(action, at: 1.1) }
        #expect(h.tempo == BPM(133.5))
        #expect(h.saved.isEmpty, "the last tempo is written once it has stood 2 s")
        #expect(h.session.message == nil)
        for action in decoder.decode(Array("=1200\r".utf8)) { h.key(action, at: 2) }
        #expect(h.tempo == BPM(133.5), "refused: the tempo stays")
        #expect(h.session.message == "'1200' is not a tempo: type 1 to 999 BPM after =, then Enter")
        _ = h.commands()

        // s: the next subdivision, at the next bar line.
        h.key(.cycleSubdivision, at: 3)
        h.key(.cycleSubdivision, at: 3.1)
        #expect(h.saved == [BPM(133.5)], "2 s after it was typed")
        let subdivisions = h.commands().compactMap { if case .changeBar(let b, nil, .nextBar, nil, nil, _) = $0 { b.subdivision } else { nil } }
        #expect(subdivisions == [.eighths, .triplets])
        #expect(h.session.message == "subdivision triplets")
        var m = model(h)
        #expect(m.subdivision == .triplets)

        // + and -: the master gain by 1 dB, the other gains kept.
        h.key(.volumeStep(-1), at: 4)
        h.key(.volumeStep(-1), at: 4.1)
        h.key(.volumeStep(1), at: 4.2)
        let masters = h.commands().compactMap { if case .setGains(let g) = $0 { g.master } else { nil } }
        #expect(masters.map { Format.decimal(Double($0), decimals: 4) } == ["0.8913", "0.7943", "0.8913"])
        #expect(h.session.message == "volume -1 dB")
        m = model(h)
        #expect(ScreenRenderer(width: 80, height: 24).render(m).suffix(3) == [
            "keys    space start/stop  <- -> -1/+1  up down +10/-10  = type a tempo  t tap",
            "        [ ] preset  m mute  + - volume  s subdivision  1-9 0 beats a bar",
            "        < > beat  a accent  w save preset  q quit",
        ])
    }

    @Test func item10_aCyclesTheAccentOfTheBeatUnderTheCursorAtTheNextBarLine() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("<>,.aA".utf8)) == [.moveBeatCursor(-1), .moveBeatCursor(1), .moveBeatCursor(-1), .moveBeatCursor(1),
                                                         .cycleAccent, .cycleAccent])
        let h = SessionHarness(tempo: 120)
        let screen = ScreenRenderer(width: 80, height: 24)
        h.engine.pointee.status.running.store(true, ordering: .releasing)
        h.engine.pointee.status.bar.store(4, ordering: .releasing)
        h.engine.pointee.status.beat.store(3, ordering: .releasing)
        h.engine.pointee.status.lastAccent.store(Accent.normal.rawValue, ordering: .releasing)
        var log = ChangeLog()
        _ = log.changes(to: model(h))
        #expect(!screen.render(model(h)).contains { $0.contains("^") }, "no caret before a cursor key")

        // > twice: the caret from beat 1 to beat 2, under its symbol (column 13 of "beat     X   x").
        h.key(.moveBeatCursor(1), at: 1)
        #expect(h.session.beatCursor == 0)
        h.key(.moveBeatCursor(1), at: 1.1)
        var rows = screen.render(model(h))
        let beatRow = rows.firstIndex { $0.hasPrefix("beat") }!
        #expect(rows[beatRow] == "beat     X   x  [x]  x ")
        #expect(rows[beatRow + 1] == String(repeating: " ", count: 13) + "^  a: accent of beat 2")

        // a: beat 2 x → o, asked for at the next bar line (5): heard still Xxxx, shown as coming.
        h.key(.cycleAccent, at: 2)
        let asked = h.commands().compactMap { if case .changeBar(let b, nil, .nextBar, nil, nil, _) = $0 { b.accents.description } else { nil } }
        #expect(asked == ["Xoxx"])
        var m = model(h)
        #expect(m.accents.description == "Xxxx")
        #expect(m.pending == PendingChange(tempo: nil, meter: nil, accents: AccentPattern("Xoxx"), bar: 5))
        rows = screen.render(m)
        #expect(rows.contains("tempo   120 BPM   4/4   bar:beat 4:3   -> accents Xoxx at bar 5"))
        #expect(log.changes(to: m) == ["pending accents Xoxx at bar 5", "message beat 2 o: accents Xoxx from the next bar line"])

        // Again within the bar: o → . lands on the same bar line.
        h.key(.cycleAccent, at: 2.2)
        #expect(h.commands().compactMap { if case .changeBar(let b, _, _, _, _, _) = $0 { b.accents.description } else { nil } } == ["X.xx"])
        #expect(model(h).pending?.accents == AccentPattern("X.xx"))

        // The bar line plays it: the beat row and the log say X.xx.
        h.engine.pointee.status.barRequestApplied.store(h.engine.pointee.barRequestsPushed.load(ordering: .relaxed), ordering: .releasing)
        h.engine.pointee.status.bar.store(5, ordering: .releasing)
        h.engine.pointee.status.beat.store(1, ordering: .releasing)
        h.engine.pointee.status.lastAccent.store(Accent.accent.rawValue, ordering: .releasing)
        m = model(h)
        #expect(m.pending == nil && m.accents.description == "X.xx")
        #expect(screen.render(m).contains("beat    [X]  .   x   x "))
        #expect(log.changes(to: m) == ["meter 4/4 X.xx", "message beat 2 .: accents X.xx from the next bar line"])

        // Then . → X → x: the cycle comes round; < from beat 1 wraps to beat 4.
        h.key(.cycleAccent, at: 3)
        h.key(.cycleAccent, at: 3.1)
        #expect(h.commands().compactMap { if case .changeBar(let b, _, _, _, _, _) = $0 { b.accents.description } else { nil } } == ["XXxx", "Xxxx"])
        h.key(.moveBeatCursor(-1), at: 4)
        h.key(.moveBeatCursor(-1), at: 4.1)
        #expect(h.session.beatCursor == 3)

        // Stopped, an edit is heard at once: nothing pending.
        h.engine.pointee.status.running.store(false, ordering: .releasing)
        h.key(.cycleAccent, at: 5)
        #expect(model(h).pending == nil && model(h).accents.description == "Xxxo")
        #expect(h.session.message == "beat 4 o: accents Xxxo")
        // A new meter keeps the caret within its bar.
        h.key(.beatsPerBar(3), at: 6)
        #expect(h.session.beatCursor == 2)
    }

    @Test func item10_wSavesTheSettingsAsAUserPresetNotOverAShippedOne() throws {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("wA 1\u{7F}2\r5".utf8)) == [
            .beginNameEntry, .entryCharacter(UInt8(ascii: "A")), .entryCharacter(UInt8(ascii: " ")), .entryCharacter(UInt8(ascii: "1")),
            .entryBackspace, .entryCharacter(UInt8(ascii: "2")), .entryDone, .beatsPerBar(5),
        ])
        let h = SessionHarness(tempo: 120, presets: true)
        var written: [Preset] = []
        h.session.savePreset = { written.append($0); return "saved preset '\($0.name)'" }
        // "a" is shipped preset A's name (names match without case): refused.
        for action in decoder.decode(Array("wa\r".utf8)) { h.key(action, at: 1) }
        #expect(h.session.message == "preset not saved: 'A' is a shipped preset; choose another name")
        #expect(written.isEmpty)

        h.key(.tempoStep(7), at: 2)
        h.key(.cycleSubdivision, at: 2.1)
        for action in decoder.decode(Array("w  Slow 7 ".utf8)) { h.key(action, at: 3) }
        #expect(h.session.message == "save as user preset, name and Enter:   Slow 7 ")
        for action in decoder.decode(Array("\r".utf8)) { h.key(action, at: 3.5) }
        #expect(h.session.message == "saved preset 'Slow 7'")
        let saved = try #require(written.first)
        #expect(saved.name == "Slow 7" && saved.tempo == BPM(127) && saved.bar.subdivision == .eighths && saved.program == nil)
        // What is written reads back as the same preset.
        #expect(try Preset.decode(Array(saved.encoded().utf8), file: "slow-7.json") == saved)
        #expect(UserPresetFile.path(for: "Slow 7", environment: ["HOME": "/home/p"]) == "/home/p/.config/tactus/presets/slow-7.json")
        // On disk: the folder made, the file read back by the preset loader.
        let config = "/tmp/tactus-item10-\(getpid())"
        let environment = ["XDG_CONFIG_HOME": config]
        #expect(UserPresetFile.save(saved, environment: environment) == "saved preset 'Slow 7' to \(config)/tactus/presets/slow-7.json")
        #expect(try PresetFile.load(path: "\(config)/tactus/presets/slow-7.json") == saved)
        _ = unlink("\(config)/tactus/presets/slow-7.json"); _ = rmdir("\(config)/tactus/presets"); _ = rmdir("\(config)/tactus"); _ = rmdir(config)
    }
}
