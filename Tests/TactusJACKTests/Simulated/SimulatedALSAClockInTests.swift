import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--alsa-clock-from` through the real JACK cycle on a simulated process loop:
/// the incoming clock's messages reach the cycle as the ALSA input thread hands
/// them on (`JackShared.clockInArrivals`, each stamped with the CLOCK_MONOTONIC µs
/// it arrived at), and the cycle follows each at the frame of its time
/// (`ProcessCycle.followArrivals`, docs/DESIGN.md §9.1). Exact to the frame and
/// the same every run; the sequencer itself is the VM tier's (ALSAClockInTests).
@Suite struct SimulatedALSAClockInTests {
    static func options(alsa: Bool) -> JackRunOptions {
        var o = SimulatedClockInTests.options()
        o.clockInFromALSA = alsa
        return o
    }

    struct Run { var onsets: [UInt32]; var clockOut: [UInt32]; var ticks: [UInt32]; var lockedOn: Int?; var shownTempo: Int32 }

    /// The clock of `SimulatedClockInTests.script` (Start, 120 BPM, then 140),
    /// through JACK's `clock_in` port (`alsa` false) or through the ALSA ring
    /// (`alsa` true), each message stamped with the host time of its frame and
    /// pushed `lateCycles` cycles after the one holding it (0: before that cycle
    /// runs; 1: the input thread handed it on only after the cycle that covers
    /// its frame had run).
    static func run(alsa: Bool, lateCycles: Int = 0, beatsAt120: Int = 8, beatsAt140: Int = 8) throws -> Run {
        let loop = try SimulatedProcessLoop(options: options(alsa: alsa))
        loop.run(cycles: 20)
        let script = SimulatedClockInTests.script(first: loop.jackFrame + 1000, beatsAt120: beatsAt120, beatsAt140: beatsAt140)
        if alsa {
            var pending = script.input
            var lockedOn: Int?
            let last = script.ticks.last! + 256
            while Int32(bitPattern: last &- loop.jackFrame) > 0 {
                // What arrived before this cycle's end, `lateCycles` periods ago, is in the ring now.
                let due = loop.jackFrame &+ UInt32(loop.period) &- UInt32(lateCycles * loop.period)
                while let next = pending.first, Int32(bitPattern: due &- next.jackFrame) > 0 {
                    pending.removeFirst()
                    let event = try #require(ClockInputEvent(next.bytes))
                    loop.shared.pointee.clockInArrivals?.push(TimedClockInputEvent(event, microseconds: loop.microseconds(atJackFrame: next.jackFrame)))
                }
                loop.run(cycles: 1)
                if lockedOn == nil, loop.context.pointee.clockIn.follower.state == .locked {
                    lockedOn = script.ticks.lastIndex { Int32(bitPattern: loop.jackFrame &- $0) > 0 }
                }
            }
            #expect(pending.isEmpty && loop.shared.pointee.clockInArrivals?.peek() == nil)
            return Run(onsets: loop.onsets.map(\.jackFrame), clockOut: loop.midi.filter { $0.bytes == [0xF8] }.map(\.jackFrame), ticks: script.ticks,
                       lockedOn: lockedOn, shownTempo: loop.engineControl.pointee.status.tempoHundredths.load(ordering: .relaxed))
        }
        let jack = try SimulatedClockInTests.run(beatsAt120: beatsAt120, beatsAt140: beatsAt140)
        return Run(onsets: jack.onsets, clockOut: jack.clockOut, ticks: jack.ticks, lockedOn: jack.lockedOn, shownTempo: jack.shownTempo)
    }

    /// A clock whose messages are in the ring before the cycle that covers them:
    /// every click and every clock tick out on the frame the same clock gives
    /// through JACK's `clock_in` port (the follower sees the same frames), the
    /// 120 → 140 BPM step followed from the new tempo's first beat, locked on the
    /// Start's third tick. The ALSA path and the JACK path are one follower.
    @Test func theRingGivesTheClicksAndClockOfTheJACKPortFrameForFrame() throws {
        let alsa = try Self.run(alsa: true)
        let jack = try Self.run(alsa: false)
        let beats = stride(from: 24, to: alsa.ticks.count, by: 24).map { alsa.ticks[$0] }
        print("simulated ALSA clock in, 120 → 140 BPM: \(alsa.onsets.count) clicks for \(beats.count) beats, locked on tick \(alsa.lockedOn.map(String.init) ?? "none"), "
              + "\(alsa.clockOut.count) clock ticks out")
        #expect(alsa.lockedOn == 2, "locked on tick \(alsa.lockedOn.map(String.init) ?? "none")")
        #expect(alsa.onsets == beats, "clicks \(alsa.onsets), beats \(beats)")
        #expect(alsa.onsets == jack.onsets && alsa.clockOut == jack.clockOut)
        #expect(alsa.shownTempo == 14_000, "\(alsa.shownTempo)")
    }

    /// Each message handed on a whole period late (the input thread read it after
    /// the cycle that covers its frame had run): each is still followed at the
    /// frame it arrived at, before the reading cycle's first, so the grid is the
    /// same line and every click from the second beat on still falls on its
    /// beat's tick: the ALSA clock is timed by its arrival, not by the cycle
    /// that read it. Without the arrival frame (each taken at the reading
    /// cycle's start) the clicks move by up to a period.
    @Test func aMessageReadAPeriodLateIsStillFollowedAtTheFrameItArrivedAt() throws {
        let late = try Self.run(alsa: true, lateCycles: 1, beatsAt140: 0)
        let beats = stride(from: 24, to: late.ticks.count, by: 24).map { late.ticks[$0] }
        let errors = zip(late.onsets, beats).map { Int64($0) - Int64($1) }
        print("simulated ALSA clock in, handed on a period late: \(late.onsets.count) clicks for \(beats.count) beats, errors (frames) \(errors)")
        #expect(late.onsets == beats, "clicks \(late.onsets), beats \(beats)")
    }
}

extension ClockInputEvent {
    /// The clock message `bytes` hold (the test scripts' JACK MIDI events).
    init?(_ bytes: [UInt8]) {
        switch bytes.first {
        case 0xF8: self = .tick
        case 0xFA: self = .start
        case 0xFB: self = .continue
        case 0xFC: self = .stop
        case 0xF2 where bytes.count == 3: self = .songPosition(midiBeats: UInt16(bytes[1]) | UInt16(bytes[2]) << 7)
        default: return nil
        }
    }
}
