/// A fixed set of voices playing sounds from a `SoundSet`, mixed by adding.
///
/// Slots are taken round-robin by onset count, and every voice adds into the
/// output in slot order, so a sample's value does not depend on where the block
/// boundaries fall: rendering in 16- or 1024-frame blocks gives identical bits.
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

    init() {
        voices = .allocate(capacity: VoicePool.capacity)
        voices.initialize(repeating: Voice(sound: .beat, position: 0, gain: 0, active: false), count: VoicePool.capacity)
    }

    deinit { voices.deallocate() }

    /// Starts `sound` at the next `mix` call's first frame; steals the oldest slot when all are busy.
    mutating func start(_ sound: ClickSound, gain: Float) {
        voices[nextSlot] = Voice(sound: sound, position: 0, gain: gain, active: true)
        nextSlot = (nextSlot + 1) % VoicePool.capacity
    }

    /// Adds every active voice into `out[from..<to]`.
    func mix(into out: UnsafeMutablePointer<Float>, from: Int, to: Int, sounds: SoundSet) {
        guard to > from else { return }
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
            if position >= samples.count { voices[slot].active = false }
        }
    }

    /// Advances every voice by `frames` without output (no buffer to write to).
    func skip(_ frames: Int, sounds: SoundSet) {
        for slot in 0..<VoicePool.capacity where voices[slot].active {
            voices[slot].position += frames
            if voices[slot].position >= sounds.samples(voices[slot].sound).count { voices[slot].active = false }
        }
    }

    /// Silences every voice (used when the sound set is replaced).
    func stopAll() {
        for slot in 0..<VoicePool.capacity { voices[slot].active = false }
    }
}
