import Testing
@testable import TactusCore

@Test func smoke() {
    let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
    control.initialize(to: EngineControl(tempo: BPM(133)))
    var engine = Engine(configuration: EngineConfiguration(sampleRate: 48000, tempo: BPM(133)), sounds: .synthesized(sampleRate: 48000))
    var events = MIDIEventBuffer()
    let click = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    control.pointee.commands.push(.start)
    var clocks: [Int64] = []
    var others: [(Int64, UInt8)] = []
    var onsets: [Int64] = []
    var prev: Float = 0
    var zeros = 1000
    for block in 0..<(48000*60/256) {
        let start = Int64(block * 256)
        engine.render(frames: 256, at: start, control: control.pointee, click: click, feedback: nil, events: &events)
        for i in 0..<events.count { let e = events[i]; if e.bytes.byte0 == 0xF8 { clocks.append(e.frame) } else { others.append((e.frame, e.bytes.byte0)) } }
        for i in 0..<256 { if click[i] != 0 && zeros >= 64 { onsets.append(start + Int64(i)) }; zeros = click[i] == 0 ? zeros + 1 : 0; prev = click[i] }
    }
    _ = prev
    print(clocks.prefix(5), others, onsets.prefix(5), clocks.count, onsets.count)
    let fpt = 48000.0 * 60 / 133 / 24
    var maxErr = 0.0
    for (n, f) in clocks.enumerated() { maxErr = max(maxErr, abs(Double(f) - Double(n) * fpt)) }
    print("maxErr", maxErr)
    #expect(maxErr <= 0.5)
}
