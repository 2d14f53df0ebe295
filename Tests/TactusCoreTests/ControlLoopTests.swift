import Foundation
import Synchronization
import Testing
@testable import TactusCore

/// A control loop on a virtual clock, with its engine state and two input rings.
final class LoopHarness {
    let engine: UnsafeMutablePointer<EngineControl>
    let jackInput: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>
    let alsaInput: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>
    let clock = VirtualClock()
    var reports: [ControlReport] = []
    var loop: ControlLoop<VirtualClock>!

    static let ch1 = MIDIChannel(number: 1)!

    init(tempo: Double = 120, configuration: PressureConfiguration = PressureConfiguration()) {
        startTempo = BPM(tempo)
        engine = .allocate(capacity: 1)
        engine.initialize(to: EngineControl())
        jackInput = .allocate(capacity: 1)
        jackInput.initialize(to: SPSCRing(capacity: 64))
        alsaInput = .allocate(capacity: 1)
        alsaInput.initialize(to: SPSCRing(capacity: 64))
        loop = ControlLoop(configuration: configuration, tempo: BPM(tempo), engine: engine, inputs: [jackInput, alsaInput], clock: clock) { [unowned self] in
            self.reports.append($0)
        }
    }

    deinit {
        loop = nil
        engine.deinitialize(count: 1); engine.deallocate()
        jackInput.deinitialize(count: 1); jackInput.deallocate()
        alsaInput.deinitialize(count: 1); alsaInput.deallocate()
    }

    func push(_ message: MIDIMessage, at seconds: Double, alsa: Bool = false) {
        let event = ControlInputEvent(message: message, microseconds: ControlTime.seconds(seconds).microseconds)
        (alsa ? alsaInput : jackInput).pointee.push(event)
    }

    /// Moves the virtual clock to `seconds` and polls once.
    @discardableResult
    func poll(at seconds: Double) -> ControlTime? {
        clock.time = .seconds(seconds)
        return loop.poll()
    }

    private let startTempo: BPM
    /// Every command the loop pushed, in order; `drainCommands` and `cues` each read on from where they last stopped.
    private var sent: [EngineCommand] = []
    private var commandsRead = 0
    private var cuesRead = 0

    private func drain() {
        while let c = engine.pointee.commands.pop() { sent.append(c) }
    }

    /// The tempo last sent to the engine (it travels only as `.setTempo`), the start tempo before any.
    var engineTempo: Double {
        drain()
        return (sent.last { $0.tempo != nil }?.tempo ?? startTempo).value
    }

    func drainCommands() -> [EngineCommand] {
        drain()
        defer { commandsRead = sent.count }
        return Array(sent[commandsRead...])
    }

    func cues() -> [ClickSound] {
        drain()
        defer { cuesRead = sent.count }
        return sent[cuesRead...].compactMap { if case .cue(let s) = $0 { s } else { nil } }
    }
}

@Suite("Control loop: rings in, tempo and cues out, in virtual time")
struct ControlLoopTests {
    let ch1 = LoopHarness.ch1
    let up = UInt7(72)!

    @Test func eventsAreTimedByTheirStampsNotByWhenTheLoopLooks() {
        let h = LoopHarness()
        // Note On at 0 and pressure 120 at 0.01 are only seen at 0.40: the 0.32 step
        // still happens, strong, and the clock's tempo is 131.
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(120)!), at: 0.01)
        let next = h.poll(at: 0.40)
        #expect(h.engineTempo == 131)
        #expect(next == .seconds(0.48))
        #expect(h.cues() == [.impact, .selection])
        h.poll(at: 0.48)
        #expect(h.engineTempo == 141)
    }

    @Test func twoInputRingsAreMergedInTimeStampOrder() {
        let h = LoopHarness()
        // The Note Off on the ALSA ring comes before the pressure on the JACK ring:
        // the pressure finds no held key.
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0, alsa: true)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(120)!), at: 0.2)
        h.push(.noteOff(channel: ch1, note: up, velocity: .zero), at: 0.1, alsa: true)
        h.poll(at: 1)
        #expect(h.engineTempo == 121)
        #expect(h.cues() == [])
        #expect(h.reports.contains(.lastTempo(BPM(121))))
    }

    @Test func aPresetsTempoIsAdoptedMidHold() {
        let h = LoopHarness()
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(60)!), at: 0.01)
        h.poll(at: 0.33)
        #expect(h.engineTempo == 122)
        // A preset switch: its tempo rides on its bar change, pushed by the switcher.
        h.engine.pointee.commands.push(.changeBar(BarSettings(), tempo: BPM(90), at: .nextBar))
        h.loop.setTempo(BPM(90), alreadySent: true)
        #expect(h.drainCommands().map(\.tempo) == [BPM(121), BPM(122), BPM(90)], "no .setTempo of its own")
        h.poll(at: 0.48)
        #expect(h.engineTempo == 91)
    }

    @Test func setTempoFromTheTerminalStoresItAndTheHoldGoesOnFromIt() {
        let h = LoopHarness()
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(120)!), at: 0.01)
        h.poll(at: 0.33)
        #expect(h.engineTempo == 131)
        h.loop.setTempo(BPM(60))
        #expect(h.engineTempo == 60)
        h.poll(at: 0.48)
        #expect(h.engineTempo == 70)
    }

    @Test func deepPressProgramChangeAndTransportAreReported() {
        let h = LoopHarness()
        let preset = UInt7(70)!
        h.push(.noteOn(channel: ch1, note: preset, velocity: UInt7(100)!), at: 0)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(127)!), at: 0.1)
        h.push(.programChange(channel: ch1, program: UInt7(3)!), at: 0.3)
        h.push(.start, at: 0.4)
        h.push(.timingClock, at: 0.4)
        h.push(.stop, at: 0.5)
        h.push(.continue, at: 0.6)
        h.poll(at: 1)
        let gestures = h.reports.filter { if case .status = $0 { false } else { true } }
        #expect(gestures == [.nextPreset, .cue(.commit), .programChange(channel: ch1, program: UInt7(3)!),
                             .transport(.start), .transport(.stop), .transport(.continue)])
        #expect(h.cues() == [.commit])
        #expect(h.engineTempo == 120)
    }

    @Test func stuckKeyMessageIsReported() {
        let h = LoopHarness()
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        h.poll(at: 0)
        h.poll(at: 10)
        #expect(h.reports.contains(.message("tactus: control key up (note 72) had no Note Off for 10 s: released it (stuck key or lost MIDI message?)")))
        #expect(h.reports.contains(.lastTempo(BPM(386))))
    }

    @Test func statusIsReportedAtMost30TimesASecond() {
        let h = LoopHarness()
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        // Pressure changes every millisecond for one second, the loop polls each time.
        for ms in 0..<1000 {
            h.push(.channelPressure(channel: ch1, pressure: UInt7(ms % 100)!), at: Double(ms) / 1000)
            h.poll(at: Double(ms) / 1000)
        }
        let statuses = h.reports.filter { if case .status = $0 { true } else { false } }
        #expect(statuses.count == 30)   // at 0, 0.034, 0.068 … (every 33.333 ms rounded up to the next poll)
    }

    @Test func continuousModeStoresTempoIn001Steps() {
        var c = PressureConfiguration()
        c.mode = .continuous
        c.calibration.maximum = 100
        let h = LoopHarness(configuration: c)
        h.push(.noteOn(channel: ch1, note: up, velocity: UInt7(100)!), at: 0)
        h.push(.channelPressure(channel: ch1, pressure: UInt7(3)!), at: 0.1)   // 2 BPM/s
        var stored: [Double] = []
        for ms in stride(from: 320, through: 420, by: 5) {
            h.poll(at: Double(ms) / 1000)
            stored.append(h.engineTempo)
        }
        #expect(stored == (0...20).map { 121 + Double($0) / 100 })
        #expect(h.loop.controller.isGliding)
    }

    @Test(.timeLimit(.minutes(1)))
    func realThreadRunnerFollowsTheMonotonicClock() async throws {
        let engine = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        engine.initialize(to: EngineControl())
        let ring = UnsafeMutablePointer<SPSCRing<ControlInputEvent>>.allocate(capacity: 1)
        ring.initialize(to: SPSCRing(capacity: 16))
        defer {
            engine.deinitialize(count: 1); engine.deallocate()
            ring.deinitialize(count: 1); ring.deallocate()
        }
        let clock = MonotonicClock()
        let loop = ControlLoop(configuration: PressureConfiguration(), tempo: BPM(120), engine: engine, inputs: [ring], clock: clock) { _ in }
        let wakeup = ControlWakeup()
        let finished = Atomic<Bool>(false)
        let thread = Thread { loop.run(wakeup: wakeup); finished.store(true, ordering: .releasing) }
        thread.start()
        let start = clock.now()
        ring.pointee.push(ControlInputEvent(message: .noteOn(channel: ch1, note: up, velocity: UInt7(100)!), microseconds: start.microseconds))
        ring.pointee.push(ControlInputEvent(message: .channelPressure(channel: ch1, pressure: UInt7(60)!), microseconds: start.microseconds))
        wakeup.post()
        var sent: [BPM] = []
        func drain() { while let c = engine.pointee.commands.pop() { if let t = c.tempo { sent.append(t) } } }
        // The tap lands at once; the first step 0.32 s after the Note On, with
        // nothing posted in between: the loop wakes at its own deadline. Polled
        // against the same clock (a loaded machine delays the poll, never the rule):
        // 122 never before 0.32 s, and it comes without another post.
        var secondAt: Double?
        var countBefore300ms = 0
        while secondAt == nil && Double(clock.now().microseconds - start.microseconds) / 1e6 < 10 {
            try await Task.sleep(for: .milliseconds(5))
            drain()
            let elapsed = Double(clock.now().microseconds - start.microseconds) / 1e6
            if elapsed < 0.3 { countBefore300ms = sent.count }
            if sent.count >= 2 { secondAt = elapsed }
        }
        #expect(countBefore300ms <= 1)
        #expect(Array(sent.prefix(2)) == [BPM(121), BPM(122)])
        let second = try #require(secondAt, "the loop never woke for its step deadline")
        #expect(second >= 0.32)
        loop.requestStop()
        wakeup.post()
        while !finished.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
    }
}
