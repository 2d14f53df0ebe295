/// The samples of every `ClickSound` at one sample rate, in memory allocated
/// before the real-time thread starts.
///
/// Plain pointers, so a whole set can travel through an `SPSCRing` to the render
/// thread and back (to be freed off the real-time thread) when the sample rate
/// changes or the user loads their own samples. Ownership is explicit: whoever
/// made a set calls `deallocate()` once nothing renders from it.
public struct SoundSet: @unchecked Sendable, BitwiseCopyable {
    @usableFromInline var starts: (UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                                   UnsafeMutablePointer<Float>?)
    @usableFromInline var counts: (Int, Int, Int, Int, Int, Int, Int)
    public let sampleRate: Int

    /// Copies `samples(sound)` for every sound.
    public init(sampleRate: Int, samples: (ClickSound) -> [Float]) {
        self.sampleRate = sampleRate
        starts = (nil, nil, nil, nil, nil, nil, nil)
        counts = (0, 0, 0, 0, 0, 0, 0)
        for sound in ClickSound.allCases {
            let data = samples(sound)
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(1, data.count))
            p.initialize(repeating: 0, count: max(1, data.count))
            data.withUnsafeBufferPointer { if let b = $0.baseAddress { p.update(from: b, count: data.count) } }
            set(sound, p, data.count)
        }
    }

    /// The built-in synthesised sounds.
    public static func synthesized(sampleRate: Int) -> SoundSet {
        SoundSet(sampleRate: sampleRate) { ClickSynthesizer.samples(for: $0, sampleRate: sampleRate) }
    }

    private mutating func set(_ sound: ClickSound, _ p: UnsafeMutablePointer<Float>, _ n: Int) {
        switch sound {
        case .accent: starts.0 = p; counts.0 = n
        case .beat: starts.1 = p; counts.1 = n
        case .subdivision: starts.2 = p; counts.2 = n
        case .impact: starts.3 = p; counts.3 = n
        case .selection: starts.4 = p; counts.4 = n
        case .maximum: starts.5 = p; counts.5 = n
        case .commit: starts.6 = p; counts.6 = n
        }
    }

    /// The samples of `sound`; real-time safe.
    @inlinable public func samples(_ sound: ClickSound) -> UnsafeBufferPointer<Float> {
        let (p, n): (UnsafeMutablePointer<Float>?, Int)
        switch sound {
        case .accent: (p, n) = (starts.0, counts.0)
        case .beat: (p, n) = (starts.1, counts.1)
        case .subdivision: (p, n) = (starts.2, counts.2)
        case .impact: (p, n) = (starts.3, counts.3)
        case .selection: (p, n) = (starts.4, counts.4)
        case .maximum: (p, n) = (starts.5, counts.5)
        case .commit: (p, n) = (starts.6, counts.6)
        }
        return UnsafeBufferPointer(start: UnsafePointer(p), count: n)
    }

    /// Frees every buffer. Call once, off the real-time thread, when no engine uses the set.
    public func deallocate() {
        for sound in ClickSound.allCases { UnsafeMutablePointer(mutating: samples(sound).baseAddress)?.deallocate() }
    }
}
