/// What a bar sounds like, pulse by pulse: which pulses click and with which
/// sound (meter, accents, subdivisions), and the 300 BPM rule.
struct ClickPattern: BitwiseCopyable {
    var bar: BarSettings

    /// What sounds at one pulse of a bar.
    enum Hit: BitwiseCopyable {
        /// A beat (index from 0) with its accent; a silent accent still counts as the beat.
        case beat(index: Int, accent: Accent)
        case subdivision
    }

    /// Subdivision clicks stop from `Subdivision.cutoff` (300 BPM) up and come
    /// back below it (docs/DESIGN.md §3.5).
    func subdivisionsOn(at tempo: BPM) -> Bool { bar.subdivision != .none && tempo < Subdivision.cutoff }

    /// The first pulse at or after `rel` (pulses from a bar line) where a click may fall.
    func nextClickPulse(atOrAfter rel: Int64, tempo: BPM) -> Int64 {
        let beat = bar.meter.pulsesPerBeat
        if let swung = swungPulse(tempo: tempo) {
            // The beat, or the pulse the swung eighth's frame falls within (`swungFrame`).
            let beatStart = rel - rel % beat
            return rel == beatStart ? rel : rel <= beatStart + swung ? beatStart + swung : beatStart + beat
        }
        let step = subdivisionsOn(at: tempo) ? beat / Int64(bar.subdivision.divisions) : beat
        return roundUp(rel, toMultipleOf: step)
    }

    /// The first bar line (`.nextBar`) or beat (`.nextBeat`) at or after `rel`.
    func nextSwitchPulse(atOrAfter rel: Int64, point: SwitchPoint) -> Int64 {
        roundUp(rel, toMultipleOf: point == .nextBar ? bar.meter.pulsesPerBar : bar.meter.pulsesPerBeat)
    }

    /// The hit at `rel` pulses after a bar line of this meter, or nil.
    func hit(atBarRelative rel: Int64, tempo: BPM) -> Hit? {
        let beatLength = bar.meter.pulsesPerBeat
        let inBar = rel % bar.meter.pulsesPerBar
        let withinBeat = inBar % beatLength
        if withinBeat == 0 {
            let index = Int(inBar / beatLength)
            // A dotted pulse: the eighths between the dotted quarters sound as subdivisions.
            if bar.pulse == .dotted && index % 3 != 0 && Pulse.isCompound(bar.meter) { return bar.accents[index] == .silent ? nil : .subdivision }
            return .beat(index: index, accent: bar.accents[index])
        }
        guard subdivisionsOn(at: tempo) else { return nil }
        // A silent beat is a rest as long as the beat: its subdivisions are silent
        // too, so `X.x.x..` with subdivisions still groups the bar as 2+2+3.
        guard bar.accents[Int(inBar / beatLength)] != .silent else { return nil }
        if let swung = swungPulse(tempo: tempo) { return withinBeat == swung ? .subdivision : nil }
        let step = beatLength / Int64(bar.subdivision.divisions)
        guard withinBeat % step == 0, bar.subdivision.clicks(atPart: Int(withinBeat / step)) else { return nil }
        return .subdivision
    }

    /// With `--swing` and eighths, the whole pulse within a beat at or before
    /// the swung eighth (ratio × beat, floored); nil when straight.
    func swungPulse(tempo: BPM) -> Int64? {
        guard bar.swingRatio > 0, bar.subdivision == .eighths, subdivisionsOn(at: tempo) else { return nil }
        return Int64(bar.swingRatio * Double(bar.meter.pulsesPerBeat))
    }

    /// The swung eighth's frame: its beat's first frame plus the ratio of the
    /// beat's frames, rounded, from the two beat frames of the grid, so it is
    /// exact at any tempo and nothing accumulates from beat to beat.
    func swungFrame(beatStart: Int64, beatEnd: Int64) -> Int64 {
        // floor(x + 0.5) as the grid mappings round: `rounded()` takes a rounding-rule type the real-time check refuses.
        beatStart + floorToInt64(bar.swingRatio * Double(beatEnd - beatStart) + 0.5)
    }
}
