import CJack
import TactusCore

/// Before the first activation, the whole process function runs on a throwaway
/// context (its own engine, rings and status, the real client's ports, whose
/// buffers nobody reads while the client is inactive), driven through every
/// path a real cycle can take: the sounding gate, start, clicks with subdivisions, tempo and bar
/// changes (with a preset's sounds), clock offsets, cues, stop, locate, continue, sound replacement,
/// clock events written out, and channel messages read back in through the
/// `control` code (from the `clock` buffer it just wrote).
///
/// Why: the Swift runtime sets up a generic type's metadata the first time it is
/// used, and that locks and allocates. The LD_PRELOAD test caught exactly that
/// (`EventQueue<TimedClick>` in the first clicking cycle) when only the dry
/// cycle of a stopped engine had run. Here every first time happens on the
/// control thread.
enum Rehearsal {
    static func run(client: OpaquePointer, ports: JackPorts, sampleRate: Int, frames: Int) {
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        let shared = UnsafeMutablePointer<JackShared>.allocate(capacity: 1)
        shared.initialize(to: JackShared(controlInputCapacity: 64, clockStreamCapacity: 4096))
        let replacement = SoundSet.synthesized(sampleRate: sampleRate)
        // A preset's sounds riding on a bar change, and a second switch overtaking it
        // before its beat (the unused set given back), then swapped in mid-block.
        let presetSounds = SoundSet.synthesized(sampleRate: sampleRate), overtaking = SoundSet.synthesized(sampleRate: sampleRate)
        let bar = BarSettings(meter: .fourFour, subdivision: .sixteenths)
        let engine = Engine(configuration: EngineConfiguration(sampleRate: sampleRate, tempo: BPM(240), bar: bar),
                            sounds: .synthesized(sampleRate: sampleRate))
        let context = UnsafeMutablePointer<ProcessContext>.allocate(capacity: 1)
        context.initialize(to: ProcessContext(engine: engine, control: control, shared: shared))
        context.pointee.client = client
        context.pointee.ports = ports

        // (block, command, tempo) at 4096-frame steps, whatever the period.
        let script: [(Int, EngineCommand?, BPM?)] = [
            (1, .start, nil), (2, .cue(.impact), nil), (10, nil, BPM(999)), (20, nil, BPM(97.3)),
            (30, .changeBar(BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, subdivision: .triplets), tempo: BPM(133), at: .nextBeat,
                            sounds: presetSounds), nil),
            (31, .changeBar(BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, subdivision: .triplets), tempo: BPM(133), at: .nextBeat,
                            sounds: overtaking), nil),
            (40, .setClockOffset(frames: 480), nil), (50, .setClockOffset(frames: -360), nil), (60, .setMuted(true), nil),
            (61, .setMuted(false), nil), (62, .setGains(SoundGains()), nil), (70, .stop, nil), (75, .locate(bar: 3), nil),
            (80, .continue, nil), (90, .setClockWhileStopped(true), nil), (91, .setSongPositionEnabled(false), nil),
            (95, .replaceSounds(replacement), nil), (100, .locate(bar: 2), nil), (110, .stop, nil), (115, .setClockOffset(frames: 0), nil),
        ]
        // The sounding gate's every path (closed, waiting for its frame, opening),
        // as the first cycles of an activated client take them.
        let gate = SoundingGate()
        gate.close()
        _ = gate.holds(cycleFrame: 0)
        gate.open(now: 0, sampleRate: sampleRate, period: frames)
        _ = gate.holds(cycleFrame: 0)
        _ = gate.holds(cycleFrame: jack_nframes_t(sampleRate))

        let blocksPerStep = max(1, 4096 / frames)
        var step = 0
        var frame: Int64 = 0
        for block in 0..<(120 * blocksPerStep) {
            while step < script.count && script[step].0 * blocksPerStep == block {
                if let command = script[step].1 { control.pointee.commands.push(command) }
                if let tempo = script[step].2 { control.pointee.commands.push(.setTempo(tempo)) }
                step += 1
            }
            context.pointee.timeline.resume(at: frame)
            ProcessCycle.run(context, frames: jack_nframes_t(frames))
            while shared.pointee.clockStream?.pop() != nil {}
            if let buffer = RealtimeJack.buffer(ports.clock, jack_nframes_t(frames)) {
                writeChannelMessages(into: buffer)
                ProcessCycle.receiveControlInput(context, buffer: buffer, cycleMicroseconds: 0, microsecondsPerFrame: 20.8)
            }
            while shared.pointee.controlInput.pop() != nil {}
            frame += Int64(frames)
            // Skipped cycles too: a short gap (late events at a block's start) and a
            // long one (the engine skips ahead), as after xruns or a stalled server.
            if block == 12 * blocksPerStep { frame += Int64(frames) * 2 }
            if block == 14 * blocksPerStep { frame += Int64(sampleRate) }
        }
        while let retired = control.pointee.retiredSounds.pop() { retired.deallocate() }
        let last = context.pointee.engine.soundSet
        context.deinitialize(count: 1)
        context.deallocate()
        last.deallocate()
        shared.deinitialize(count: 1)
        shared.deallocate()
        control.deinitialize(count: 1)
        control.deallocate()
    }

    /// One message of every kind the `control` port parses.
    private static func writeChannelMessages(into buffer: UnsafeMutableRawPointer) {
        RealtimeJack.clear(buffer)
        let messages: [[UInt8]] = [[0x90, 60, 100], [0xD0, 64], [0xA0, 60, 9], [0xC0, 1], [0xB0, 1, 2], [0xE0, 0, 64], [0x80, 60, 0], [0xF8], [0xF0, 1, 0xF7], [0xF2, 1, 0]]
        for (offset, bytes) in messages.enumerated() {
            guard let data = jack_midi_event_reserve(buffer, jack_nframes_t(offset), bytes.count) else { continue }
            for (i, b) in bytes.enumerated() { data[i] = b }
        }
    }
}
