/// A fixed set of voices playing sounds from a `SoundSet`, mixed by adding.
///
/// Slots are taken round-robin by onset count, and every voice adds into the
/// output in slot order, so a sample's value does not depend on where the block
/// boundaries fall: rendering in 16- or 1024-frame blocks gives identical bits.
/// The sounding slots are also a bit mask, so the blocks between clicks (most
/// of them: a click lasts a few blocks, a beat at 120 BPM is 94 of 256 frames)
/// cost one comparison, not a look at every slot.
struct VoicePool: ~Copyable {
    struct Voice: BitwiseCopyable {
        var sound: ClickSound
        var position: Int
        var gain: Float
        var active: Bool
    }

    static let capacity = 16
    private let voices: UnsafeMutablePointer<Voice>
    private var nextSlot = 0
    /// Bit `slot` set while that slot's voice sounds.
    private var sounding: UInt32 = 0

    init() {
        voices = .allocate(capacity: VoicePool.capacity)
        voices.initialize(repeating: Voice(sound: .beat, position: 0, gain: 0, active: false), count: VoicePool.capacity)
    }

    deinit { voices.deallocate() }

    /// Starts `sound` at the next `mix` call's first frame; steals the oldest slot when all are busy.
    mutating func start(_ sound: ClickSound, gain: Float) {
        voices[nextSlot] = Voice(sound: sound, position: 0, gain: gain, active: true)
        sounding |= 1 << UInt32(nextSlot)
        nextSlot = (nextSlot + 1) % VoicePool.capacity
    }

    /// Adds every active voice into `out[from..<to]`.
    mutating func mix(into out: UnsafeMutablePointer<Float>, from: Int, to: Int, sounds: SoundSet) {
        guard to > from, sounding != 0 else { return }
        for slot in 0..<VoicePool.capacity where voices[slot].active {
            let samples = sounds.samples(voices[slot].sound)
            let gain = voices[slot].gain
            var position = voices[slot].position
            var i = from
            while i < to && position < samples.count {
                out[i] += samples[position] * gain
                i += 1
                position += 1
            }
            voices[slot].position = position
            if position >= samples.count { stop(slot) }
        }
    }

    /// Advances every voice by `frames` without output (no buffer to write to).
    mutating func skip(_ frames: Int, sounds: SoundSet) {
        guard sounding != 0 else { return }
        for slot in 0..<VoicePool.capacity where voices[slot].active {
            voices[slot].position += frames
            if voices[slot].position >= sounds.samples(voices[slot].sound).count { stop(slot) }
        }
    }

    private mutating func stop(_ slot: Int) {
        voices[slot].active = false
        sounding &= ~(1 << UInt32(slot))
    }

    /// Silences every voice (used when the sound set is replaced).
    mutating func stopAll() {
        for slot in 0..<VoicePool.capacity { voices[slot].active = false }
        sounding = 0
    }
}
