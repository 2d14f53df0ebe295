/// A tempo map laid out for the engine: its entries cut into segments of one
/// tempo curve each (an entry, or each beat of a per-beat list), with where
/// each begins in song pulses and in seconds from the map's start, in memory
/// allocated once before the real-time thread starts.
///
/// Times are in seconds, not frames, so the same timeline plays at any sample
/// rate; each start is the sum of the exact durations before it (the integral
/// of each segment's tempo curve), never of rounded ones. Ownership is
/// explicit, as `SoundSet`'s: whoever made a timeline calls `deallocate()` once
/// no engine plays it.
public struct MapTimeline: @unchecked Sendable, BitwiseCopyable {
    private let segments: UnsafeMutablePointer<MapSegment>
    public let count: Int
    /// The whole map's length in song pulses and in seconds.
    public let pulses: Int64
    public let seconds: Double
    /// At its end the map starts again from its first segment (`--map-loop`); else the song stops.
    public var loops: Bool

    /// `subdivision` is clicked in every entry (klick's maps have none).
    /// `pulseKind` too (`--pulse dotted` in its 6/8, 9/8 and 12/8 entries).
    public init(_ map: TempoMap, loops: Bool = false, subdivision: Subdivision = .none, pulse pulseKind: Pulse = .beat) {
        var list: [MapSegment] = []
        var pulse: Int64 = 0
        var seconds = 0.0
        for (index, section) in map.sections.enumerated() {
            let bar = BarSettings(meter: section.meter, accents: section.accents, subdivision: subdivision, pulse: pulseKind)
            let beat = section.meter.pulsesPerBeat
            var curves: [(from: Double, to: Double, pulses: Int64)]
            switch section.tempo {
            case .constant(let t): curves = [(t, t, beat * Int64(section.beats))]
            case .ramp(let a, let b): curves = [(a, b, beat * Int64(section.beats))]
            case .perBeat(let list): curves = list.map { ($0, $0, beat) }
            }
            for (n, c) in curves.enumerated() {
                list.append(MapSegment(startPulse: pulse, pulses: c.pulses, startSeconds: seconds, fromTempo: c.from, toTempo: c.to,
                                       section: Int32(index), opensSection: n == 0, bar: bar, volume: Float(section.volume)))
                pulse += c.pulses
                seconds += MapSegment.seconds(pulses: c.pulses, from: c.from, to: c.to)
            }
        }
        segments = .allocate(capacity: max(1, list.count))
        segments.initialize(from: list, count: list.count)
        count = list.count
        pulses = pulse
        self.seconds = seconds
        self.loops = loops
    }

    public subscript(index: Int) -> MapSegment { segments[index] }

    public func deallocate() { segments.deallocate() }
}

/// One stretch of a tempo map under one tempo curve.
public struct MapSegment: BitwiseCopyable {
    /// Song pulses from the map's start, and the length.
    public var startPulse: Int64
    public var pulses: Int64
    /// Exact seconds from the map's start.
    public var startSeconds: Double
    /// Quarter notes a minute at the start and at the end.
    public var fromTempo: Double
    public var toTempo: Double
    /// The map entry it belongs to; the entry's first segment brings its meter, pattern and volume.
    public var section: Int32
    public var opensSection: Bool
    public var bar: BarSettings
    public var volume: Float

    /// The exact length of `pulses` pulses from `from` to `to` quarter notes a minute.
    public static func seconds(pulses: Int64, from: Double, to: Double) -> Double {
        RampMapping(originFrame: 0, startOffset: 0, pulse: 0, pulses: pulses, fromTempo: from, toTempo: to, sampleRate: 1)
            .offset(pulses: Double(pulses))
    }

    /// The tempo in the meter's beats a minute at the start, for the status
    /// and the 300 BPM subdivision rule (the map counts quarter notes).
    /// Rounded by hand: `Double.rounded()` takes a rounding rule the real-time checker refuses.
    var beatTempo: BPM { BPM(hundredths: Int32(clamping: floorToInt64(fromTempo * Double(bar.meter.beatUnit) * 25 + 0.5))) }
}
