import Testing
@testable import TactusCore

/// A preset's own samples ride with its bar change: the old bar keeps its sound
/// to the end, the new preset's first click is already the new sound, and every
/// set the engine lets go of comes back through `retiredSounds` to be freed off
/// the real-time thread, once. Sound sets here are impulses whose length names
/// the set: 1 sample (the harness's), 2 or 3 samples.
@Suite("Preset sounds switching")
struct PresetSoundSwitchingTests {
    static func impulses(length: Int) -> SoundSet {
        SoundSet(sampleRate: 48_000) { [Float](repeating: EngineHarness.impulseValue[$0]!, count: length) }
    }

    static var four: Preset { get throws { try decode(PresetSwitchingTests.fourFour120) } }
    static var seven: Preset { get throws { try decode(PresetSwitchingTests.sevenEight133) } }

    /// 4/4 at 120 playing, mid bar 1 (the bar line at 96 000), the audio kept.
    static func midFirstBar() throws -> EngineHarness {
        let h = EngineHarness(try four.engineConfiguration(sampleRate: 48_000), keepAudio: true)
        h.send(.start)
        h.render(until: 40_192)
        return h
    }

    /// The frames where the click output is not silent.
    static func soundingFrames(_ h: EngineHarness) -> [Int64] {
        h.audio.indices.filter { h.audio[$0] != 0 }.map(Int64.init)
    }

    @Test func theNewSamplesSoundFromTheBarLineWhereThePresetTakesEffect() throws {
        let seven = try Self.seven
        let h = try Self.midFirstBar()
        let doubled = Self.impulses(length: 2)
        let pushed = seven.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar, samples: doubled)
        #expect(pushed)
        h.render(until: 200_000)
        // 4/4 at 120: one-sample clicks at 0, 24 000, 48 000, 72 000; the 7/8 bar
        // from 96 000 (accents X.xXx.x, eighths of 21 654.1 frames) in two-sample clicks.
        #expect(Self.soundingFrames(h) == [0, 24_000, 48_000, 72_000,
                                          96_000, 96_001, 139_308, 139_309, 160_962, 160_963, 182_617, 182_618])
        #expect(h.engine.soundSet.samples(.beat).count == 2)
        let retired = h.control.pointee.retiredSounds.pop()
        #expect(retired?.samples(.beat).count == 1, "the harness's set, given back at the bar line")
        #expect(h.control.pointee.retiredSounds.pop() == nil)
        doubled.deallocate()
    }

    @Test func aSwitchOvertakenBeforeItsBarLineGivesItsUnheardSamplesBack() throws {
        let four = try Self.four, seven = try Self.seven
        let h = try Self.midFirstBar()
        let doubled = Self.impulses(length: 2), tripled = Self.impulses(length: 3)
        let pushed = seven.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar, samples: doubled)
        #expect(pushed)
        h.render(until: 60_160)
        #expect(h.engine.unheardSoundSets.map { $0.samples(.beat).count } == [2], "held for a rebuild to free")
        let overtaking = four.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar, samples: tripled)
        #expect(overtaking)
        h.render(until: 130_000)
        // The second switch replaced the first before 96 000: 4/4 goes on in three-sample clicks.
        #expect(Self.soundingFrames(h) == [0, 24_000, 48_000, 72_000, 96_000, 96_001, 96_002, 120_000, 120_001, 120_002])
        #expect(h.engine.unheardSoundSets.isEmpty)
        #expect(h.control.pointee.retiredSounds.pop()?.samples(.beat).count == 2, "the overtaken set, never heard")
        #expect(h.control.pointee.retiredSounds.pop()?.samples(.beat).count == 1, "the harness's, at the bar line")
        #expect(h.control.pointee.retiredSounds.pop() == nil)
        doubled.deallocate()
        tripled.deallocate()
    }

    @Test func stoppedTheSamplesChangeAtOnceAndAStopBeforeTheBarLineTakesThemToo() throws {
        let four = try Self.four, seven = try Self.seven
        // Stopped: the new bar and sounds at once.
        let stopped = EngineHarness(four.engineConfiguration(sampleRate: 48_000))
        let doubled = Self.impulses(length: 2)
        let pushedStopped = seven.apply(to: stopped.control.pointee, sampleRate: 48_000, at: .nextBar, samples: doubled)
        #expect(pushedStopped)
        stopped.render(until: 256)
        #expect(stopped.engine.soundSet.samples(.beat).count == 2)
        #expect(stopped.control.pointee.retiredSounds.pop()?.samples(.beat).count == 1)
        doubled.deallocate()

        // Running, then stopped before the bar line: the pending preset becomes the
        // song's setting, and its sounds come with it.
        let h = try Self.midFirstBar()
        let tripled = Self.impulses(length: 3)
        let pushed = seven.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar, samples: tripled)
        #expect(pushed)
        h.render(until: 50_176)
        h.send(.stop)
        h.render(until: 60_160)
        #expect(h.engine.soundSet.samples(.beat).count == 3)
        #expect(h.control.pointee.retiredSounds.pop()?.samples(.beat).count == 1)
        h.send(.start)
        h.render(until: 61_000)
        #expect(Self.soundingFrames(h).suffix(3) == [60_160, 60_161, 60_162], "bar 1 of the 7/8 in three-sample clicks")
        tripled.deallocate()
    }

    /// A quieter preset's gains also wait for its bar line: the last beats of the
    /// old bar keep their level, the new bar's first click has the new one.
    @Test func thePresetsGainsTakeEffectOnItsFirstClickNotBefore() throws {
        let quiet = try decode(#"{ "format": 1, "name": "Quiet", "tempo": 120, "sounds": { "accent": { "gain": 0.5 }, "beat": { "gain": 0.25 } } }"#)
        let h = try Self.midFirstBar()
        let pushed = quiet.apply(to: h.control.pointee, sampleRate: 48_000, at: .nextBar)
        #expect(pushed)
        h.render(until: 130_000)
        // Impulses: accent 1, beat 0.5 (EngineHarness), at gain 1 to the bar line, then 0.5 and 0.25.
        #expect(Self.soundingFrames(h) == [0, 24_000, 48_000, 72_000, 96_000, 120_000])
        #expect([0, 24_000, 48_000, 72_000, 96_000, 120_000].map { h.audio[$0] } == [1, 0.5, 0.5, 0.5, 0.5, 0.125])
    }
}
