import Testing
import TactusCore
@testable import TactusCLI
@testable import TactusJACK

/// A footswitch bound to tap tempo, end to end without a server: its presses
/// on the `control` port at exact frames, through the real JACK cycle (each
/// message stamped with the host time of its frame), the control session
/// (`ControlSession`, controller.json's actions bound as `tactus run` binds
/// them) reading that ring on a thread that wakes late, and the tempo back
/// into the cycle as a command. The taps are timed by their frames, not by
/// when the control thread woke (docs/DESIGN.md §5.4).
@Suite struct SimulatedPedalTapTests {
    /// CC 64 pressed every half second (24 000 frames at 48 kHz) and released
    /// 0.1 s after each, the control thread polling 2 to 87 ms late: 120 BPM
    /// from 4 taps (120 already from the second), and the clock goes from
    /// 1 200 frames a tick (100 BPM) to 1 000 (120 BPM) with no tempo between.
    @Test func fourPedalPressesHalfASecondApartAre120BPMOnTheClock() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(100))
        let loop = try SimulatedProcessLoop(options: options)
        let first: UInt32 = 1_000_000 + 24_000
        let presses = (0..<4).map { first + UInt32($0) * 24_000 }
        for press in presses {
            loop.controlInput.append((press, [0xB0, 0x40, 0x7F]))
            loop.controlInput.append((press + 4_800, [0xB0, 0x40, 0x00]))
        }
        let clock = VirtualClock()
        let session = ControlSession(configuration: PressureConfiguration(), tempo: BPM(100), engine: loop.engineControl,
                                     inputs: [{ loop.shared.pointee.controlInput.pop() }], clock: clock, bar: BarSettings())
        session.controllerActions = [ActionBinding(.controlChange(UInt7(64)!), .tap)]
        session.bindActions(of: nil)
        // The control thread wakes a different time late after each press.
        let lateness: [Int64] = [13_000, 87_000, 2_000, 49_000]
        var polls = presses.enumerated().map { (i, press) in loop.microseconds(atJackFrame: press) + lateness[i] }
        polls.append(loop.microseconds(atJackFrame: presses[3] + 24_000))
        var tapTempo: String?
        while loop.jackFrame < presses[3] + 48_000 {
            loop.cycle()
            let now = loop.microseconds(atJackFrame: loop.jackFrame)
            if let due = polls.first, due <= now {
                polls.removeFirst()
                clock.time = ControlTime(microseconds: due)
                session.poll()
                if let said = session.message, said.hasPrefix("tap tempo") { tapTempo = said }
            }
        }
        let ticks = loop.ticks
        let intervals = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        print("simulated pedal taps: \"\(tapTempo ?? "none")\"; tick intervals \(Set(intervals).sorted()) frames, "
              + "the first of 1 000 after frame \(zip(ticks, intervals).first { $1 == 1_000 }?.0 ?? 0)")
        #expect(tapTempo == "tap tempo: 120 BPM from 4 taps (pedal)")
        #expect(intervals.first == 1_200 && intervals.last == 1_000)
        #expect(Set(intervals) == [1_200, 1_000], "no tempo between: the taps are timed by their frames")
        // Two taps make a tempo: the block after the poll that took the second
        // (87 ms late) takes it, and the next tick (still on the old grid, the
        // tempo changes at a pulse) is the first 1 000 frames from the one after.
        let poll = presses[1] + 87 * 48
        let taken = 1_000_000 + (poll - 1_000_000 + 255) / 256 * 256
        let change = zip(ticks, intervals).first { $1 == 1_000 }?.0 ?? 0
        #expect(change >= taken && change < taken + 1_200, "first tick 1 000 frames from the next at \(change), the tempo taken at \(taken)")
    }
}
