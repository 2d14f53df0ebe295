import Testing
import TactusCore
@testable import TactusCLI
@testable import TactusJACK

/// The pressure controller end to end without a server: the up key's Note On,
/// its channel pressure and its Note Off on the `control` port at exact frames,
/// through the real JACK cycle (each message stamped with the host time of its
/// frame), read by the control session (`ControlSession`, `tactus run`'s
/// `--pressure` defaults) polled after every cycle on a `VirtualClock` that
/// moves with the loop's host time, its tempo and cue commands back into the
/// cycle. What the live `PressureEndToEnd` take claims, exact to the frame and
/// the same every run (docs/DESIGN.md §5.3, §5.4, §5.6, §5.7, §5.11).
@Suite struct SimulatedPressureTests {
    static let rate = 48_000
    /// The Note On: a second and 100 frames into the run, off the cycle grid.
    static let noteOn: UInt32 = 1_000_000 + 48_000 + 100

    /// The live take's schedule (`PressureEndToEnd.script`): Note On of the up
    /// key, light pressure 0.05 s after it, strong at 0.55 s, Note Off at 1.0 s,
    /// in the sender's frames.
    static func schedule(_ loop: SimulatedProcessLoop) {
        let at = { (seconds: Double) in noteOn + UInt32(seconds * Double(rate)) }
        loop.controlInput.append((at(0), [0x90, 0x48, 0x64]))
        loop.controlInput.append((at(0.05), [0xD0, 0x3C]))
        loop.controlInput.append((at(0.55), [0xD0, 0x78]))
        loop.controlInput.append((at(1.00), [0x80, 0x48, 0x00]))
    }

    struct Run {
        var ticks: [UInt32]
        /// The frames where a cue sounded on the `feedback` port.
        var cues: [UInt32]
        /// What `LastTempo` wrote (docs/DESIGN.md §5.7).
        var saved: [BPM]
        /// The frame of each cycle's start and its host time (µs), in order.
        var cycleTimes: [(frame: UInt32, microseconds: Int64)]
    }

    /// Runs the schedule for 3.5 s from the Note On; `fallBehind` (µs) puts the
    /// server's frames that much behind the host's clock from 0.9 s after the
    /// Note On, as a late wake-up of jack2's dummy driver does (the sender's
    /// Note Off, timed in its frames, then reaches the port later in host time).
    static func run(fallBehind: Int64 = 0) throws -> Run {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: rate, tempo: BPM(120))
        let loop = try SimulatedProcessLoop(options: options)
        schedule(loop)
        let clock = VirtualClock()
        clock.time = ControlTime(microseconds: loop.microseconds(atJackFrame: loop.jackFrame))
        let session = ControlSession(configuration: PressureConfiguration(), tempo: BPM(120), engine: loop.engineControl,
                                     inputs: [{ loop.shared.pointee.controlInput.pop() }], clock: clock, bar: BarSettings())
        var saved: [BPM] = []
        session.saveLastTempo = { saved.append($0) }
        var cues: [UInt32] = []
        var cycleTimes: [(frame: UInt32, microseconds: Int64)] = []
        let behindFrom = noteOn + UInt32(0.9 * Double(rate))
        var fellBehind = false
        while loop.jackFrame < noteOn + UInt32(3.5 * Double(rate)) {
            if fallBehind > 0, !fellBehind, loop.jackFrame >= behindFrom {
                loop.reanchor(lateBy: fallBehind)
                fellBehind = true
            }
            let start = loop.jackFrame
            cycleTimes.append((start, loop.microseconds(atJackFrame: start)))
            loop.cycle()
            for i in 0..<loop.period where loop.feedback[i] != 0 && !loop.feedback[i].isNaN { cues.append(start + UInt32(i)) }
            // The control thread's round after the cycle, at the host time the next cycle starts.
            clock.time = ControlTime(microseconds: loop.microseconds(atJackFrame: loop.jackFrame))
            session.poll()
        }
        return Run(ticks: loop.ticks, cues: cues, saved: saved, cycleTimes: cycleTimes)
    }

    /// The whole-BPM tempo from each tick to the next (as the live take reads the clock).
    static func changes(_ ticks: [UInt32]) -> [(frame: UInt32, bpm: Int)] {
        var changes: [(frame: UInt32, bpm: Int)] = []
        for (a, b) in zip(ticks, ticks.dropFirst()) {
            let bpm = Int((60 * Double(rate) / (24 * Double(b - a))).rounded())
            if changes.last?.bpm != bpm { changes.append((a, bpm)) }
        }
        return changes
    }

    /// The first cycle whose start the control thread's round before it had
    /// reached `microseconds` by: the cycle that takes a command pushed then.
    static func cycleTaking(_ microseconds: Int64, _ r: Run) -> UInt32 {
        r.cycleTimes.first { $0.microseconds >= microseconds }!.frame
    }

    /// The cycle after the one that carried the message at `frame`: the round
    /// after that cycle read it.
    static func cycleAfter(_ frame: UInt32, _ r: Run) -> UInt32 {
        r.cycleTimes.first { $0.frame > frame }!.frame
    }

    /// The tick the engine changes the tempo at: its first tick in or after the
    /// cycle that took the `.setTempo` (the engine takes a tempo at a clock tick).
    static func firstTick(from frame: UInt32, _ r: Run) -> UInt32 {
        r.ticks.first { $0 >= frame }!
    }

    /// Tap 121 at the Note On, 122 and 123 (light) at 0.32 and 0.48 s, 133, 143
    /// and 153 (strong from 0.55 s) at 0.64, 0.80 and 0.96 s; released at 1.0 s:
    /// nothing after, and 153 is the tempo saved once it stood 2 s. Each change
    /// on the clock at the first tick of the cycle after the step's time; the
    /// feedback port's impact with the strong pressure's cycle, a selection
    /// with each strong step.
    @Test func clockFollowsTapLightStrongAndStaysAfterRelease() throws {
        let r = try Self.run()
        let changes = Self.changes(r.ticks)
        let on = r.cycleTimes.last { $0.frame <= Self.noteOn }!
        let onMicroseconds = on.microseconds + Int64(Self.noteOn - on.frame) * 1_000_000 / Int64(Self.rate)
        let step = { (seconds: Double) in Self.cycleTaking(onMicroseconds + Int64(seconds * 1_000_000), r) }
        let frame = { (seconds: Double) in Self.noteOn + UInt32(seconds * Double(Self.rate)) }
        let taken: [UInt32] = [Self.cycleAfter(Self.noteOn, r), step(0.32), step(0.48), step(0.64), step(0.80), step(0.96)]
        print("simulated pressure: tempo changes \(changes.map { "\($0.bpm)@\(Int64($0.frame) - Int64(Self.noteOn))" }) "
              + "(frames from the Note On); cues at \(r.cues.map { Int64($0) - Int64(Self.noteOn) }); saved \(r.saved)")
        #expect(changes.map(\.bpm) == [120, 121, 122, 123, 133, 143, 153])
        #expect(changes.dropFirst().map(\.frame) == taken.map { Self.firstTick(from: $0, r) })
        // Not a cycle late nor early: the tick before each change is before the cycle that took it.
        for (change, cycle) in zip(changes.dropFirst(), taken) {
            let before = r.ticks.last { $0 < change.frame }!
            #expect(before < cycle, "the tick before the change at \(change.frame) came after its cycle \(cycle)")
        }
        #expect(r.cues == [Self.cycleAfter(frame(0.55), r), step(0.64), step(0.80), step(0.96)])
        #expect(r.saved == [BPM(153)])
    }

    /// The server falls 130 ms behind the host's clock during the hold (a late
    /// wake-up of jack2's dummy driver, 0.9 s after the Note On): the sender's
    /// Note Off, 1.0 s after its Note On in the server's frames, reaches the
    /// `control` port 1.13 s after it in host time, where the controller's steps
    /// are timed (docs/DESIGN.md §5.4): the step at 1.12 s is taken, 163 is
    /// the tempo kept; the engine takes it 0.99 s of frames after the Note
    /// On, before the Note Off's frame. Why the live take's count of steps is
    /// exact only where its server kept to the host's clock.
    @Test func aServerThatFallsBehindDuringTheHoldLengthensItInHostTime() throws {
        let r = try Self.run(fallBehind: 130_000)
        let changes = Self.changes(r.ticks)
        let on = r.cycleTimes.last { $0.frame <= Self.noteOn }!
        let onMicroseconds = on.microseconds + Int64(Self.noteOn - on.frame) * 1_000_000 / Int64(Self.rate)
        let taking = Self.cycleTaking(onMicroseconds + 1_120_000, r)
        let last = Self.firstTick(from: taking, r)
        print("simulated pressure, 130 ms behind: tempo changes \(changes.map { "\($0.bpm)@\(Int64($0.frame) - Int64(Self.noteOn))" }); saved \(r.saved)")
        #expect(changes.map(\.bpm) == [120, 121, 122, 123, 133, 143, 153, 163])
        #expect(changes.last?.frame == last)
        #expect(taking < Self.noteOn + UInt32(Self.rate), "the 1.12 s step taken at \(taking), before the Note Off's frame")
        #expect(r.saved == [BPM(163)])
    }
}
