@testable import TactusCore

/// Drives `Engine.cycle` block by block as the JACK cycle and `tactus render`
/// do, with the sync lines given, and keeps every sample of the click and of
/// both sync lines, and every MIDI event with its frame.
final class SyncRecorder {
    let control: UnsafeMutablePointer<EngineControl>
    var engine: Engine
    private let sounds: SoundSet
    private var events = MIDIEventBuffer(capacity: 8192)
    private let buffers: UnsafeMutablePointer<Float>
    private let capacity = 8192
    private(set) var frame: Int64 = 0
    private(set) var click: [Float] = []
    private(set) var clock: [Float] = []
    private(set) var second: [Float] = []
    private(set) var midi: [TimedMIDIEvent] = []

    init(_ configuration: EngineConfiguration) {
        // One-sample impulses: a click onset is exactly one nonzero sample.
        sounds = SoundSet(sampleRate: configuration.sampleRate) { _ in [1] }
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        engine = Engine(configuration: configuration, sounds: sounds)
        buffers = .allocate(capacity: 3 * capacity)
    }

    deinit {
        control.deinitialize(count: 1)
        control.deallocate()
        buffers.deallocate()
        sounds.deallocate()
    }

    func send(_ command: EngineCommand) { control.pointee.commands.push(command) }

    /// Renders `frames` frames in blocks of the sizes given, in turn.
    func run(frames: Int64, blocks: [Int] = [256]) {
        var left = frames
        var i = 0
        while left > 0 {
            let n = Int(min(Int64(blocks[i % blocks.count]), left))
            renderBlock(n)
            left -= Int64(n)
            i += 1
        }
    }

    func renderBlock(_ n: Int) {
        precondition(n <= capacity)
        var own = GivenPosition()
        let (c, s1, s2) = (buffers, buffers + capacity, buffers + 2 * capacity)
        engine.cycle(CycleInput(start: frame, frames: n), source: &own, control: control.pointee, click: c, feedback: nil,
                     events: &events, sync: SyncBuffers(clock: s1, second: s2))
        click.append(contentsOf: UnsafeBufferPointer(start: c, count: n))
        clock.append(contentsOf: UnsafeBufferPointer(start: s1, count: n))
        second.append(contentsOf: UnsafeBufferPointer(start: s2, count: n))
        for i in 0..<events.count { midi.append(events[i]) }
        frame += Int64(n)
    }

    var clickOnsets: [Int64] { click.indices.filter { click[$0] != 0 }.map(Int64.init) }
    var clockEdges: [Int64] { Self.risingEdges(clock) }
    var secondEdges: [Int64] { Self.risingEdges(second) }
    func frames(ofStatus status: UInt8) -> [Int64] { midi.filter { $0.bytes.status == status }.map(\.frame) }

    /// Frames where a line goes from 0 to high (a line high at frame 0 rises there).
    static func risingEdges(_ line: [Float]) -> [Int64] {
        line.indices.filter { line[$0] != 0 && ($0 == 0 || line[$0 - 1] == 0) }.map(Int64.init)
    }

    /// How long the line stays high from each rising edge.
    static func widths(_ line: [Float]) -> [Int64] {
        risingEdges(line).map { start in
            var end = Int(start)
            while end < line.count && line[end] != 0 { end += 1 }
            return Int64(end) - start
        }
    }
}

/// The frame of grid pulse `p` (96 a quarter note) from an anchor at frame 0 at
/// `bpm` quarter notes a minute: p × framesPerPulse rounded half up, in exact
/// integers (docs/DESIGN.md §3.3).
func gridFrame(_ p: Int64, sampleRate: Int64 = 48_000, bpm: BPM) -> Int64 {
    let numerator = p * sampleRate * 6000
    let denominator = Int64(bpm.hundredths) * 96
    return (2 * numerator + denominator) / (2 * denominator)
}
