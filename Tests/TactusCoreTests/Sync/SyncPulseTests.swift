import Testing
@testable import TactusCore

/// docs/DESIGN.md §14: sync pulses rise on the rounded frame of their grid
/// point, the same frame the click and the clock get, and follow the grid.
@Suite("Sync pulses on the grid")
struct SyncPulseTests {
    static let rate: Int64 = 48_000

    static func settings(_ spelling: String, width: Double? = nil, reset: SyncReset = .off) -> SyncSettings {
        SyncSettings(kind: SyncKind(parsing: spelling)!, widthMilliseconds: width, reset: reset)
    }

    static func recorder(_ sync: SyncSettings, bpm: BPM) -> SyncRecorder {
        SyncRecorder(EngineConfiguration(sampleRate: Int(rate), tempo: bpm, sync: sync))
    }

    /// The frames of grid pulses 0, step, 2 step… before `total`.
    static func gridFrames(every step: Int64, before total: Int64, bpm: BPM) -> [Int64] {
        var frames: [Int64] = []
        while true {
            let f = gridFrame(Int64(frames.count) * step, bpm: bpm)
            if f >= total { return frames }
            frames.append(f)
        }
    }

    @Test("30 s of each kind: every rising edge on its grid frame, N a beat, the beat's on the click, widths as documented",
          arguments: ["po", "volca", "din24", "din48", "ppqn:1", "ppqn:8", "ppqn:48"], [BPM(97.3), BPM(133)])
    func everyPulseOnItsGridFrame(spelling: String, bpm: BPM) {
        let sync = Self.settings(spelling, reset: spelling == "ppqn:48" ? .bar : .off)
        let r = Self.recorder(sync, bpm: bpm)
        r.send(.start)
        let total = 30 * Self.rate
        r.run(frames: total)

        let perQuarter = sync.kind.pulsesPerQuarterNote
        let step = 96 / perQuarter
        let expected = Self.gridFrames(every: step, before: total, bpm: bpm)
        #expect(expected.count > 40)
        let edges = r.clockEdges
        #expect(edges == expected)
        // Each beat's first pulse is on the click's onset, and a beat holds the kind's pulses a quarter note.
        let onsets = r.clickOnsets
        #expect(onsets.count == (expected.count + Int(perQuarter) - 1) / Int(perQuarter))
        #expect(onsets == stride(from: 0, to: expected.count, by: Int(perQuarter)).map { expected[$0] })
        for (a, b) in zip(onsets, onsets.dropFirst()) {
            #expect(edges.filter { $0 >= a && $0 < b }.count == Int(perQuarter))
        }
        // Widths: the kind's (15 ms = 720 frames, 5 ms = 240), at most half the interval; DIN's clock a square wave.
        let nominal: Int64? = ["po": 720, "volca": 720, "ppqn:1": 240, "ppqn:8": 240, "ppqn:48": 240][spelling]
        for (n, w) in SyncRecorder.widths(r.clock).enumerated() where expected[n] + w < total {
            let interval = gridFrame(Int64(n + 1) * step, bpm: bpm) - expected[n]
            #expect(w == min(nominal ?? interval / 2, interval / 2), "pulse \(n) at \(expected[n])")
        }
        if sync.kind.hasRunLine {
            // Started on frame 0 and never stopped: the run line is high throughout.
            #expect(r.second.allSatisfy { $0 == SyncOutput.high })
        } else if sync.hasSecondLine {
            // A reset on every bar line of 4/4.
            #expect(r.secondEdges == Self.gridFrames(every: 384, before: total, bpm: bpm))
        } else {
            #expect(r.second.allSatisfy { $0 == 0 })
        }
    }

    @Test("DIN sync's run line is high from Start's frame to Stop's, and again from Continue's")
    func runLineFromStartToStop() {
        let r = Self.recorder(Self.settings("din24"), bpm: BPM(120))
        r.run(frames: 1000)
        r.send(.start)
        r.run(frames: 20_500)
        r.send(.stop)
        r.run(frames: 5_000)
        r.send(.continue)
        r.run(frames: 3_000)

        let start = r.frames(ofStatus: 0xFA), stop = r.frames(ofStatus: 0xFC), resume = r.frames(ofStatus: 0xFB)
        #expect(start == [1000] && stop == [21_500] && resume == [26_500])
        for (i, level) in r.second.enumerated() {
            let running = (1000..<21_500).contains(i) || i >= 26_500
            if level != (running ? SyncOutput.high : 0) {
                Issue.record("run line \(level) at frame \(i)")
                break
            }
        }
        // At 120 BPM a 24th of a quarter note is 1000 frames: clock pulses 500 frames high, none while stopped.
        let beforeStop: [Int64] = (0..<21).map { 1000 + Int64($0) * 1000 }
        let afterContinue: [Int64] = (0..<3).map { 26_500 + Int64($0) * 1000 }
        #expect(r.clockEdges == beforeStop + afterContinue)
        #expect(SyncRecorder.widths(r.clock).allSatisfy { $0 == 500 })
    }

    @Test("A tempo step in the middle: the pulses bend at the clock tick where it takes effect, as the MIDI clock does")
    func aTempoStepBendsThePulses() {
        for spelling in ["ppqn:24", "din48"] {
            let r = Self.recorder(Self.settings(spelling), bpm: BPM(97.3))
            r.send(.start)
            r.run(frames: 2 * Self.rate)
            r.send(.setTempo(BPM(133)))
            r.run(frames: 3 * Self.rate)
            let clocks = r.frames(ofStatus: 0xF8)
            let edges = r.clockEdges
            let everyClock = spelling == "din48" ? stride(from: 0, to: edges.count, by: 2).map { edges[$0] } : edges
            #expect(everyClock == clocks, "\(spelling)")
            // Both tempos are in it: a clock 1233 or 1234 frames apart at 97.3 BPM, 902 or 903 at 133.
            let spacings = Set(zip(clocks, clocks.dropFirst()).map { $1 - $0 })
            #expect(spacings == [1233, 1234, 902, 903], "\(spelling)")
        }
    }

    @Test("A tempo map's ramp and meter change, then its end: the pulses are the clock's ticks, the run line falls on the map's Stop")
    func aTempoMapDrivesThePulses() throws {
        for spelling in ["ppqn:24", "din24"] {
            let timeline = MapTimeline(try TempoMapParser.parse("2 4/4 100\n4 4/4 100-160\n2 3/4 160\n", file: "t.map"))
            defer { timeline.deallocate() }
            let r = SyncRecorder(EngineConfiguration(sampleRate: 48_000, tempo: BPM(100), map: timeline, sync: Self.settings(spelling)))
            r.send(.start)
            r.run(frames: 16 * Self.rate, blocks: [256, 77])
            let clocks = r.frames(ofStatus: 0xF8)
            #expect(clocks.count > 500)
            #expect(r.clockEdges == clocks, "\(spelling)")
            // The ramp: many spacings between 100 BPM's 1200 frames and 160's 750.
            #expect(Set(zip(clocks, clocks.dropFirst()).map { $1 - $0 }).count > 100, "\(spelling)")
            let stop = try #require(r.frames(ofStatus: 0xFC).first)
            #expect(clocks.last! < stop)
            if spelling == "din24" {
                #expect(r.second[..<Int(stop)].allSatisfy { $0 == SyncOutput.high } && r.second[Int(stop)...].allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("A speed trainer's steps: the pulses are the clock's ticks at every tempo it plays")
    func aTrainerDrivesThePulses() {
        let r = SyncRecorder(EngineConfiguration(sampleRate: 48_000, tempo: BPM(120), trainer: SpeedTrainer(from: BPM(120), to: BPM(150), bars: 1, stepHundredths: 1_000),
                                                 sync: Self.settings("ppqn:24")))
        r.send(.start)
        r.run(frames: 10 * Self.rate)
        let clocks = r.frames(ofStatus: 0xF8)
        #expect(r.clockEdges == clocks)
        // 120, 130, 140 and 150 BPM: a clock 1000, 923/924, 857 and 800 frames apart.
        #expect(Set(zip(clocks, clocks.dropFirst()).map { $1 - $0 }).isSuperset(of: [1000, 923, 857, 800]))
    }

    @Test("Blocks of 256 and of odd sizes give the same samples, a pulse carried across a block boundary")
    func blockSizesDoNotChangeTheSamples() {
        let cases: [(SyncSettings, BPM)] = [
            (Self.settings("po"), BPM(133)), (Self.settings("din24"), BPM(97.3)),
            (Self.settings("ppqn:4", width: 20, reset: .bar), BPM(133)),
        ]
        for (sync, bpm) in cases {
            let even = Self.recorder(sync, bpm: bpm), odd = Self.recorder(sync, bpm: bpm)
            even.send(.start)
            odd.send(.start)
            even.run(frames: 10 * Self.rate, blocks: [256])
            odd.run(frames: 10 * Self.rate, blocks: [1, 37, 1000, 4099, 3, 255])
            #expect(even.clock == odd.clock && even.second == odd.second && even.click == odd.click, "\(sync.kind.spelling)")
            // Some pulse rises in one 256-frame block and falls in a later one.
            let crossing = zip(even.clockEdges, SyncRecorder.widths(even.clock)).contains { ($0 + $1 - 1) / 256 != $0 / 256 }
            #expect(crossing, "\(sync.kind.spelling)")
            #expect(even.clockEdges.count > 20)
        }
    }

    @Test("ppqn:4 with --sync-reset bar: a reset on every bar line and at a locate, the bars counted from there")
    func resetOnBarsAndAtALocate() {
        let r = Self.recorder(Self.settings("ppqn:4", reset: .bar), bpm: BPM(120))
        r.send(.start)
        r.run(frames: 240_000)          // bar lines at 0, 96 000, 192 000 (2 s a bar at 120 in 4/4)
        r.send(.locate(bar: 2))         // mid bar 3: on the next clock tick, 240 000, the song is at bar 2
        r.run(frames: 100_000)
        #expect(r.frames(ofStatus: 0xFB) == [240_000])
        #expect(r.secondEdges == [0, 96_000, 192_000, 240_000, 336_000])
        #expect(SyncRecorder.widths(r.second).allSatisfy { $0 == 240 })
        // The clock runs on through the locate, a 16th (6000 frames) apart.
        #expect(r.clockEdges == (0..<57).map { Int64($0) * 6000 })
    }

    @Test("No sync output: the lines stay at 0 and the clicks and clock are the engine's without it")
    func withoutSyncTheLinesAreSilent() {
        let plain = SyncRecorder(EngineConfiguration(sampleRate: 48_000, tempo: BPM(133)))
        let synced = Self.recorder(Self.settings("din48"), bpm: BPM(133))
        plain.send(.start)
        synced.send(.start)
        plain.run(frames: 96_000)
        synced.run(frames: 96_000)
        #expect(plain.clock.allSatisfy { $0 == 0 } && plain.second.allSatisfy { $0 == 0 })
        #expect(plain.click == synced.click && plain.midi == synced.midi)
        #expect(synced.clockEdges.count > 100)
    }
}

@Suite("Sync kinds and settings")
struct SyncSettingsTests {
    @Test func spellingsReadBackAndOthersAreRefused() {
        for spelling in SyncKind.spellings { #expect(SyncKind(parsing: spelling)?.spelling == spelling) }
        for wrong in ["", "PO", "din", "din96", "ppqn:3", "ppqn:96", "ppqn:", "ppqn:24x", "volca "] { #expect(SyncKind(parsing: wrong) == nil, "\(wrong)") }
        #expect(SyncKind.spellings == ["po", "volca", "din24", "din48", "ppqn:1", "ppqn:2", "ppqn:4", "ppqn:8", "ppqn:24", "ppqn:48"])
    }

    @Test func pulsesWidthsAndLinesAsDocumented() {
        #expect(SyncKind.pocketOperator.pulsesPerQuarterNote == 2 && SyncKind.volca.pulsesPerQuarterNote == 2)
        #expect(SyncKind.din24.pulsesPerQuarterNote == 24 && SyncKind.din48.pulsesPerQuarterNote == 48)
        #expect(SyncSettings(kind: .volca).widthFrames(sampleRate: 48_000) == 720)
        #expect(SyncSettings(kind: .pocketOperator).widthFrames(sampleRate: 44_100) == 662)
        #expect(SyncSettings(kind: .ppqn(24)).widthFrames(sampleRate: 48_000) == 240)
        #expect(SyncSettings(kind: .ppqn(24), widthMilliseconds: 1).widthFrames(sampleRate: 96_000) == 96)
        #expect(SyncSettings(kind: .din24).widthFrames(sampleRate: 48_000) == nil)
        #expect(SyncSettings(kind: .din24).channels == 2 && SyncSettings(kind: .volca).channels == 1)
        #expect(SyncSettings(kind: .ppqn(4), reset: .bar).channels == 2 && SyncSettings(kind: .ppqn(4)).channels == 1)
    }
}
