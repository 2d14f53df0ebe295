import CLV2
import TactusCore

/// The host's transport as the engine's time source (docs/DESIGN.md §8.3):
/// every `time:Position` event anchors the song position at its frame, from
/// the host's own bar and beat; between events the position runs on by frames
/// at the host's tempo. Each anchor is the host's word again, so nothing
/// accumulates: no period is ever truncated to whole frames (eg-metro's
/// integer `frames_per_beat` drifts by up to a frame a beat).
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
    let sampleRate: Double

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
        if newPulsesPerBeat != pulsesPerBeat || beats != beatsPerBar {
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
        if time.has_bar || time.has_bar_beat {
            let line = originPulse + Double(time.bar - originBar) * beatsPerBar * pulsesPerBeat
            anchorPulse = line + time.bar_beat * pulsesPerBeat
            barLine = time.has_bar ? HostBarLine(songPulse: line, bar: time.bar) : nil
        } else {
            anchorPulse = pulse(at: frame)
        }
        anchorFrame = frame
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
