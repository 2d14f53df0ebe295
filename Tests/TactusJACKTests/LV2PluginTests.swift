import CJack
import Foundation
import Testing

/// Tactus as an LV2 plugin. The bundle is listed and validated; the
/// offline host (Tests/LV2Host) drives run() with events at exact frames; jalv
/// runs it on a private JACK server, recorded by the tests' probe.
@Suite struct LV2Plugin {
    static let sampleRate = 48000.0
    static let symbols = ["click", "feedback", "control", "midi_out", "sync", "tempo", "beatsPerBar", "beatUnit", "subdivision", "accent",
                          "gain", "pressureMode", "upKey", "downKey", "presetKey", "channel", "tempoOut", "bar", "beat", "force"]

    // MARK: - The bundle

    @Test func lv2lsAndLv2infoListThePluginWithEveryPort() throws {
        let list = try LV2Bundle.run("/usr/bin/lv2ls", [], environment: LV2Bundle.environment)
        #expect(list.status == 0)
        #expect(list.output.split(separator: "\n").contains("urn:tactus:metronome"), "\(list.output)")
        let info = try LV2Bundle.run("/usr/bin/lv2info", [LV2Bundle.uri], environment: LV2Bundle.environment)
        #expect(info.status == 0)
        let listed = info.output.split(separator: "\n").compactMap { line -> String? in
            let f = line.split(separator: ":", maxSplits: 1)
            return f.count == 2 && f[0].trimmingCharacters(in: .whitespaces) == "Symbol" ? f[1].trimmingCharacters(in: .whitespaces) : nil
        }
        #expect(listed == Self.symbols)
        #expect(info.output.contains("http://lv2plug.in/ns/ext/urid#map"))
        #expect(info.output.contains("http://lv2plug.in/ns/ext/state#interface"))
    }

    /// sord_validate against every schema lv2-dev installs; a copy with a
    /// wrongly typed lv2:index shows the validator finds what it is there to find.
    @Test func theTurtleValidatesAgainstTheLV2Schemas() throws {
        let schemas = try FileManager.default.subpathsOfDirectory(atPath: "/usr/lib/lv2").filter { $0.hasSuffix(".ttl") }.map { "/usr/lib/lv2/" + $0 }
        #expect(schemas.count > 50)
        let bundle = LV2Bundle.path.appendingPathComponent("tactus.lv2")
        let ours = ["manifest.ttl", "tactus.ttl"].map { bundle.appendingPathComponent($0).path }
        let good = try LV2Bundle.run("/usr/bin/sord_validate", schemas + ours)
        #expect(good.status == 0)
        #expect(good.output.contains("Found 0 errors"), "\(good.output)")
        let broken = TestFiles.file("broken-tactus.ttl")
        try String(contentsOfFile: ours[1], encoding: .utf8).replacingOccurrences(of: "lv2:index 5 ;", with: "lv2:index \"five\" ;")
            .write(to: broken, atomically: true, encoding: .utf8)
        let bad = try LV2Bundle.run("/usr/bin/sord_validate", schemas + [ours[0], broken.path])
        #expect(bad.output.contains("Found 1 errors"), "\(bad.output)")
    }

    // MARK: - run(), offline

    /// Free mode at 133 BPM: every click and clock tick on the exact grid
    /// (a beat 21 654.135… frames: never a truncated period), 24 ticks a beat.
    @Test func freeModeAt133BPMClicksAndClocksOnTheGrid() throws {
        let (r, _) = try LV2Bundle.render(["--frames", "\(48000 * 20)", "--block", "256", "--set", "sync=0", "--set", "tempo=133"])
        let beat = Self.sampleRate * 60 / 133
        let clicks = r.clicks(port: 1)
        let ticks = r.ticks(port: 1)
        // 960 000 frames: beats 0 … 44, ticks 0 … 1063.
        #expect(clicks.count == 45)
        #expect(clicks.first == 0)
        for (k, f) in clicks.enumerated() { #expect(abs(Double(f) - Double(k) * beat) <= 0.5, "click \(k) at \(f)") }
        #expect(ticks.count == 1064)
        for (k, f) in ticks.enumerated() { #expect(abs(Double(f) - Double(k) * beat / 24) <= 0.5, "tick \(k) at \(f)") }
        #expect(r.midi().first?.bytes == [0xFA])
    }

    /// Host sync: time:Position events mid-block (blocks of 333 frames) with a
    /// tempo step at bar 2 and 3/4 from bar 4: every click on the host's beat
    /// to the frame, the accent on each of the host's bar lines.
    @Test func hostSyncClicksOnTheHostsBeatsThroughATempoStepAndAMeterChange() throws {
        let (r, _) = try LV2Bundle.render(["--frames", "400000", "--block", "333",
                                           "--position", "0:0,0,4,4,120,1", "--position", "96000:1,0,4,4,150,1", "--position", "249600:3,0,3,4,150,1"])
        let onsets = r.onsets.filter { $0.port == 1 }
        var expected: [(Int64, Bool)] = []
        for k in 0..<4 { expected.append((Int64(k) * 24000, k == 0)) }
        for k in 0..<8 { expected.append((96000 + Int64(k) * 19200, k % 4 == 0)) }
        for k in 0..<8 { expected.append((249600 + Int64(k) * 19200, k % 3 == 0)) }
        #expect(onsets.map(\.frame) == expected.map(\.0))
        // The accent's level (0.9) against a beat's (0.7): the synthesised sounds.
        #expect(onsets.map { $0.value > 0.8 } == expected.map(\.1))
        #expect(r.midi().filter { $0.bytes == [0xFA] }.map(\.frame) == [0])
        // The tick after the step is 19 200 / 24 = 800 frames on.
        let ticks = r.ticks()
        #expect(ticks.contains(96000) && ticks.contains(96800) && !ticks.contains(97000))
    }

    /// A meter change inside a block, as jalv reports it from JACK's BBT: the
    /// host goes from 4/4 at 130 BPM to 3/4 at 100 BPM at bar 2, frame 88 615.4,
    /// 39 frames into a 256-frame block. jalv reads the transport at each
    /// block's first frame and sends a time:Position only when it changed (the
    /// first rolling block, then the tempo), its barBeat a float of whole ticks
    /// (1/1920 beat): the next block's first frame, 88 832, says bar 2 (index 1)
    /// beat 14/1920, which puts the bar line 210 frames before it, 6.6 frames
    /// after the exact one; the reading only says the song lies within the tick
    /// after it. Bar 2's downbeat sounds in the block before, on the exact line,
    /// and the new tempo is taken from that beat of the old line, which the
    /// reading allows (docs/DESIGN.md §8.5): every click within half a frame of
    /// the exact beat, accents every three beats from bar 2.
    @Test func hostSyncPutsBeatOneOnTheHostsBarLineWhenTheMeterChangesMidBlock() throws {
        let exactBar2 = 4 * 60 * Self.sampleRate / 130
        let report = (exactBar2 / 256).rounded(.up) * 256
        let tick = ((report - exactBar2) * 100 / (60 * Self.sampleRate) * 1920).rounded(.down)
        let bar2 = report - tick / 1920 * 28800
        #expect(report == 88_832 && tick == 14 && abs(bar2 - exactBar2 - 6.615) < 0.01)
        let (r, _) = try LV2Bundle.render(["--frames", "340000", "--block", "256",
                                           "--position", "0:0,0,4,4,130,1", "--position", "88832:1,\(tick / 1920),3,4,100,1"])
        // The host's beats up to 336 000 frames: five at 130, then bar 2's exact bar line on.
        let beats = (0..<5).map { Double($0) * 60 * Self.sampleRate / 130 } + (1..<9).map { exactBar2 + Double($0) * 28800 }
        let clicks = r.clicks(port: 1).map(Double.init).filter { $0 < 336_000 }
        #expect(clicks.count == beats.count, "clicks \(clicks)")
        for (c, b) in zip(clicks, beats) { #expect(abs(c - b) <= 0.5, "click at \(c), the host's beat at \(b)") }
        let accents = r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map { Double($0.frame) }.filter { $0 < 336_000 }
        let lines = [0, exactBar2, exactBar2 + 86400, exactBar2 + 2 * 86400]
        #expect(accents.count == lines.count, "accents \(accents)")
        for (a, l) in zip(accents, lines) { #expect(abs(a - l) <= 0.5, "accent at \(a), the host's bar line at \(l)") }
    }

    /// The time:Position events jalv 1.6 makes from `master`'s BBT (a function
    /// of the cycle's transport frame), cycles of `period` from frame 0 rolling:
    /// jalv reads the transport at each cycle's first frame and sends a position
    /// only on the first rolling cycle and when the tempo changed, its barBeat
    /// beat − 1 + tick / 1920 as a float; as the offline host's `--position`.
    /// `everyCycle`: a host that sends one every cycle, the same way.
    static func jalvPositions(_ master: (UInt32) -> jack_position_t, frames: Int, period: Int = 256, everyCycle: Bool = false) -> [String] {
        var out: [String] = []
        var bpm = 0.0
        for frame in stride(from: 0, to: frames, by: period) {
            let p = master(UInt32(frame))
            guard everyCycle || p.beats_per_minute != bpm else { continue }
            bpm = p.beats_per_minute
            let barBeat = Float(Double(p.beat - 1) + Double(p.tick) / p.ticks_per_beat)
            out += ["--position", "\(frame):\(p.bar - 1),\(barBeat),\(p.beats_per_bar),\(p.beat_type),\(p.beats_per_minute),1"]
        }
        return out
    }

    /// klick `-T` through jalv (KlickTempoMap.barLinesOnCycleStarts: 2 bars 4/4
    /// at 120, 3 bars 3/4 at 133, 3 bars 4/4 at 133, bar 3 on a cycle's first
    /// frame, 192 000): the positions jalv makes of klick's whole ticks, the
    /// first at frame 0 and the next at 192 256, the first cycle at 133 (bar 3
    /// beat 1 tick 22: 7.9 frames before the exact beat). The plugin takes the
    /// old line to its last beat and 133 from there, which that reading allows:
    /// every click within half a frame of klick's beat, through the tempo and
    /// meter change; the accents on bars 1–5's lines. jalv tells nothing at bar
    /// 6 (4/4 at the same tempo), so the plugin goes on in 3/4 there.
    @Test func hostSyncUnderKlickThroughJalvClicksOnKlicksBeatsThroughTheTempoChange() throws {
        let klick = KlickTempoMap.barLinesOnCycleStarts
        let frames = Int(klick.beats.last!.frame) + 2000
        let positions = Self.jalvPositions(klick.position, frames: frames)
        #expect(positions == ["--position", "0:0,0.0,4.0,4.0,120.0,1", "--position", "192256:2,0.011458334,3.0,4.0,133.0,1"])
        let (r, _) = try LV2Bundle.render(["--frames", "\(frames)", "--block", "256"] + positions)
        let clicks = r.clicks(port: 1).map(Double.init)
        let errors = zip(clicks, klick.beats).map { $0 - $1.frame }
        print("LV2 host sync under klick through jalv (offline host): \(clicks.count) clicks for \(klick.beats.count) beats, "
              + "error (frames) per beat \(errors.map { ($0 * 100).rounded() / 100 })")
        #expect(clicks.count == klick.beats.count, "clicks \(clicks)")
        for (c, b) in zip(clicks, klick.beats) { #expect(abs(c - b.frame) <= 0.5, "click at \(c), klick's bar \(b.bar) beat \(b.beat) at \(b.frame)") }
        let lines = klick.beats.filter { $0.beat == 1 && $0.bar <= 5 }.map(\.frame)
        let accents = r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map { Double($0.frame) }.prefix(lines.count)
        #expect(accents.count == lines.count && zip(accents, lines).allSatisfy { abs($0 - $1) <= 0.5 }, "accents \(accents), bar lines \(lines)")
    }

    /// A host that sends klick's whole ticks every cycle: each reading only
    /// bounds the line (the song lies within the tick after it), and one within
    /// the bounds confirms the line rather than moving it to its floor: every
    /// click within half a frame of klick's beat, all 29, and every bar line's
    /// accent, 4/4 again from bar 6.
    @Test func hostSyncNarrowsWholeTicksSentEveryCycleWithoutMovingTheLine() throws {
        let klick = KlickTempoMap.barLinesOnCycleStarts
        let frames = Int(klick.beats.last!.frame) + 2000
        let (r, _) = try LV2Bundle.render(["--frames", "\(frames)", "--block", "256"]
                                          + Self.jalvPositions(klick.position, frames: frames, everyCycle: true))
        let clicks = r.clicks(port: 1).map(Double.init)
        let worst = zip(clicks, klick.beats).map { abs($0 - $1.frame) }.max() ?? .nan
        print("LV2 host sync under klick's whole ticks every cycle (offline host): \(clicks.count) clicks for \(klick.beats.count) beats, worst error \(worst) frames")
        #expect(clicks.count == klick.beats.count, "clicks \(clicks)")
        for (c, b) in zip(clicks, klick.beats) { #expect(abs(c - b.frame) <= 0.5, "click at \(c), klick's bar \(b.bar) beat \(b.beat) at \(b.frame)") }
        let lines = klick.beats.filter { $0.beat == 1 }.map(\.frame)
        let accents = r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map { Double($0.frame) }
        #expect(accents.count == lines.count && zip(accents, lines).allSatisfy { abs($0 - $1) <= 0.5 }, "accents \(accents), bar lines \(lines)")
    }

    /// A host that tells the tempo on the bar line's own cycle with klick's
    /// count there (bar 3 beat 5 of 4, tick 0: barBeat 4 of 4) and the meter a
    /// cycle late: the barBeat past the bar is that bar's beat 1, so bar 3's
    /// downbeat sounds on its frame, 3/4 from there, every click on klick's beat.
    @Test func hostSyncTakesABeatPastTheBarAsTheBarItNames() throws {
        let klick = KlickTempoMap.barLinesOnCycleStarts
        let frames = 400_000
        let positions = ["--position", "0:0,0,4,4,120,1", "--position", "192000:2,4,4,4,133,1",
                         "--position", "192256:2,\(Float(22.0 / 1920)),3,4,133,1"]
        let (r, _) = try LV2Bundle.render(["--frames", "\(frames)", "--block", "256"] + positions)
        let beats = klick.beats.filter { $0.frame < Double(frames) - 1000 }
        let clicks = r.clicks(port: 1).map(Double.init).filter { $0 < Double(frames) - 1000 }
        #expect(clicks.count == beats.count, "clicks \(clicks)")
        for (c, b) in zip(clicks, beats) { #expect(abs(c - b.frame) <= 0.5, "click at \(c), klick's bar \(b.bar) beat \(b.beat) at \(b.frame)") }
        let lines = beats.filter { $0.beat == 1 }.map(\.frame)
        let accents = r.onsets.filter { $0.port == 1 && $0.value > 0.8 }.map { Double($0.frame) }.filter { $0 < Double(frames) - 1000 }
        #expect(accents.count == lines.count && zip(accents, lines).allSatisfy { abs($0 - $1) <= 0.5 }, "accents \(accents), bar lines \(lines)")
        #expect(r.midi().filter { $0.bytes != [0xF8] }.map(\.bytes) == [[0xFA]], "no locate: \(r.midi().filter { $0.bytes != [0xF8] })")
    }

    /// The host stops (speed 0) on beat 3: MIDI Stop and Song Position 8 (16ths),
    /// no clicks; it rolls again from bar 3: Song Position 32 and Continue there.
    @Test func hostSyncStandingStillSendsStopAndSongPositionAndRollingOnContinues() throws {
        let (r, _) = try LV2Bundle.render(["--frames", "300000", "--block", "256",
                                           "--position", "0:0,0,4,4,120,1", "--position", "48000:0,2,4,4,120,0", "--position", "144000:2,0,4,4,120,1"])
        let midi = r.midi().filter { $0.bytes != [0xF8] }
        #expect(midi.map(\.bytes) == [[0xFA], [0xFC], [0xF2, 0x08, 0x00], [0xF2, 0x20, 0x00], [0xFB]], "\(midi.map(\.bytes))")
        #expect(midi.map(\.frame) == [0, 48000, 48000, 144000, 144000])
        #expect(r.clicks(port: 1).filter { $0 > 48000 && $0 < 144000 }.isEmpty)
        #expect(r.clicks(port: 1).filter { $0 >= 144000 }.prefix(2) == [144000, 168000])
    }

    /// time:speed 0.5 (a host's varispeed): the host's beats go by at half the
    /// tempo, and so do the clicks: 120 BPM at half speed is a beat every second.
    @Test func hostSyncAtHalfSpeedClicksAtTheHostsPace() throws {
        let (r, _) = try LV2Bundle.render(["--frames", "150000", "--position", "0:0,0,4,4,120,0.5"])
        #expect(r.clicks(port: 1) == [0, 48000, 96000, 144000])
        #expect(r.ticks().count == 75)
    }

    /// Pressure control on the plugin's frames: key 72 down at 1 s (tap +1 at
    /// once), full pressure 10 frames later (impact and max cues there), force
    /// steps of +10 at 0.32 and 0.48 s after the Note On (a selection cue each,
    /// as feedback notes on channel 16), the key up at 0.5 s: 141 BPM reached.
    @Test func pressureRunsTheTimelineInPluginFrames() throws {
        let (r, text) = try LV2Bundle.render(["--frames", "120000", "--block", "256", "--set", "sync=0", "--save-state",
                                              "--midi", "48000:90,48,64", "--midi", "48010:D0,7F", "--midi", "72000:80,48,0"])
        let notesOn = r.midi().filter { $0.bytes.first == 0x9F }
        #expect(notesOn.map(\.frame) == [48010, 48010, 48000 + 15360, 48000 + 23040])
        #expect(notesOn.map { $0.bytes[1] } == [36, 38, 37, 37])
        let tempos = text.split(separator: "\n").filter { $0.hasPrefix("T ") }.map { $0.split(separator: " ") }
        #expect(tempos.map { Double($0[2])! } == [120, 121, 131, 141])
        // Each tempo shows after the block holding its change (applied at the next clock tick).
        #expect(tempos.map { Int($0[1])! } == [256, 48128, 63488, 71168])
        #expect(text.contains("S 141.0"), "the saved state: \(text.suffix(200))")
    }

    /// State: a restored tempo reached (137) is the tempo the plugin plays, over the tempo port's 120.
    @Test func restoredStateSetsTheTempoReached() throws {
        let (r, text) = try LV2Bundle.render(["--frames", "48000", "--set", "sync=0", "--restore-tempo", "137", "--save-state"])
        #expect(text.contains("T 256 137.0"))
        #expect(text.contains("S 137.0"))
        let ticks = r.ticks()
        #expect(abs(Double(ticks[24]) - Self.sampleRate * 60 / 137) <= 0.5)
    }

    // MARK: - Presets and state

    /// The deep press on the preset key (70) switches presets as the command
    /// line does: held 0.25 s, then full poly pressure, the commit cue at once
    /// (note 39 on channel 16) and the first preset of the list, Largo (program
    /// 0, 50 BPM), from the next bar line (96 000); the session saves its name.
    @Test func theDeepPressSwitchesToTheNextPresetAtTheNextBarLine() throws {
        let (r, text) = try LV2Bundle.render(["--frames", "300000", "--block", "256", "--set", "sync=0", "--save-state",
                                              "--midi", "48000:90,46,64", "--midi", "60000:A0,46,7F", "--midi", "72000:80,46,0"])
        #expect(r.midi().filter { $0.bytes.first == 0x9F && $0.bytes[1] == 39 }.map(\.frame) == [60000])
        let onsets = r.onsets.filter { $0.port == 1 }
        // 120 BPM to the bar line, then a beat every 57 600 frames, Largo's bar 1 accented.
        #expect(onsets.map(\.frame) == [0, 24000, 48000, 72000, 96000, 153_600, 211_200, 268_800])
        #expect(onsets.map { $0.value > 0.8 } == [true, false, false, false, true, false, false, false])
        let ticks = r.ticks().filter { $0 >= 96000 }
        #expect(ticks.prefix(3) == [96000, 98400, 100_800])
        #expect(text.contains("S 50.0"), "\(text.suffix(200))")
        let saved = text.split(separator: "\n").filter { $0.hasPrefix("P ") }
        #expect(saved == ["P preset=Largo"])
        // The session reloaded with what was saved: Largo from the first beat.
        let (reloaded, reloadedText) = try LV2Bundle.render(["--frames", "120000", "--set", "sync=0", "--save-state",
                                                             "--restore-settings", saved.map { String($0.dropFirst(2)) }.joined(separator: "\n")])
        #expect(reloaded.clicks(port: 1) == [0, 57600, 115_200])
        #expect(reloadedText.contains("P preset=Largo") && reloadedText.contains("S 50.0"))
    }

    /// Program Change 5 on the control channel: Presto (program 5, 184 BPM) from the next bar line.
    @Test func aProgramChangeSelectsThePresetOfThatProgramAtTheNextBarLine() throws {
        let (r, text) = try LV2Bundle.render(["--frames", "200000", "--block", "256", "--set", "sync=0", "--save-state", "--midi", "30000:C0,05"])
        let clicks = r.clicks(port: 1)
        #expect(Array(clicks.prefix(5)) == [0, 24000, 48000, 72000, 96000])
        let beat = Self.sampleRate * 60 / 184
        for (k, f) in clicks.dropFirst(4).enumerated() { #expect(abs(Double(f) - (96000 + Double(k) * beat)) <= 0.5, "click \(k) at \(f)") }
        #expect(clicks.count == 11)
        #expect(text.contains("P preset=Presto") && text.contains("S 184.0"))
    }

    /// A session reloaded: the saved settings bring back the preset (Presto,
    /// 184 BPM, from the first beat) and the tempo reached over it (150); a
    /// preset no longer in the library is passed over, the ports' tempo plays.
    @Test func restoredSettingsBringBackThePresetAndTheTempoReachedOverIt() throws {
        let (presto, prestoText) = try LV2Bundle.render(["--frames", "48000", "--set", "sync=0", "--restore-settings", "preset=Presto", "--save-state"])
        #expect(abs(Double(presto.ticks()[24]) - Self.sampleRate * 60 / 184) <= 0.5)
        #expect(prestoText.contains("P preset=Presto") && prestoText.contains("S 184.0"))
        let (both, bothText) = try LV2Bundle.render(["--frames", "48000", "--set", "sync=0", "--restore-settings", "preset=Presto",
                                                     "--restore-tempo", "150", "--save-state"])
        #expect(both.clicks(port: 1) == [0, 19200, 38400])
        #expect(bothText.contains("P preset=Presto") && bothText.contains("S 150.0"))
        let (gone, goneText) = try LV2Bundle.render(["--frames", "48000", "--set", "sync=0", "--restore-settings", "preset=No such preset", "--save-state"])
        #expect(gone.clicks(port: 1) == [0, 24000])
        #expect(!goneText.contains("P ") && goneText.contains("S 120.0"))
    }

    @Test func loadingRunningAndUnloading100TimesNeitherCrashesNorLeaks() throws {
        let (output, status) = try LV2Bundle.run(LV2Bundle.host, ["cycle", LV2Bundle.library, "--times", "100"])
        #expect(status == 0, "\(output)")
        let f = output.split(separator: " ").map(String.init)
        let before = Int(f[3].trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let after = Int(f[5].trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(f[1] == "100")
        #expect(before > 0 && after > 0)
        #expect(after - before < 1024, "RSS grew \(after - before) kB over 98 instances: \(output)")
    }
}
