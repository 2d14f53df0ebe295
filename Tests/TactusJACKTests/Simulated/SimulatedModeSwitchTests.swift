import CJack
import Testing
import TactusCore
@testable import TactusJACK

/// A transport mode switched to while running (a preset's `"transport"`,
/// docs/DESIGN.md §13.5) starts from the transport as it is then, though
/// `off` does not read the transport at all: a roll already going is no
/// start of anyone's, and what the transport does from then on moves Tactus.
@Suite struct SimulatedModeSwitchTests {
    @Test func joinSwitchedToWhileTheTransportRollsWaitsForItsNextStart() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: BPM(120))
        options.startStopped = true
        let loop = try SimulatedProcessLoop(options: options, mode: .off)
        loop.run(cycles: 20)
        loop.transport.start()
        loop.run(cycles: 100)
        // In `off` a rolling transport is nobody's business.
        #expect(loop.transportMessages.isEmpty && loop.onsets.isEmpty)
        loop.transportLink.change(to: .join, client: nil, context: loop.context,
                                  status: loop.engineControl.pointee.status, shared: loop.shared)
        loop.run(cycles: 100)
        print("simulated off → join while rolling: \(loop.transportMessages.count) transport messages, \(loop.onsets.count) clicks")
        #expect(loop.transportMessages.isEmpty && loop.onsets.isEmpty, "\(loop.transportMessages.map(\.bytes))")
        // The next start is join's: Tactus starts on its first rolling cycle's first frame.
        loop.transport.stop()
        loop.run(cycles: 20)
        loop.transport.start()
        loop.run(cycles: 20)
        let firstRoll = loop.cycles.last { $0.state.rawValue != JackTransportRolling.rawValue }
            .flatMap { last in loop.cycles.first { $0.jackFrame == last.jackFrame &+ 256 } }
        print("simulated off → join, then a start: \(loop.transportMessages.map(\.bytes)) from \(loop.transportMessages.first?.jackFrame ?? 0), the roll from \(firstRoll?.jackFrame ?? 0)")
        #expect(loop.transportMessages.map(\.bytes) == [[0xFA]])
        #expect(firstRoll != nil && loop.transportMessages.first?.jackFrame == firstRoll?.jackFrame)
        #expect(loop.onsets.first?.jackFrame == firstRoll?.jackFrame)
    }
}
