import Testing
import TactusCore
@testable import TactusJACK

@Suite struct FrameTimelineTests {
    @Test func firstCycleIsTheOrigin() {
        var timeline = FrameTimeline(origin: 256)
        #expect(timeline.frame(forJackFrame: 123_456) == 256)
        #expect(timeline.frame(forJackFrame: 123_712) == 512)
    }

    @Test func jackFrameTimeWrappingAt2To32ContinuesIn64Bits() {
        var timeline = FrameTimeline(origin: 0)
        let beforeWrap = UInt32.max - 99          // 100 frames before the wrap
        #expect(timeline.frame(forJackFrame: beforeWrap) == 0)
        #expect(timeline.frame(forJackFrame: beforeWrap &+ 256) == 256)
        #expect(timeline.frame(forJackFrame: beforeWrap &+ 512) == 512)
        // Far past the wrap: 5 × 2^32 frames (about 5 days at 48 kHz), a period at a time.
        var jack = beforeWrap &+ 512
        var expected: Int64 = 512
        for _ in 0..<3 {
            jack = jack &+ 1_000_000_000
            expected += 1_000_000_000
            #expect(timeline.frame(forJackFrame: jack) == expected)
        }
    }

    @Test func skippedCyclesMoveTheEngineAsFarAsJackTime() {
        var timeline = FrameTimeline(origin: 0)
        _ = timeline.frame(forJackFrame: 1000)
        _ = timeline.frame(forJackFrame: 1256)
        // Two periods skipped (an xrun): the next cycle is 768 frames later, not 256.
        #expect(timeline.frame(forJackFrame: 2024) == 1024)
    }

    @Test func aNewServerContinuesWhereTheLastCycleEnded() {
        var timeline = FrameTimeline(origin: 0)
        _ = timeline.frame(forJackFrame: 900_000)
        #expect(timeline.frame(forJackFrame: 900_256) == 256)
        timeline.resume(at: 512)
        // The new server counts from its own zero.
        #expect(timeline.frame(forJackFrame: 17) == 512)
        #expect(timeline.frame(forJackFrame: 17 + 64) == 576)
    }

    /// The engine driven by JACK frame times that wrap 5 s in, with one cycle
    /// skipped at 3 s: every tick is where the grid puts it (the one due in the
    /// skipped cycle comes at the next cycle's first frame), none shifted after.
    @Test func engineTicksAcrossTheWrapAndASkippedCycleStayOnTheGrid() {
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let sounds = SoundSet.synthesized(sampleRate: 48000)
        defer { sounds.deallocate() }
        var engine = Engine(configuration: EngineConfiguration(sampleRate: 48000, tempo: BPM(133)), sounds: sounds)
        var events = MIDIEventBuffer()
        var timeline = FrameTimeline(origin: 0)
        control.pointee.commands.push(.start)
        var jack = UInt32.max - 5 * 48000 + 1
        var ticks: [Int64] = []
        var lateFrames: [Int64] = []
        let skipped = 3 * 48000 / 256
        for cycle in 0..<(10 * 48000 / 256) {
            defer { jack = jack &+ 256 }
            if cycle == skipped { continue }
            let start = timeline.frame(forJackFrame: jack)
            var ownTime = GivenPosition()
            engine.cycle(CycleInput(start: start, frames: 256), source: &ownTime, control: control.pointee,
                         click: nil, feedback: nil, events: &events)
            for i in 0..<events.count where events[i].bytes == MIDIBytes(0xF8) {
                ticks.append(events[i].frame)
                if cycle == skipped + 1 && events[i].frame == start { lateFrames.append(start) }
            }
        }
        let interval = 48000.0 * 60 / 133 / 24
        var offGrid: [Int64] = []
        for f in ticks where !lateFrames.contains(f) {
            let k = (Double(f) / interval).rounded()
            if abs(Double(f) - k * interval) > 0.5 { offGrid.append(f) }
        }
        #expect(ticks.count == 532)       // 10 s at 133 BPM, 24 a beat: 532 ticks (0 … 531 × 902.26 frames), none lost
        #expect(offGrid.isEmpty, "\(offGrid)")
        #expect(lateFrames.count <= 1)
    }
}
