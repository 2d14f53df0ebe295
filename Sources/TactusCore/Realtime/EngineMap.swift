/// A tempo map played by the engine (docs/DESIGN.md §10): from each Start the
/// song follows the map's segments, each scheduled on the agenda at its first
/// pulse (an entry's first bar line, or a beat of a per-beat list), and at the
/// map's end the song stops (Stop, Song Position) or, looping, starts the map
/// again on that bar line.
///
/// Every segment's mapping counts from the frame of the map's Start and the
/// segment's exact start in seconds (`MapTimeline`), so the rounding of one
/// segment's frames never moves the next.
struct MapPlayback: BitwiseCopyable {
    var timeline: MapTimeline
    /// The click's gains without the map's volume factors.
    var baseGains: SoundGains
    var active = false
    /// The frame of the map's Start and the grid pulse of the current pass's first segment.
    var originFrame: Int64 = 0
    var passPulse: Int64 = 0
    /// The seconds of the passes played before this one (`--map-loop`).
    var passSeconds: Double = 0
    /// The entry playing and the grid pulse of its first bar line, for the display.
    var section: Int32 = -1
    var sectionStart: Int64 = 0

    init(timeline: MapTimeline, baseGains: SoundGains) {
        self.timeline = timeline
        self.baseGains = baseGains
    }
}

extension Engine {
    /// The song starts at pulse `e`, frame `gridFrame`: the map's first segment from there.
    mutating func beginMap(at e: Int64, gridFrame: Int64, retired: borrowing SPSCRing<SoundSet>) {
        guard var m = map else { return }
        m.active = true
        m.originFrame = gridFrame
        m.passPulse = e
        m.passSeconds = 0
        map = m
        applySegment(0, at: e, retired: retired)
    }

    /// Segment `index` from pulse `e` on (`count`: the map again from its top),
    /// and the next one on the agenda.
    mutating func applySegment(_ index: Int, at e: Int64, retired: borrowing SPSCRing<SoundSet>) {
        guard var m = map, m.active else { return }
        var i = index
        if i >= m.timeline.count {
            m.passSeconds += m.timeline.seconds
            m.passPulse = e
            i = 0
        }
        let segment = m.timeline[i]
        if segment.opensSection {
            m.section = segment.section
            m.sectionStart = e
        }
        map = m
        if segment.opensSection {
            song.changeMeter(at: e, oldPulsesPerBar: pattern.bar.meter.pulsesPerBar)
            pattern.bar = segment.bar
        }
        let ramp = RampMapping(originFrame: m.originFrame, startOffset: (m.passSeconds + segment.startSeconds) * Double(sampleRate),
                               pulse: e, pulses: segment.pulses, fromTempo: segment.fromTempo, toTempo: segment.toTempo,
                               sampleRate: sampleRate)
        grid.follow(ramp, tempo: segment.beatTempo, pulsesPerBeat: segment.bar.meter.pulsesPerBeat)
        if segment.opensSection {
            var gains = m.baseGains
            gains.master *= segment.volume
            audio.schedule(SoundChange(sounds: nil, gains: gains), atGridFrame: grid.frame(of: e), retired: retired)
        }
        let next = e + segment.pulses
        if i + 1 < m.timeline.count || m.timeline.loops {
            agenda.schedule(AgendaEntry(pulse: next, change: .section(Int32(i + 1))))
        } else {
            agenda.schedule(AgendaEntry(pulse: next, change: .transport(.end)))
        }
    }

    /// The map's last bar line: Stop and the Song Position there, as a stop command sends them.
    mutating func endMap(at gridFrame: Int64) {
        song.stop()
        stopMap()
        midi.emit(.stop, gridFrame: gridFrame)
        sendSongPositionPointer(at: gridFrame)
        if !clockWhileStopped { rolling = false }
    }

    /// The map stops driving the song (a stop, a new sample rate); the grid keeps the tempo reached.
    mutating func stopMap() {
        guard map?.active == true else { return }
        map?.active = false
        _ = agenda.remove(.section)
    }

}
