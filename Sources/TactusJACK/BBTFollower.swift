import CJack
import TactusCore

/// A JACK timebase master's BBT as the engine's time source (`--transport
/// follow`, docs/DESIGN.md §13): the song position, the tempo and the bars of
/// each cycle, from the master's bar, beat and tick.
///
/// Most masters publish an integer `tick` (1920 a beat: 12.5 frames at 120
/// BPM), so one cycle only says the beat's phase lies within one tick. The
/// transport frame advances exactly, so every cycle at the same tempo narrows
/// it: the position is `phase + frame / framesPerPulse`, each cycle bounds
/// `phase` from below (its tick) and above (the tick after), and the bounds of
/// all cycles since the last tempo change, meter change or locate intersect;
/// the middle of what is left is used. `tick_double` (`JackTickDouble`) is taken
/// as exact, and `bbt_offset` (`JackBBTFrameOffset`) moves the BBT to its frame.
///
/// Song pulses (96 a quarter note) from the master's bars: a beat of a D-th
/// note is 384 / D pulses. A meter change re-anchors the bar count at the bar it
/// starts, so the song position goes on across it; a locate before that bar
/// counts from bar 1 again (the master says nothing of its bars before).
struct BBTFollower: BitwiseCopyable {
    let sampleRate: Double
    /// The bounds of the phase (song pulses at transport frame 0), and the tempo
    /// and meter they hold for.
    private var low = -Double.infinity
    private var high = Double.infinity
    private var beatsPerMinute = 0.0
    private var beatsPerBar = 0.0
    private var pulsesPerBeat = 96.0
    /// The song pulse of bar `originBar`'s first beat in the meter now in force.
    private var originBar: Int32 = 1
    private var originPulse = 0.0
    /// Cycles whose bounds narrowed the phase since it was last reset (for the tests' report).
    private(set) var cyclesNarrowed = 0

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Forgets the phase (a locate, a new roll): the next cycle starts it again.
    @_noLocks @_noAllocation
    mutating func reset() {
        low = -.infinity
        high = .infinity
        cyclesNarrowed = 0
    }

    /// The song position at this cycle's first frame (transport frame
    /// `position.frame`), or nil when the position has no BBT.
    @_noLocks @_noAllocation
    mutating func position(_ p: jack_position_t) -> TimelinePosition? {
        guard p.valid.rawValue & JackPositionBBT.rawValue != 0, p.ticks_per_beat > 0, p.beats_per_minute > 0,
              p.beats_per_minute.isFinite, p.beat_type > 0, p.beats_per_bar > 0, p.bar > 0, p.beat > 0,
              // TactusCore's, out of the checker's sight (another module); arithmetic only.
              let meter = _unsafePerformance({ Meter(realtimeBeatsPerBar: Int(p.beats_per_bar + 0.5), beatUnit: Int(p.beat_type + 0.5)) }) else { return nil }
        let unit = Double(_unsafePerformance { meter.pulsesPerBeat })
        let beats = Double(meter.beatsPerBar)
        if unit != pulsesPerBeat || beats != beatsPerBar {
            if beatsPerBar > 0 && p.bar >= originBar {
                // The bar this cycle is in starts the new meter, where the old one put it.
                originPulse += Double(p.bar - originBar) * beatsPerBar * pulsesPerBeat
                originBar = p.bar
            } else {
                originBar = 1
                originPulse = 0
            }
            pulsesPerBeat = unit
            beatsPerBar = beats
            reset()
        } else if p.bar < originBar {
            originBar = 1
            originPulse = 0
            reset()
        }
        if p.beats_per_minute != beatsPerMinute {
            beatsPerMinute = p.beats_per_minute
            reset()
        }
        let framesPerPulse = sampleRate * 60 / (beatsPerMinute * pulsesPerBeat)
        let exact = p.valid.rawValue & JackTickDouble.rawValue != 0
        let tick = exact ? p.tick_double : Double(p.tick)
        let barPulse = originPulse + Double(p.bar - originBar) * beatsPerBar * pulsesPerBeat
        let atBBT = barPulse + (Double(p.beat - 1) + tick / p.ticks_per_beat) * pulsesPerBeat
        // The BBT is of frame + bbt_offset when the master says so.
        let offset = p.valid.rawValue & JackBBTFrameOffset.rawValue != 0 ? Double(p.bbt_offset) : 0
        let frame = Double(p.frame) + offset
        let width = exact ? 0 : pulsesPerBeat / p.ticks_per_beat
        let cycleLow = atBBT - frame / framesPerPulse
        let cycleHigh = cycleLow + width
        if cycleLow > high + 1e-9 || cycleHigh < low - 1e-9 {
            // Not the line the last cycles drew: a tempo ramp or a master that
            // moved its map. Start again from this cycle.
            reset()
        }
        low = max(low, cycleLow)
        high = min(high, cycleHigh)
        cyclesNarrowed += 1
        // The middle of what is left; song position 0 at transport frame 0
        // (a master's usual start, and what makes a Start rather than a Continue) when it is left.
        let phase = low <= 0 && high >= 0 ? 0 : (low + high) / 2
        let songPulse = phase + Double(p.frame) / framesPerPulse
        // Whole pulses: a bar line of a meter Tactus plays is one (`Int64(x + 0.5)`
        // rounds a positive x without a rounding rule the real-time check refuses).
        return _unsafePerformance {
            TimelinePosition(rolling: true, songPulse: songPulse, framesPerPulse: framesPerPulse,
                             bar: SourceBar(songPulse: Int64(barPulse + 0.5), number: Int(p.bar), meter: meter), ownsTransport: true)
        }
    }
}
