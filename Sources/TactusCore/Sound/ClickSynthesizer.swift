#if canImport(Glibc)
import Glibc
#endif

/// Synthesises the default sounds once, before the real-time thread starts.
///
/// A click is a decaying cosine burst: its first sample is its peak, so the onset
/// is exactly the frame the grid asked for (a sine would start at zero and read as
/// one frame late), and it ends with a short fade to exact zero so consecutive
/// clicks never leave a DC tail.
public enum ClickSynthesizer {
    public struct Voice: Sendable {
        public var frequencies: [Double]
        public var seconds: Double
        public var decaySeconds: Double
        public var level: Double
    }

    public static func voice(for sound: ClickSound) -> Voice {
        switch sound {
        case .accent: Voice(frequencies: [1760], seconds: 0.035, decaySeconds: 0.008, level: 0.9)
        case .beat: Voice(frequencies: [1320], seconds: 0.030, decaySeconds: 0.007, level: 0.7)
        case .subdivision: Voice(frequencies: [990], seconds: 0.020, decaySeconds: 0.004, level: 0.4)
        case .impact: Voice(frequencies: [140, 210], seconds: 0.060, decaySeconds: 0.015, level: 0.8)
        case .selection: Voice(frequencies: [3520], seconds: 0.008, decaySeconds: 0.002, level: 0.5)
        case .maximum: Voice(frequencies: [880, 1320], seconds: 0.080, decaySeconds: 0.030, level: 0.6)
        case .commit: Voice(frequencies: [660, 990, 1320], seconds: 0.120, decaySeconds: 0.040, level: 0.6)
        }
    }

    /// The samples of `sound` at `sampleRate`, peak at index 0, last sample 0.
    public static func samples(for sound: ClickSound, sampleRate: Int) -> [Float] {
        let v = voice(for: sound)
        let count = max(8, Int((v.seconds * Double(sampleRate)).rounded()))
        let fade = max(4, count / 8)
        var out = [Float](repeating: 0, count: count)
        let twoPi = 2 * Double.pi
        for i in 0..<count {
            let t = Double(i) / Double(sampleRate)
            var s = 0.0
            for f in v.frequencies { s += cos(twoPi * f * t) }
            s /= Double(v.frequencies.count)
            var env = exp(-t / v.decaySeconds)
            if i >= count - fade { env *= Double(count - 1 - i) / Double(fade) }
            out[i] = Float(v.level * env * s)
        }
        return out
    }
}
