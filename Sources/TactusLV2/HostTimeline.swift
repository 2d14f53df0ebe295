import CLV2
import TactusCore

/// The host's transport as the engine's time source (docs/DESIGN.md §8.3):
/// every `time:Position` event anchors the song position at its frame, from
/// the host's own bar and beat; between events the position runs on by frames
/// at the host's tempo. Each anchor is the host's word again, so nothing
/// accumulates: no period is ever truncated to whole frames (eg-metro's
/// integer `frames_per_beat` drifts by up to a frame a beat).
///
/// A host reading a JACK timebase master gives whole ticks (jalv: `barBeat` =
/// beat − 1 + tick / 1920, the tick an integer): one reading only says the
/// song lies within one tick after it (12.5 frames at 120 BPM). Such a reading
/// (a `barBeat` on a 1/1920 beat) bounds the line from below and above, and the
/// bounds of all readings since the last change of tempo, meter or speed
/// intersect; the line moves only as far as it must to stay within them, so a
/// reading that confirms it leaves it where it is. jalv sends a position only
/// when the tempo changes (or the transport jumps or stops): after a tempo
/// change there is one reading, and the line is narrowed from the one before
/// it: the host's tempo changes on a beat (a map's bar line or beat), so the
/// old line run on to its last beat, then the new tempo from there, is taken
/// when that reading allows it (docs/DESIGN.md §8.5). A `barBeat` past the bar's
/// last beat (klick's bar line on a cycle's first frame: bar 2 beat 5 of 4)
/// is that beat of the bar it names.
///
/// Song pulses (96 a quarter note) from the host's bar and beat: a beat of a
/// D-th note is 384 / D pulses (`Meter.pulsesPerBeat`). A meter change
/// re-anchors the bar count at the bar it starts, so the song position goes on
/// without a jump across it.
struct HostTimeline: BitwiseCopyable {
    /// The fields last heard (a host may send only what changed).
    private(set) var time = TactusHostTime()
    private(set) var known = false
    /// The song pulse at `anchorFrame`, the plugin's frame of the last event.
    private var anchorPulse = 0.0
    private var anchorFrame: Int64 = 0
    private var framesPerPulse = 0.0
    private var rolling = false
    /// The song pulse of bar `originBar`'s first beat in the meter now in force.
    private var originBar: Int64 = 0
    private var originPulse = 0.0
    private var pulsesPerBeat = 96.0
    private var beatsPerBar = 4.0
    /// The bounds the readings since the last change of tempo, meter or speed
    /// put on the line, as its song pulse at frame 0 (`anchorPulse − anchorFrame / framesPerPulse`).
    private var low = -Double.infinity
    private var high = Double.infinity
    let sampleRate: Double
    /// JACK's usual ticks a beat (jack_position_t.ticks_per_beat: 1920 from
    /// jack2's examples, klick, Ardour, Hydrogen); a host's `barBeat` on one of
    /// them is taken as whole ticks.
    static let ticksPerBeat = 1920.0
    /// How far a `barBeat` may lie off a whole tick and still be one (the host
    /// sends a 32-bit float: 2.4e-7 beat off at 4 beats, 5e-4 tick).
    static let tickSlack = 0.005
    /// Song pulses a reading may lie past the bounds and still agree (a float's rounding: 2.3e-5).
    static let slack = 1e-4

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// The meter the host gives, if any (its beatsPerBar rounded: Tactus's
    /// grid has whole beats; a denominator not 1–32 a power of two: none).
    func meter(_ meters: MeterTable) -> Meter? {
        guard known, time.has_beats_per_bar, time.has_beat_unit, time.beats_per_bar.isFinite, time.beats_per_bar < 1000 else { return nil }
        return meters.meter(beatsPerBar: Int(time.beats_per_bar.rounded()), beatUnit: Int(time.beat_unit))
    }

    var tempo: Double? { known && time.has_bpm ? time.bpm : nil }

    /// One `time:Position` event at the plugin's frame `frame`.
    mutating func receive(_ update: TactusHostTime, atFrame frame: Int64) {
        // The line before this event: where it puts `frame`, and its last beat.
        let wasRolling = known && rolling && framesPerPulse > 0
        let before = (pulse: pulse(at: frame), framesPerPulse: framesPerPulse, pulsesPerBeat: pulsesPerBeat,
                      anchorPulse: anchorPulse, anchorFrame: anchorFrame, barLine: barLine?.songPulse ?? 0)
        if update.has_bar { time.bar = update.bar; time.has_bar = true }
        if update.has_bar_beat { time.bar_beat = update.bar_beat; time.has_bar_beat = true }
        if update.has_beats_per_bar, update.beats_per_bar > 0 { time.beats_per_bar = update.beats_per_bar; time.has_beats_per_bar = true }
        if update.has_beat_unit, update.beat_unit > 0 { time.beat_unit = update.beat_unit; time.has_beat_unit = true }
        if update.has_bpm, update.bpm > 0, update.bpm.isFinite { time.bpm = update.bpm; time.has_bpm = true }
        if update.has_speed { time.speed = update.speed; time.has_speed = true }
        known = true

        let unit = time.has_beat_unit ? Double(time.beat_unit) : 4
        let beats = time.has_beats_per_bar ? time.beats_per_bar : 4
        let newPulsesPerBeat = 384 / unit  // Grid.pulsesPerWholeNote, without a global in run()
        let meterChanged = newPulsesPerBeat != pulsesPerBeat || beats != beatsPerBar
        if meterChanged {
            // The bar this event is in starts the new meter; the song position of
            // its first beat is where the old meter put it.
            let bar = time.has_bar ? time.bar : originBar
            if bar >= originBar {
                originPulse += Double(bar - originBar) * beatsPerBar * pulsesPerBeat
                originBar = bar
            } else {
                // Back before the last meter change: the meters between bar 0 and
                // here are the host's to know; counted from bar 0 in this one.
                originPulse = 0
                originBar = 0
            }
            pulsesPerBeat = newPulsesPerBeat
            beatsPerBar = beats
        }
        let bpm = time.has_bpm ? time.bpm : 120
        // time:speed scales how fast the beats go by (1 normal, 0.5 half speed);
        // backwards (negative) has no clock to give, and counts as standing still.
        let speed = time.has_speed ? time.speed : 1
        rolling = speed > 0 && speed.isFinite
        framesPerPulse = rolling ? sampleRate * 60 / (bpm * speed) / pulsesPerBeat : 0
        let sameLine = wasRolling && rolling && !meterChanged && framesPerPulse == before.framesPerPulse
        anchorFrame = frame
        guard time.has_bar || time.has_bar_beat else {
            // No bar or beat: the line runs on from where it was (at the tempo it had until now).
            anchorPulse = before.pulse
            low = -.infinity
            high = .infinity
            barLine = nil
            return
        }
        let line = originPulse + Double(time.bar - originBar) * beatsPerBar * pulsesPerBeat
        barLine = time.has_bar ? HostBarLine(songPulse: line, bar: time.bar) : nil
        var barBeat = time.bar_beat
        if barBeat >= beatsPerBar, beatsPerBar > 0 {
            // Past the bar's last beat (klick's bar line on a cycle's first frame,
            // bar 2 beat 5 of 4): that beat of the bar the host names, or the
            // song would run a bar ahead and its downbeat never sound.
            barBeat -= beatsPerBar * (barBeat / beatsPerBar).rounded(.down)
        }
        let reading = line + barBeat * pulsesPerBeat
        guard rolling else {
            anchorPulse = reading
            low = -.infinity
            high = .infinity
            return
        }
        let ticks = barBeat * Self.ticksPerBeat
        let wholeTicks = abs(ticks - ticks.rounded()) <= Self.tickSlack
        let width = wholeTicks ? pulsesPerBeat / Self.ticksPerBeat : 0
        // The reading's bounds as the line's song pulse at frame 0.
        let readingLow = reading - Double(frame) / framesPerPulse
        let readingHigh = readingLow + width
        var phase = readingLow
        if sameLine, readingLow <= high + Self.slack, readingHigh >= low - Self.slack {
            // The same tempo and meter: the reading narrows the bounds, and the
            // line stays where it was unless they leave it out.
            low = max(low, readingLow)
            high = max(low, min(high, readingHigh))
            phase = min(max(before.anchorPulse - Double(before.anchorFrame) / framesPerPulse, low), high)
        } else {
            low = readingLow
            high = readingHigh
            if wasRolling && !sameLine {
                // A new tempo or meter: the host changed it on a beat of the old
                // line (its last, or one of the few before when told late), and
                // the new tempo runs from there; taken if this reading allows it.
                let beat = before.pulsesPerBeat
                var b = before.barLine + ((before.pulse - before.barLine) / beat + 1e-9).rounded(.down) * beat
                var tries = 0
                while tries < 4, b >= before.anchorPulse - Self.slack {
                    let beatFrame = Double(before.anchorFrame) + (b - before.anchorPulse) * before.framesPerPulse
                    let candidate = b - beatFrame / framesPerPulse
                    if candidate >= low - Self.slack, candidate <= high + Self.slack {
                        phase = candidate
                        break
                    }
                    b -= beat
                    tries += 1
                }
            }
        }
        anchorPulse = phase + Double(frame) / framesPerPulse
    }

    /// Where the bar of the last event starts in song pulses, and the host's
    /// number of it (from 0); nil until the host gives its bar.
    private(set) var barLine: HostBarLine?

    /// Pulses in a bar of the host's meter.
    var pulsesPerBar: Double { beatsPerBar * pulsesPerBeat }

    /// Where the song is at `frame` (a block's first frame): the last anchor,
    /// run on by the frames since at the host's tempo (standing still: not).
    func position(at frame: Int64) -> TimelinePosition {
        guard known else { return TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0) }
        return TimelinePosition(rolling: rolling, songPulse: pulse(at: frame), framesPerPulse: framesPerPulse)
    }

    private func pulse(at frame: Int64) -> Double {
        guard rolling, framesPerPulse > 0 else { return anchorPulse }
        return anchorPulse + Double(frame - anchorFrame) / framesPerPulse
    }
}

/// The start of a host's bar: its song pulse and the host's bar number (`time:bar`, from 0).
struct HostBarLine: BitwiseCopyable, Equatable {
    var songPulse: Double
    var bar: Int64

    /// Whether `later` is a bar line of the same bars (whole bars of `pulsesPerBar` on).
    func continues(to later: HostBarLine, pulsesPerBar: Double) -> Bool {
        abs(later.songPulse - songPulse - Double(later.bar - bar) * pulsesPerBar) < 0.5
    }
}
