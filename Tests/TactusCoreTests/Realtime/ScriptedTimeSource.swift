@testable import TactusCore

/// A time source for tests: it places the song's pulses at frames the test
/// chooses, as a JACK timebase master, Link or an LV2 host would, one stretch
/// at a time. Each stretch starts at a frame with a song position (in pulses)
/// and a length of a pulse in frames; between stretch starts the position
/// advances linearly. A stretch may stand still (`rolling: false`).
struct ScriptedTimeSource {
    struct Stretch {
        var frame: Int64
        var songPulse: Double
        var framesPerPulse: Double
        var rolling = true
        /// The stretch's first block says `corrected` (the source moved its own line: no locate).
        var corrected = false
    }

    var stretches: [Stretch]

    /// The position at `frame`: from the last stretch that began at or before it.
    func position(at frame: Int64) -> TimelinePosition {
        guard let s = stretches.last(where: { $0.frame <= frame }) else {
            return TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 250)
        }
        let pulse = s.rolling ? s.songPulse + Double(frame - s.frame) / s.framesPerPulse : s.songPulse
        return TimelinePosition(rolling: s.rolling, songPulse: pulse, framesPerPulse: s.framesPerPulse,
                                corrected: s.corrected && frame == s.frame)
    }
}
