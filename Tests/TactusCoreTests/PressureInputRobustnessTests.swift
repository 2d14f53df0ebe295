import Testing
@testable import TactusCore

/// Bytes from the wire through the streaming parser into the pressure controller.
struct WireHarness {
    var parser = MIDIParser()
    var controller = PressureController(tempo: BPM(120))
    var effects: [TimedPressureEffect] = []

    mutating func feed(_ bytes: [UInt8], at seconds: Double) {
        feed(bytes, at: .seconds(seconds))
    }

    mutating func feed(_ bytes: [UInt8], at time: ControlTime) {
        for byte in bytes {
            if let message = parser.parse(byte) {
                effects += controller.handle(message, at: time)
            }
        }
    }

    mutating func advance(to seconds: Double) {
        effects += controller.advance(to: .seconds(seconds))
    }

    var tempo: Double { controller.tempo.value }
}

/// SplitMix64: a fixed, portable sequence, so a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Pressure control fed from raw MIDI bytes: malformed input, no stuck key")
struct PressureInputRobustnessTests {
    @Test func truncatedNoteOnIsDroppedAndHoldsNoKey() {
        var h = WireHarness()
        h.feed([0x90, 72], at: 0)          // Note On missing its velocity…
        h.feed([0xD0, 127], at: 0.01)      // …abandoned by the next status byte
        h.advance(to: 2)
        #expect(h.tempo == 120)
        #expect(h.controller.status.key == nil)
    }

    @Test func runningStatusNoteOnThenVelocity0PressesAndReleases() {
        var h = WireHarness()
        h.feed([0x90, 72, 100], at: 0)
        h.feed([0xD0, 60], at: 0.01)
        h.feed([0x90, 72, 0], at: 0.40)    // no running status across the 0xD0: explicit
        h.advance(to: 1)
        #expect(h.tempo == 122)            // tap + the 0.32 light step
        var r = WireHarness()
        r.feed([0x90, 72, 100, 72, 0], at: 0)   // running status: second Note On has velocity 0
        r.advance(to: 1)
        #expect(r.tempo == 121)
        #expect(r.controller.status.key == nil)
        #expect(r.effects.map(\.effect) == [.tempo(BPM(121)), .holdEnded(lastTempo: BPM(121))])
    }

    @Test func runningStatusChannelPressureStreamDrivesTheLevels() {
        var h = WireHarness()
        h.feed([0x90, 72, 100], at: 0)
        h.feed([0xD0, 60, 90, 95], at: 0.1)   // one status byte, three pressure values: strong
        #expect(h.controller.status.level == .strong)
        h.advance(to: 0.32)
        #expect(h.tempo == 131)
    }

    @Test func realTimeBytesInterleavedInsideMessagesDoNotBreakThem() {
        var h = WireHarness()
        h.feed([0x90, 0xF8, 72, 0xFE, 100, 0xF8], at: 0)
        #expect(h.tempo == 121)
        h.feed([0xD0, 0xF8, 120], at: 0.1)
        h.feed([0x80, 72, 0xFA, 0xFC, 0], at: 0.50)
        h.advance(to: 2)
        #expect(h.tempo == 141)            // 0.32 and 0.48 strong steps, then released
        #expect(h.controller.status.key == nil)
    }

    @Test func controlNotesInsideSysExAreSkipped() {
        var h = WireHarness()
        h.feed([0xF0, 0x7E, 72, 100, 0x09, 0xF7], at: 0)
        h.feed([72, 100], at: 0.1)          // stray data after SysEx: no running status
        h.advance(to: 2)
        #expect(h.tempo == 120)
        #expect(h.effects.isEmpty)
    }

    @Test func lostNoteOffIsReleasedAfter10sWithAMessage() {
        var h = WireHarness()
        h.feed([0x90, 72, 100], at: 0)
        h.feed([0xD0, 60], at: 0.2)
        h.feed([0x80, 72], at: 1.0)         // truncated Note Off: the key stays down
        h.feed([0xB0, 7, 100], at: 1.1)
        h.advance(to: 10.19)
        #expect(h.controller.status.key == .up)
        h.advance(to: 10.2)
        #expect(h.controller.status.key == nil)
        #expect(h.effects.contains { $0.effect.message != nil && $0.time == .seconds(10.2) })
    }

    /// 10⁶ random byte sequences (1–8 bytes each, half of the bytes drawn from
    /// the ones that matter here: control notes, Note On/Off, pressure statuses,
    /// real-time and SysEx bytes), 0–20 ms apart, through one parser and one
    /// controller. Nothing may crash, and every hold must end: by its Note Off,
    /// or by the stuck-key timeout at most 10 s after its last message.
    @Test func millionRandomByteSequencesLeaveNoStuckKey() {
        var random = SplitMix64(state: 0x7AC7_05)
        let interesting: [UInt8] = [0x90, 0x91, 0x80, 0x81, 0xD0, 0xD1, 0xA0, 0xC0, 0xB0, 0xF0, 0xF7, 0xF8, 0xFA, 0xFC, 0xFE, 0xFF,
                                    72, 71, 70, 0, 1, 3, 4, 60, 84, 85, 88, 89, 100, 126, 127]
        var h = WireHarness()
        var time: Int64 = 0
        var sequence: [UInt8] = []
        var presses = 0, releases = 0, stuck = 0, nextPresets = 0
        var silences = 0, heldAfterSilence = 0
        var holdStartedAt: Int64?
        for _ in 0..<1_000_000 {
            sequence.removeAll(keepingCapacity: true)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                sequence.append(Bool.random(using: &random)
                    ? interesting[Int.random(in: 0..<interesting.count, using: &random)]
                    : UInt8.random(in: 0...255, using: &random))
            }
            let before = h.effects.count
            if Int.random(in: 0..<2_000, using: &random) == 0 {
                // Now and then the wire goes quiet for 10.5 s: whatever was held must be let go.
                time += 10_500_000
                h.effects += h.controller.advance(to: ControlTime(microseconds: time))
                if h.controller.status.key != nil { heldAfterSilence += 1 }
                silences += 1
            } else {
                time += Int64.random(in: 0...20_000, using: &random)
            }
            h.feed(sequence, at: ControlTime(microseconds: time))
            for timed in h.effects[before...] {
                switch timed.effect {
                case .holdEnded: releases += 1
                case .stuckKeyReleased: stuck += 1
                case .nextPreset: nextPresets += 1
                default: break
                }
            }
            if h.effects.count > 10_000 { h.effects.removeAll(keepingCapacity: true) }
            let held = h.controller.status.key != nil
            if held, holdStartedAt == nil { holdStartedAt = time; presses += 1 }
            if !held { holdStartedAt = nil }
        }
        // Ten seconds and a bit after the last byte, nothing is held.
        h.effects.removeAll()
        h.effects += h.controller.advance(to: ControlTime(microseconds: time + 10_000_001))
        #expect(h.controller.status.key == nil)
        #expect(h.controller.nextDeadline == nil)
        #expect(heldAfterSilence == 0)
        #expect(silences > 100)
        #expect(stuck > 10)
        #expect(presses > 500)
        #expect(releases > 5_000)
        print("random MIDI: 10^6 sequences, \(time / 1_000_000) s of virtual time, quiet gaps \(silences), spans with a key held \(presses), tempo holds ended \(releases), stuck keys released \(stuck), deep presses committed \(nextPresets), parser ignored \(h.parser.ignoredBytes) bytes, final tempo \(h.controller.tempo)")
    }
}
