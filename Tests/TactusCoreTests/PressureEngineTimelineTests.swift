import Testing
@testable import TactusCore

/// The whole control path without a sound card: MIDI into the input ring, the
/// control loop on virtual time, `Engine.render` (the same call the JACK
/// callback makes) in 256-frame cycles at 48 kHz, clock ticks and feedback
/// read back from its output. Frame f is at f / 48000 s on the control clock.
final class OfflineRig {
    static let sampleRate = 48_000
    static let period = 256

    let control: UnsafeMutablePointer<EngineControl>
    let ring: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>
    let clock = VirtualClock()
    var loop: ControlLoop<VirtualClock>!
    var engine: Engine
    var events = MIDIEventBuffer()
    let click: UnsafeMutablePointer<Float>
    let feedback: UnsafeMutablePointer<Float>

    /// MIDI to arrive at the `control` port, by time (µs).
    var script: [(microseconds: Int64, message: MIDIMessage)] = []
    var nextFrame: Int64 = 0
    /// When the loop asked to be woken by itself (`poll()`'s result).
    var due: ControlTime? = .zero
    var tickFrames: [Int64] = []
    var feedbackOnsets: [Int64] = []
    var silentFeedbackSamples = 10_000
    var reports: [ControlReport] = []

    init(tempo: Double = 120) {
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        ring = .allocate(capacity: 1)
        ring.initialize(to: SPSCRing(capacity: 256))
        click = .allocate(capacity: Self.period)
        feedback = .allocate(capacity: Self.period)
        engine = Engine(configuration: EngineConfiguration(sampleRate: Self.sampleRate, tempo: BPM(tempo)),
                        sounds: .synthesized(sampleRate: Self.sampleRate))
        loop = ControlLoop(configuration: PressureConfiguration(), tempo: BPM(tempo), engine: control, inputs: [ring], clock: clock) { [unowned self] in
            self.reports.append($0)
        }
        control.pointee.commands.push(.start)
    }

    deinit {
        loop = nil
        control.deinitialize(count: 1); control.deallocate()
        ring.deinitialize(count: 1); ring.deallocate()
        click.deallocate(); feedback.deallocate()
    }

    static func microseconds(frame: Int64) -> Int64 { frame * 1_000_000 / Int64(sampleRate) }
    static func frame(seconds: Double) -> Int64 { Int64((seconds * Double(sampleRate)).rounded()) }

    func send(_ message: MIDIMessage, at seconds: Double) {
        script.append((ControlTime.seconds(seconds).microseconds, message))
        script.sort { $0.microseconds < $1.microseconds }
    }

    /// Runs cycles until `seconds`. Before each cycle: MIDI that arrived during the
    /// previous cycle reaches the ring (JACK hands a period's input to the next
    /// callback), stamped with its own time, and wakes the control thread then
    /// (`ControlWakeup`); otherwise it wakes at the deadlines `poll()` returns.
    func run(until seconds: Double) {
        let end = Self.frame(seconds: seconds)
        while nextFrame < end {
            let cycleStart = Self.microseconds(frame: nextFrame)
            while let time = due, time.microseconds <= cycleStart {
                clock.time = time
                due = loop.poll()
            }
            var arrived = false
            while let first = script.first, first.microseconds <= cycleStart {
                ring.pointee.push(ControlInputEvent(message: first.message, microseconds: first.microseconds))
                script.removeFirst()
                arrived = true
            }
            if arrived {
                clock.time = ControlTime(microseconds: cycleStart)
                due = loop.poll()
            }
            var ownTime = GivenPosition()
            engine.cycle(CycleInput(start: nextFrame, frames: Self.period), source: &ownTime, control: control.pointee,
                         click: click, feedback: feedback, events: &events)
            for i in 0..<events.count where events[i].bytes.status == MIDIStatus.timingClock {
                tickFrames.append(events[i].frame)
            }
            for i in 0..<Self.period {
                if feedback[i] != 0 {
                    if silentFeedbackSamples >= 256 { feedbackOnsets.append(nextFrame + Int64(i)) }
                    silentFeedbackSamples = 0
                } else {
                    silentFeedbackSamples += 1
                }
            }
            nextFrame += Int64(Self.period)
        }
    }

    /// The tempo the clock shows from each tick to the next, rounded to whole BPM
    /// (frames per tick = 60 × 48000 / (24 × BPM)).
    var tickTempos: [(frame: Int64, bpm: Int)] {
        zip(tickFrames, tickFrames.dropFirst()).map { a, b in
            (a, Int((60.0 * Double(Self.sampleRate) / (24 * Double(b - a))).rounded()))
        }
    }

    /// Tick frames where the tempo shown changes, with the new tempo.
    var tempoChanges: [(frame: Int64, bpm: Int)] {
        var changes: [(Int64, Int)] = []
        for (frame, bpm) in tickTempos where changes.last?.1 != bpm { changes.append((frame, bpm)) }
        return changes
    }
}

@Suite("Pressure control through the engine: the clock follows the schedule")
struct PressureEngineTimelineTests {
    let ch1 = MIDIChannel(number: 1)!
    let up = UInt7(72)!

    @Test func clockFollowsTapLightAndStrongStepsThenStaysAfterRelease() {
        let rig = OfflineRig()
        let t0 = 1.0
        rig.send(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: t0)
        rig.send(.channelPressure(channel: ch1, pressure: UInt7(60)!), at: t0 + 0.05)
        rig.send(.channelPressure(channel: ch1, pressure: UInt7(120)!), at: t0 + 0.55)
        rig.send(.noteOff(channel: ch1, note: up, velocity: .zero), at: t0 + 1.0)
        rig.run(until: 3)
        // Expected: 120 → 121 (tap, t0) → 122 (t0 + 0.32) → 123 (0.48) → 133 (0.64)
        // → 143 (0.80) → 153 (0.96) → released at 1.0: 153 to the end.
        let expected: [(Double?, Int)] = [(nil, 120), (0, 121), (0.32, 122), (0.48, 123), (0.64, 133), (0.80, 143), (0.96, 153)]
        let changes = rig.tempoChanges
        #expect(changes.map(\.bpm) == expected.map(\.1))
        // Each change lands on the first tick after its step time plus at most one
        // 256-frame cycle (the engine reads the tempo once per cycle), so within one tick.
        for (change, (offset, bpm)) in zip(changes, expected) {
            guard let offset else { continue }
            let stepFrame = OfflineRig.frame(seconds: t0 + offset)
            let framesPerTick = Int64(60 * 48_000 / (24 * (bpm - 1)))
            #expect(change.frame >= stepFrame, "tempo \(bpm) before its step")
            #expect(change.frame - stepFrame <= Int64(OfflineRig.period) + framesPerTick + 48, "tempo \(bpm) late by \(change.frame - stepFrame) frames")
        }
        // The impact cue sounds on the feedback output when strong is entered (t0 + 0.55,
        // heard at the start of the next cycle after that step), and selection at
        // each strong step.
        let onsetSeconds = rig.feedbackOnsets.map { (Double($0) / 48_000 * 1000).rounded() / 1000 }
        #expect(onsetSeconds.count == 4)
        #expect(abs(onsetSeconds[0] - (t0 + 0.55)) <= 0.007)
        for (onset, step) in zip(onsetSeconds.dropFirst(), [0.64, 0.80, 0.96]) {
            #expect(abs(onset - (t0 + step)) <= 0.007)
        }
        #expect(rig.reports.contains(.lastTempo(BPM(153))))
    }

    /// Pressure-to-tempo latency, in frames: from the frame the strong pressure
    /// arrives to the first clock tick at the new tempo, over 100 presses at
    /// different phases of the step clock and the beat.
    @Test func pressureToTempoLatencyIsWithinOneStepOneCycleAndOneTick() {
        let rig = OfflineRig(tempo: 100)
        var latencies: [Int64] = []
        var start = 1.0
        var phase: UInt64 = 12_345
        for _ in 0..<100 {
            phase = phase &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = Double(phase >> 40) / Double(1 << 24)          // 0 ≤ jitter < 1
            let press = start + 0.5 + jitter * 0.16                      // anywhere in a step period
            rig.send(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: start)
            rig.send(.channelPressure(channel: ch1, pressure: UInt7(60)!), at: start + 0.05)
            rig.send(.channelPressure(channel: ch1, pressure: UInt7(120)!), at: press)
            rig.send(.noteOff(channel: ch1, note: up, velocity: .zero), at: press + 0.17)
            rig.run(until: press)
            let before = rig.tickTempos.last?.bpm ?? 0
            rig.run(until: press + 0.5)
            let pressFrame = OfflineRig.frame(seconds: press)
            if let first = rig.tickTempos.first(where: { $0.frame >= pressFrame && $0.bpm >= before + 5 }) {
                latencies.append(first.frame - pressFrame)
            }
            // Back to 100 BPM for the next press.
            rig.loop.setTempo(BPM(100))
            start = press + 1.0
        }
        #expect(latencies.count == 100)
        let sorted = latencies.sorted()
        let ms = { (frames: Int64) in (Double(frames) / 4.8).rounded() / 10 }
        let bound = 0.160 * 48_000 + Double(OfflineRig.period) + 60.0 * 48_000 / (24 * 110)   // step + cycle + tick at 110 BPM
        print("pressure→tempo latency over 100 presses (offline, 48 kHz, 256-frame cycles, control thread woken by input and its deadlines): min \(ms(sorted[0])) ms, median \(ms(sorted[50])) ms, p90 \(ms(sorted[90])) ms, max \(ms(sorted[99])) ms; bound (step + cycle + tick) \((bound / 4.8).rounded() / 10) ms")
        #expect(Double(sorted[99]) <= bound)
    }
}
