import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// `--transport join` through the real JACK cycle and the control thread's
/// real transport round (`JackTransportLink.handle`) on the simulated
/// process loop.
@Suite struct SimulatedJoinTests {
    /// The live test's run at 120 BPM, started stopped: the transport's
    /// start moves Tactus (Start on the first rolling cycle's first frame);
    /// its locate to bar 5 while rolling (384 000 frames) is Stop, Song
    /// Position 64 and Continue on the first frame of the cycle after jack2's
    /// held one; its stop is Stop and Song Position; then Tactus's own start
    /// (the command a MIDI Start on `control` becomes) locates the transport
    /// to frame 0 and starts it, and it rolls from frame 0, four cycles after
    /// Tactus's Start.
    @Test func joinStartsStopsAndLocatesBothWays() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120))
        options.startStopped = true
        let loop = try SimulatedProcessLoop(options: options, mode: .join)
        loop.run(cycles: 50)
        loop.transport.start()
        loop.run(cycles: 280)
        loop.transport.locate(384_000)
        loop.run(cycles: 280)
        loop.transport.stop()
        loop.run(cycles: 190)
        loop.push(.start)
        loop.run(cycles: 100)

        let words = loop.transportMessages.map(\.bytes)
        print("simulated join: \(words)")
        #expect(words.count == 7 && Array(words.prefix(5)) == [[0xFA], [0xFC], [0xF2, 64, 0], [0xFB], [0xFC]]
                && words[5].first == 0xF2 && words[6] == [0xFA], "\(words)")
        guard words.count == 7 else { return }
        let rolling = { (c: (jackFrame: UInt32, engineFrame: Int64, state: jack_transport_state_t, transportFrame: UInt32)) in
            c.state.rawValue == JackTransportRolling.rawValue
        }
        // The first Start: on the first rolling cycle's first frame, the transport at 0.
        let firstRoll = loop.cycles.first(where: rolling)
        #expect(firstRoll?.transportFrame == 0 && firstRoll?.jackFrame == loop.transportMessages.first?.jackFrame)
        // The Continue of the locate on the first frame of the cycle after the held one.
        let held = loop.cycles.first { $0.state.rawValue == JackTransportStarting.rawValue && $0.transportFrame == 384_000 }
        #expect(held.map { $0.jackFrame &+ 256 } == loop.transportMessages[3].jackFrame)
        // Tactus's own Start: the transport located to 0 and rolling from there.
        let start = loop.transportMessages[6]
        let roll = loop.cycles.lastIndex { !rolling($0) }.flatMap { $0 + 1 < loop.cycles.count ? loop.cycles[$0 + 1] : nil }
        print("simulated join: Tactus's Start at \(start.jackFrame), the transport rolling from \(roll.map { "\($0.transportFrame) at \($0.jackFrame)" } ?? "nowhere")")
        #expect(roll?.transportFrame == 0)
        // Four cycles: Tactus starts in one, the control round after it asks for
        // the locate and the start (taken at the end of the next), then one
        // `Starting` cycle at the old frame and one at frame 0 (the start taken
        // before the locate, §13.1). The live test allows 0.1 s.
        if let roll { #expect(roll.jackFrame &- start.jackFrame == 4 * 256) }
    }
}
