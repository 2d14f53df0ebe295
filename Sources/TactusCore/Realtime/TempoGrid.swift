/// The tempo grid: the tempo, the beat's length in pulses, and where the pulses
/// fall in frames (anchor + n × period, docs/DESIGN.md §3).
///
/// A tempo or meter change makes a new anchor at the pulse where it takes
/// effect, at the frame the old mapping gave that pulse: the grid bends there
/// and nowhere else, and nothing drifts (every later position is computed from
/// the new anchor, never by adding rounded intervals).
struct TempoGrid: BitwiseCopyable {
    private(set) var sampleRate: Int
    private(set) var tempo: BPM
    private(set) var pulsesPerBeat: Int64
    private(set) var mapping: GridMapping

    init(sampleRate: Int, tempo: BPM, pulsesPerBeat: Int64) {
        self.sampleRate = sampleRate
        self.tempo = tempo
        self.pulsesPerBeat = pulsesPerBeat
        mapping = .exact(GridAnchor(frame: 0, pulse: 0, sampleRate: sampleRate, tempo: tempo, pulsesPerBeat: pulsesPerBeat))
    }

    func frame(of pulse: Int64) -> Int64 { mapping.frame(of: pulse) }
    func pulse(atOrBefore frame: Int64) -> Int64 { mapping.pulse(atOrBefore: frame) }

    /// The grid starts (again) with `pulse` at `frame`, at the current tempo.
    mutating func start(pulse: Int64, at frame: Int64) {
        mapping = .exact(anchor(frame: frame, pulse: pulse))
    }

    /// From `pulse` on, `tempo` and `pulsesPerBeat` (a meter's beat): the new
    /// anchor is where the old mapping put `pulse`.
    mutating func change(tempo newTempo: BPM? = nil, pulsesPerBeat newBeat: Int64? = nil, at pulse: Int64) {
        let frame = mapping.frame(of: pulse)
        if let newTempo { tempo = newTempo }
        if let newBeat { pulsesPerBeat = newBeat }
        mapping = .exact(anchor(frame: frame, pulse: pulse))
    }

    /// Tempo and beat for when the grid starts again; the mapping is rebuilt then.
    mutating func set(tempo newTempo: BPM? = nil, pulsesPerBeat newBeat: Int64? = nil) {
        if let newTempo { tempo = newTempo }
        if let newBeat { pulsesPerBeat = newBeat }
    }

    /// A time source's mapping for this cycle; the tempo it implies (or the
    /// source's own, `sourceTempo`) is kept for the status and the 300 BPM
    /// subdivision rule.
    mutating func follow(_ map: MeasuredMapping, tempo sourceTempo: BPM? = nil) {
        mapping = .measured(map)
        if let sourceTempo {
            tempo = sourceTempo
            return
        }
        let hundredths = Double(sampleRate) * 6000 / (map.framesPerPulse * Double(pulsesPerBeat))
        tempo = BPM(hundredths: Int32(clamping: floorToInt64(min(hundredths, 1e7) + 0.5)))
    }

    /// A new beat length under a time source's map: the map holds for the rest
    /// of its cycle (the source owns the tempo, docs/DESIGN.md §9); only the
    /// tempo it implies, counted in the new beat, changes.
    mutating func follow(pulsesPerBeat newBeat: Int64) {
        guard case .measured(let map) = mapping else { return }
        pulsesPerBeat = newBeat
        follow(map)
    }

    /// A tempo map's segment from its first pulse on; `tempo` (the meter's beats
    /// a minute at its start) is kept for the status and the 300 BPM rule.
    mutating func follow(_ ramp: RampMapping, tempo newTempo: BPM, pulsesPerBeat newBeat: Int64) {
        mapping = .ramp(ramp)
        tempo = newTempo
        pulsesPerBeat = newBeat
    }

    /// The same grid at another sample rate, continuing at `frame`: the next
    /// pulse `pulse` lands where it would have, scaled to the new rate.
    mutating func resample(to rate: Int, pulse: Int64, continuingAt frame: Int64) {
        let old = mapping.frame(of: pulse)
        let scaled = frame + Int64((Double(old - frame) * Double(rate) / Double(sampleRate)).rounded())
        sampleRate = rate
        mapping = .exact(anchor(frame: scaled, pulse: pulse))
    }

    /// Whether a time source's measured map drives the grid this cycle (its
    /// mapping then holds until the source's next position, docs/DESIGN.md §9).
    var isFollowing: Bool {
        if case .measured = mapping { return true }
        return false
    }

    private func anchor(frame: Int64, pulse: Int64) -> GridAnchor {
        GridAnchor(frame: frame, pulse: pulse, sampleRate: sampleRate, tempo: tempo, pulsesPerBeat: pulsesPerBeat)
    }
}
