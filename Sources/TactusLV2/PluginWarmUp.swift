import CLV2
import TactusCore

/// Before the first real run(): every path of the cycle once, on a scratch
/// instance, so that what the Swift runtime does only the first time (a lazy
/// global such as `Meter.allowedUnits`, a generic type's metadata) happens in
/// instantiate, off the audio thread. The JACK client's dry cycle does the same
/// for its process callback.
enum PluginWarmUp {
    static func run(sampleRate: Double, urids: TactusURIDs, presets: PluginPresets) {
        let frames = 256
        let capacity = 8192
        let context = UnsafeMutablePointer<PluginContext>.allocate(capacity: 1)
        context.initialize(to: PluginContext(sampleRate: sampleRate, urids: urids, presets: presets, presetNames: []))
        let audio = UnsafeMutablePointer<Float>.allocate(capacity: 2 * frames)
        let input = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        let output = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        // The control ports from `sync` on: free mode, 120 BPM, 4/4, sixteenths, accent, 0 dB, levels, the keys.
        var controls = (Float(0), Float(120), Float(4), Float(4), Float(3), Float(1), Float(0), Float(0),
                        Float(72), Float(71), Float(70), Float(0), Float(0), Float(0), Float(0), Float(0))
        withUnsafeMutableBytes(of: &controls) { raw in
            let values = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            context.pointee.ports.connect(.click, to: audio)
            context.pointee.ports.connect(.feedback, to: audio + frames)
            context.pointee.ports.connect(.control, to: input)
            context.pointee.ports.connect(.midiOut, to: output)
            for (i, port) in PluginPort.allCases.dropFirst(4).enumerated() { context.pointee.ports.connect(port, to: values + i) }

            let sequence = input.assumingMemoryBound(to: LV2_Atom_Sequence.self)
            let out = output.assumingMemoryBound(to: LV2_Atom_Sequence.self)
            var urids = urids
            // Phases of `phase` cycles each (0.75 s, whatever the rate): force steps,
            // long-press steps, continuous glide, a deep press (the next preset) and a
            // Program Change, then host sync.
            let phase = Int(0.75 * sampleRate) / frames + 1
            for cycle in 0..<(6 * phase) {
                tactus_lv2_sequence_clear(sequence, UInt32(capacity), urids.atom_Sequence)
                let (stage, at) = cycle.quotientAndRemainder(dividingBy: phase)
                var messages: [[UInt8]] = []
                switch (stage, at) {
                case (0, 0): messages = [[0x90, 72, 100], [0xD0, 127]]
                case (1, 0): messages = [[0x80, 72, 0], [0x90, 71, 100]]
                case (2, 0): values[7] = 1; messages = [[0x80, 71, 0], [0x90, 72, 100], [0xD0, 60]]
                case (3, 0): values[7] = 0; messages = [[0x80, 72, 0], [0x90, 70, 100]]
                case (3, 2): messages = [[0xA0, 70, 127], [0xC0, 1], [0xF8]]
                case (4, 0): values[0] = 1; values[2] = 3; values[6] = -6; messages = [[0x80, 70, 0]]
                case (5, 0): values[0] = 0; values[1] = 121; values[3] = 8
                default: break
                }
                for var m in messages {
                    _ = tactus_lv2_sequence_append(sequence, UInt32(capacity), 10, urids.midi_MidiEvent, &m, UInt32(m.count))
                }
                if stage == 4 {
                    var time = TactusHostTime()
                    time.has_bar = true; time.bar = Int64(at / 8)
                    time.has_bar_beat = true; time.bar_beat = 0.5
                    time.has_beats_per_bar = true; time.beats_per_bar = at < phase / 2 ? 4 : 3
                    time.has_beat_unit = true; time.beat_unit = 4
                    time.has_bpm = true; time.bpm = at < phase / 2 ? 120 : 150
                    time.has_speed = true; time.speed = at == 5 ? 0 : 1
                    _ = tactus_lv2_sequence_append_position(sequence, UInt32(capacity), 100, &urids, &time)
                }
                out.pointee.atom.size = UInt32(capacity - MemoryLayout<LV2_Atom>.size)
                PluginCycle.run(context, frames: frames)
            }
        }
        context.move().free(presets: false)
        context.deallocate()
        audio.deallocate()
        input.deallocate()
        output.deallocate()
    }
}
