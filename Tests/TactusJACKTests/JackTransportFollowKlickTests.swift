import Foundation
import Testing

extension JACKServerTests.JackTransport {
    /// klick as the timebase master (`klick -T`, Debian's 0.12.2) playing the
    /// map of `KlickTempoMap.barLinesOnCycleStarts` (2 bars 4/4 at 120, 3 bars 3/4 at 133, 3 bars
    /// 4/4 at 133: 29 beats), the transport located to 0 and rolled, Tactus
    /// following at its own 100 BPM. The recorder takes Tactus's click on port 1
    /// and klick's on port 2. Bars 2 and 3 start on a cycle's first frame
    /// (96 000 and 192 000, 375 and 750 periods), where klick's BBT says bar 2
    /// (3) beat 5 of 4: every one of klick's 29 beats has Tactus's click within
    /// 1 frame, downbeats included; Tactus's accent falls where klick's does and
    /// on the map's bar lines only; no click besides; no Stop or Song Position
    /// while the map plays (the transport never moved). The LV2 plugin on host
    /// sync in jalv, in the same session (port 3): jalv's time:Position events of
    /// klick's whole ticks put every one of its clicks within 1 frame of the
    /// map's beat, through the tempo and meter change at bar 3, the accents on
    /// bars 1–5's lines (docs/DESIGN.md §8.5).
    @Test func followingKlickAsTimebaseMasterEveryBeatHasItsClickDownbeatsIncluded() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/klick"), "klick is a test dependency: apt-get install klick")
        let server = try JackTestServer()
        defer { server.stop() }
        let host = Host(server)
        let tag = "klick"
        let mapText = KlickTempoMap.barLinesOnCycleStarts.entries.map { "\($0.bars) \($0.beats)/\($0.denom) \(Int($0.tempo))" }.joined(separator: "\n") + "\n"
        let mapFile = try Self.map("\(server.name).klick.map", mapText)
        // The LV2 plugin on host sync in jalv, in the same session: its click on port 3.
        let jalv = try JalvProcess(server: server, name: "klv2", controls: ["sync": 1])
        defer { jalv.stop() }
        let (recorder, out) = try Self.startRecorder(on: host, tag, seconds: 19, audioPorts: 3, connections: ["audio_3=klv2:click"])
        let (tactus, log) = try Self.launchTactus(on: host, tag, ["--transport", "follow", "--bpm", "100", "--start-stopped"])
        defer { if tactus.isRunning { kill(tactus.processIdentifier, SIGKILL) } }
        let klick = try TestProcess.launch("/usr/bin/klick", ["-T", "-n", "klick", "-p", "rec:audio_2", "-f", mapFile],
                                           output: TestFiles.file("\(server.name).\(tag).klick.log"),
                                           environment: ["JACK_DEFAULT_SERVER": server.name])
        defer { if klick.isRunning { kill(klick.processIdentifier, SIGKILL) } }
        #expect(Launch.waitFor(log, containing: "timebase another client"), "\(Launch.text(log))")
        for request in [["locate", "0"], ["start"]] {
            let probe = try Self.probe(on: host, ["transport"] + request, tag: "\(tag)-\(request[0])")
            #expect(TestProcess.wait(probe, seconds: 10) == 0)
        }
        #expect(TestProcess.wait(recorder, seconds: 50) == 0)
        kill(klick.processIdentifier, SIGTERM)
        _ = TestProcess.wait(klick, seconds: 10)
        #expect(Launch.stop(tactus) == 0)
        #expect(jalv.stop() == 0, "jalv's exit status")
        let r = try Recording(contentsOf: out)
        #expect(!Launch.text(log).contains("error"), "\(Launch.text(log))")

        let beats = KlickTempoMap.barLinesOnCycleStarts.beats
        let end = beats.last!.frame + 1000
        // Transport frame of a recorded frame, from the rolling cycle it is in.
        func transportFrame(_ f: Int64) -> Double? {
            guard let row = r.transport.last(where: { $0.frame <= f }), row.rolling else { return nil }
            return Double(row.transportFrame + f - row.frame)
        }
        func inMap(_ o: Recording.Onset) -> Bool { transportFrame(o.frame).map { $0 <= end } ?? false }
        let klicks = r.onsets.filter { $0.port == 2 && inMap($0) }
        let ours = r.onsets.filter { $0.port == 1 && inMap($0) }
        // klick plays the map: its k-th click on the map's k-th beat (it truncates the frame), its emphasis on beat 1.
        #expect(klicks.count == beats.count, "klick's clicks \(klicks.map { transportFrame($0.frame) ?? -1 })")
        var wrong: [String] = []
        for (click, beat) in zip(klicks, beats) {
            let t = transportFrame(click.frame) ?? -1
            let klickAccent = click.value > 0.46
            if abs(t - beat.frame) > 1 || klickAccent != (beat.beat == 1) {
                wrong.append("klick at \(t) (\(klickAccent ? "accent" : "beat")) for bar \(beat.bar) beat \(beat.beat) at \(beat.frame)")
            }
            let near = ours.filter { abs($0.frame - click.frame) <= 1 }
            if near.count != 1 || (near[0].value > 0.8) != klickAccent {
                wrong.append("bar \(beat.bar) beat \(beat.beat) (klick at \(click.frame), transport \(t)): Tactus \(near.map { "\($0.frame) \($0.value)" })")
            }
        }
        let transport = r.midi().filter { $0.bytes != [0xF8] && transportFrame($0.frame).map { $0 <= end } ?? false }.map(\.bytes)
        let downbeats = zip(klicks, beats).filter { $0.1.beat == 1 }.filter { k in ours.contains { abs($0.frame - k.0.frame) <= 1 && $0.value > 0.8 } }.count
        print("following klick -T (jackd): \(ours.count) Tactus clicks for klick's \(klicks.count) beats, \(downbeats) of \(beats.filter { $0.beat == 1 }.count) downbeats accented with klick's, "
              + "\(wrong.count) beats wrong, transport messages \(transport), xruns \(r.xruns)")
        #expect(wrong.isEmpty, "\(wrong)")
        // The LV2 plugin in jalv: its clicks against the map's beats (transport frames), beat by beat.
        let plugin = r.onsets.filter { $0.port == 3 && inMap($0) }
        var pluginErrors: [Double] = []
        var pluginWrong: [String] = []
        for beat in beats {
            let near = plugin.filter { abs((transportFrame($0.frame) ?? -1e9) - beat.frame) <= 20 }
            guard near.count == 1, let t = transportFrame(near[0].frame) else {
                pluginWrong.append("bar \(beat.bar) beat \(beat.beat) at \(beat.frame): plugin \(near.map { transportFrame($0.frame) ?? -1 })")
                continue
            }
            pluginErrors.append(t - beat.frame)
            // jalv tells a meter change only with a tempo change: bar 6's 4/4 at the same 133 never reaches the plugin.
            if abs(t - beat.frame) > 1 || (beat.bar <= 5 && (near[0].value > 0.8) != (beat.beat == 1)) {
                pluginWrong.append("bar \(beat.bar) beat \(beat.beat) at \(beat.frame): plugin at \(t)\(near[0].value > 0.8 ? " accented" : "")")
            }
        }
        print("LV2 plugin in jalv following klick -T: \(plugin.count) clicks for the map's \(beats.count) beats, error (frames) per beat "
              + "\(pluginErrors.map { ($0 * 100).rounded() / 100 }), \(pluginWrong.count) beats wrong")
        #expect(pluginWrong.isEmpty, "\(pluginWrong)")
        #expect(plugin.count == beats.count, "the plugin's clicks \(plugin.map { transportFrame($0.frame) ?? -1 })")
        #expect(ours.count == klicks.count, "Tactus's clicks \(ours.map { transportFrame($0.frame) ?? -1 })")
        #expect(transport == [[0xFA]], "\(transport)")
    }
}
