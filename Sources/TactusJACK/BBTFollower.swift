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
/// note is 384 / D pulses. A meter change re-anchors the bar count at the bar
/// it starts, so the song position goes on across it. A master whose
/// `bar_start_tick` (the ticks from frame 0 to the bar's first beat, as Tactus
/// publishes it) agreed with that count gives the bar's song pulse after a
/// locate, so one past a meter change the follower never saw counts right.
/// Otherwise (most masters publish 0, others something else) a locate past
/// one counts the bars before in the meter seen last, and one before that bar
/// counts from bar 1 again (the master says nothing of its bars before).
///
/// PipeWire's JACK gives a follower the BBT the master wrote when its node
/// last ran, a period or more old (docs/DESIGN.md §13.6): a reading whole
/// periods behind the line is taken onto it, one whole periods ahead moves the
/// line there (`TimelinePosition.corrected`: no locate).
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
    /// The bars counted here hold from bar 1 (no locate since, or one placed by a trusted `bar_start_tick`).
    private var countKnown = false
    /// The master's `bar_start_tick` matched the count here past bar 1, or did not once.
    private var barStartTickAgreed = false
    private var barStartTickDisagreed = false
    /// Cycles whose bounds narrowed the phase since it was last reset (for the tests' report).
    private(set) var cyclesNarrowed = 0
    /// What the last cycle gave: its song position, frames of a pulse, length
    /// (frames) and the song pulse its BBT named (PipeWire's stale readings, below).
    private var lastSong = Double.nan
    private var lastFramesPerPulse = 0.0
    private var lastPeriod = 0.0
    private var lastAtBBT = Double.nan
    /// Readings taken as the shim's stale BBT, and lines moved a period ahead (for the tests' report).
    private(set) var staleReadings = 0
    private(set) var linesMoved = 0
    /// This cycle went on from the last one's line (`continuing`): not held at a locate's new frame.
    private(set) var heldOver = false
    /// PipeWire's stale BBT is at most this many periods old (11 seen under load, docs/DESIGN.md §13.6).
    static let stalePeriods = 16.0
    /// Cycles in a row whose reading lay behind the line by no whole number of
    /// periods, not narrowing it; this many make a new line (a master that moved
    /// its map back at the same tempo, followed 43 ms late at period 256).
    private var behindInARow = 0
    static let behindCycles = 8
    /// Readings held off the line as stale (for the tests' report).
    private(set) var readingsHeldOff = 0

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// A locate or a start: the bars counted here are known again only from bar 1
    /// or a trusted `bar_start_tick`.
    @_noLocks @_noAllocation
    mutating func lostCount() {
        countKnown = false
    }

    /// Forgets the phase (a new roll, or not following): the next cycle starts it again.
    @_noLocks @_noAllocation
    mutating func reset() {
        forgetPhase()
        lastSong = .nan
        lastAtBBT = .nan
    }

    /// A new tempo or meter, or a line the last cycles did not draw: the phase
    /// starts again (what the last cycle gave is kept, to tell a stale reading).
    @_noLocks @_noAllocation
    private mutating func forgetPhase() {
        low = -.infinity
        high = .infinity
        cyclesNarrowed = 0
        behindInARow = 0
    }

    /// The song position at this cycle's first frame (transport frame
    /// `position.frame`, a cycle of `frames`; `located`: the frame jumped), or
    /// nil when the position has no BBT.
    @_noLocks @_noAllocation
    mutating func position(_ p: jack_position_t, frames: UInt32, located: Bool) -> TimelinePosition? {
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
            forgetPhase()
        } else if p.bar < originBar {
            originBar = 1
            originPulse = 0
            forgetPhase()
        }
        if p.beats_per_minute != beatsPerMinute {
            beatsPerMinute = p.beats_per_minute
            forgetPhase()
        }
        // The master's own count of the song up to this bar (`bar_start_tick`),
        // in ticks of its beat now, as Tactus publishes it. Masters differ
        // (0, the ticks into the bar, the next bar's, a shim's guess in one
        // meter): it is checked against the bars counted here while that count
        // is known (rolled from bar 1, no locate since), and taken only from a
        // master whose count agreed past bar 1 and never disagreed, where the
        // count here is lost (a locate, maybe past a meter change never seen).
        if p.bar == 1 { countKnown = true }
        let published = p.bar_start_tick.isFinite ? p.bar_start_tick / p.ticks_per_beat * pulsesPerBeat : -1
        if countKnown {
            let counted = originPulse + Double(p.bar - originBar) * beatsPerBar * pulsesPerBeat
            if abs(published - counted) > 0.5 {
                barStartTickDisagreed = true
            } else if p.bar > 1 {
                barStartTickAgreed = true
            }
        } else if barStartTickAgreed && !barStartTickDisagreed && published >= 0 {
            originBar = p.bar
            originPulse = published
            countKnown = true
        }
        let framesPerPulse = sampleRate * 60 / (beatsPerMinute * pulsesPerBeat)
        let exact = p.valid.rawValue & JackTickDouble.rawValue != 0
        let tick = exact ? p.tick_double : Double(p.tick)
        let barPulse = originPulse + Double(p.bar - originBar) * beatsPerBar * pulsesPerBeat
        // The beat within the bar from 0. JACK's `beat` counts within the bar
        // (jack/types.h: 1 to `beats_per_bar`); one past the bar's last is
        // klick's (`klick -T`) reading of a bar line on the cycle's first frame:
        // it counts the bar on but not the beat (bar 2 beat 5 of 4, tick 0, for
        // bar 2's first beat). Taken as more beats into the bar it is a bar
        // ahead: the engine answers a locate there and one back the cycle after,
        // and the downbeat between them never sounds. It is that beat of the bar
        // it names.
        let beatInBar = Double((Int(p.beat) - 1) % meter.beatsPerBar)
        let atBBT = barPulse + (beatInBar + tick / p.ticks_per_beat) * pulsesPerBeat
        // The BBT is of frame + bbt_offset when the master says so.
        let offset = p.valid.rawValue & JackBBTFrameOffset.rawValue != 0 ? Double(p.bbt_offset) : 0
        let frame = Double(p.frame) + offset
        let width = exact ? 0 : pulsesPerBeat / p.ticks_per_beat
        heldOver = false
        let period = Double(frames)
        let periodPulses = period / framesPerPulse
        var cycleLow = atBBT - frame / framesPerPulse
        var corrected = false
        // PipeWire's JACK (docs/DESIGN.md §13.6) gives this cycle's frame with the
        // BBT the master wrote when its node last ran: a cycle or more old when
        // the follower's node ran first or the master missed cycles, and a tick
        // low at times (its beat as a double, back to ticks). Such a reading lies
        // a whole number of periods behind the line (within a tick): it is
        // taken onto the line. A reading whole periods ahead means the line was
        // drawn from stale ones: it moves forward (never back, so no pulse
        // sounds twice), and the engine is told it is no locate.
        let slack = width + 1e-9
        var ignored = false
        if low.isFinite {
            let m = Self.nearestWhole((cycleLow + width / 2 - (low + high) / 2) / periodPulses)
            let shifted = cycleLow - m * periodPulses
            if abs(m) <= Self.stalePeriods, shifted <= high + slack, shifted + width >= low - slack {
                if m < 0 {
                    cycleLow = shifted
                    staleReadings += 1
                } else if m > 0 {
                    low += m * periodPulses
                    high += m * periodPulses
                    corrected = true
                    linesMoved += 1
                }
            } else if located, abs(m) > Self.stalePeriods, lastAtBBT.isFinite, atBBT >= lastAtBBT - slack,
                      atBBT <= lastAtBBT + Self.stalePeriods * periodPulses + slack {
                // The frame jumped (a locate) but the BBT is still the one from
                // before it: the song goes on as it was for this cycle.
                return continuing(frames: period)
            } else if !located, cycleLow + width < low - slack, cycleLow >= low - (Self.stalePeriods + 1) * periodPulses,
                      behindInARow + 1 < Self.behindCycles {
                // Behind the line by up to the stale bound but by no whole number
                // of periods, the frame not jumped, the tempo and meter the same:
                // PipeWire's stale BBT under load (where Tactus answered a locate
                // nobody made, the recorder read BBT 5–10 periods old and 15–18
                // frames off the whole periods, docs/DESIGN.md §13.6). Taken as it
                // says, such a reading moves the song back by its age, more than the
                // engine's locate tolerance: Stop/Song Position/Continue. It goes on
                // from the line, narrowing nothing, until enough in a row say the
                // master moved its map back.
                behindInARow += 1
                readingsHeldOff += 1
                ignored = true
            } else {
                // Not the line the last cycles drew: a tempo ramp, a master that
                // moved its map or a locate. Start again from this cycle.
                forgetPhase()
            }
        } else if lastSong.isFinite {
            // A new tempo or meter: whole periods from where the last cycle's line
            // puts this one (within a quarter period: the tempo changed within it).
            let predicted = lastSong + lastPeriod / lastFramesPerPulse
            let song = atBBT + width / 2 - offset / framesPerPulse
            let m = Self.nearestWhole((song - predicted) / periodPulses)
            if m != 0, abs(m) <= Self.stalePeriods, abs(song - predicted - m * periodPulses) <= periodPulses / 4 {
                if m < 0 {
                    cycleLow -= m * periodPulses
                    staleReadings += 1
                } else {
                    corrected = true
                    linesMoved += 1
                }
            }
        }
        if !ignored { behindInARow = 0 }
        let cycleHigh = cycleLow + width
        if ignored {
            // Held off the line: the bounds stay.
        } else if cycleHigh < low {
            // A tick low (the shim's rounding): its lower bound says nothing new.
        } else if cycleLow > high {
            // The reading that set the upper bound was the one a tick low.
            low = cycleLow
            high = cycleHigh
        } else {
            low = max(low, cycleLow)
            high = min(high, cycleHigh)
        }
        if !ignored { cyclesNarrowed += 1 }
        // The middle of what is left; song position 0 at transport frame 0
        // (a master's usual start, and what makes a Start rather than a Continue) when it is left.
        let phase = low <= 0 && high >= 0 ? 0 : (low + high) / 2
        let songPulse = phase + Double(p.frame) / framesPerPulse
        lastSong = songPulse
        lastFramesPerPulse = framesPerPulse
        lastPeriod = period
        lastAtBBT = atBBT
        // Whole pulses: a bar line of a meter Tactus plays is one (`Int64(x + 0.5)`
        // rounds a positive x without a rounding rule the real-time check refuses).
        return _unsafePerformance {
            TimelinePosition(rolling: true, songPulse: songPulse, framesPerPulse: framesPerPulse,
                             bar: SourceBar(songPulse: Int64(barPulse + 0.5), number: Int(p.bar), meter: meter), corrected: corrected)
        }
    }

    /// The whole number nearest `x`, clamped to ±1e6 (`rounded()` takes a rounding rule the real-time check refuses).
    @_noLocks @_noAllocation
    static func nearestWhole(_ x: Double) -> Double {
        let clamped = max(-1e6, min(1e6, x.isNaN ? 1e6 : x))
        return Double(Int64(clamped + (clamped < 0 ? -0.5 : 0.5)))
    }

    /// The last cycle's line one cycle on (a cycle whose BBT is from before a locate).
    @_noLocks @_noAllocation
    private mutating func continuing(frames: Double) -> TimelinePosition {
        let songPulse = lastSong + lastPeriod / lastFramesPerPulse
        lastSong = songPulse
        lastPeriod = frames
        let framesPerPulse = lastFramesPerPulse
        heldOver = true
        return _unsafePerformance { TimelinePosition(rolling: true, songPulse: songPulse, framesPerPulse: framesPerPulse) }
    }
}
