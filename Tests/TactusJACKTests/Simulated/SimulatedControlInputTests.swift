import Testing
import TactusCore
@testable import TactusJACK

/// The `control` MIDI input through the real JACK cycle on the simulated
/// process loop: each message a controller sent reaches the control thread's
/// ring stamped with the host time of its own frame (the cycle's time plus
/// its offset at JACK's filtered period, `jack_frames_to_time` arithmetic);
/// clock ticks are not control input; a message split across two events (running
/// status carried by the parser) is one message.
@Suite struct SimulatedControlInputTests {
    @Test func controlInputIsStampedWithTheTimeOfItsFrame() throws {
        var options = JackRunOptions()
        options.startStopped = true
        let loop = try SimulatedProcessLoop(options: options, startFrame: 10_000)
        loop.controlInput = [(10_256 + 10, [0x90, 0x40, 0x7F]), (10_256 + 20, [0xF8]), (10_256 + 200, [0xFA]),
                             (10_512 + 3, [0x41, 0x00]), (10_512 + 255, [0xB0, 0x40]), (10_768, [0x7F])]
        loop.run(cycles: 4)
        var got: [(message: MIDIMessage, microseconds: Int64)] = []
        while let e = loop.shared.pointee.controlInput.pop() { got.append((e.message, e.microseconds)) }
        func at(_ frame: UInt32) -> Int64 {
            let cycle = 10_000 + (frame - 10_000) / 256 * 256, t0 = loop.microseconds(atJackFrame: cycle), t1 = loop.microseconds(atJackFrame: cycle + 256)
            return t0 + Int64(Double(frame - cycle) * Double(t1 - t0) / 256)
        }
        let expected: [(String, Int64)] = [("noteOn", at(10_266)), ("start", at(10_456)), ("noteOn", at(10_515)), ("controlChange", at(10_768))]
        let names = got.map { (String(describing: $0.message).prefix { $0 != "(" }, $0.microseconds) }
        print("simulated control input: \(got.map { "\($0.message) at \($0.microseconds) µs" })")
        #expect(names.map { String($0.0) } == expected.map(\.0), "\(got)")
        #expect(names.map(\.1) == expected.map(\.1), "\(names.map(\.1)) against \(expected.map(\.1))")
        #expect(loop.shared.pointee.controlInputReceived.load(ordering: .relaxed) == 4)
    }
}
