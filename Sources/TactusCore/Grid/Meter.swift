/// A time signature N/D. The beat is the D-th note; a bar has N beats.
///
/// Grid unit: the engine counts *pulses*, 96 to the quarter note, so that MIDI
/// beat clock (24 per quarter note, MIDI 1.0 spec) is every 4th pulse and every
/// beat division Tactus offers (halves, thirds, quarters of any beat from a whole
/// note to a 32nd) falls on a whole pulse.
public struct Meter: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public static let maximumBeats = 32
    /// Denominators whose beat is a whole number of pulses divisible by 2, 3 and 4.
    public static let allowedUnits: [Int] = [1, 2, 4, 8, 16, 32]

    public let beatsPerBar: Int
    public let beatUnit: Int

    public init?(beatsPerBar: Int, beatUnit: Int) {
        guard (1...Meter.maximumBeats).contains(beatsPerBar), Meter.allowedUnits.contains(beatUnit) else { return nil }
        self.beatsPerBar = beatsPerBar
        self.beatUnit = beatUnit
    }

    /// N/D for a real-time caller (a JACK timebase master's meter, read every
    /// cycle): the rule of `init?(beatsPerBar:beatUnit:)` by arithmetic, without
    /// its tables (static lets are lazy globals, which the real-time thread must not touch).
    public init?(realtimeBeatsPerBar n: Int, beatUnit d: Int) {
        guard n >= 1, n <= 32, d >= 1, d <= 32, d & (d - 1) == 0 else { return nil }
        beatsPerBar = n
        beatUnit = d
    }

    /// Parses "7/8".
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
        self.init(beatsPerBar: n, beatUnit: d)
    }

    public static let fourFour = Meter(beatsPerBar: 4, beatUnit: 4)!

    public var pulsesPerBeat: Int64 { Grid.pulsesPerWholeNote / Int64(beatUnit) }
    public var pulsesPerBar: Int64 { pulsesPerBeat * Int64(beatsPerBar) }
    public var description: String { "\(beatsPerBar)/\(beatUnit)" }
}
