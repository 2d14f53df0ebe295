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

    /// The bars of the map's entries before song pulse `pulse` of a pass, an
    /// entry's first bar line or the map's end (each entry is whole bars of its
    /// meter; a per-beat list is one segment a beat).
    static func bars(of timeline: MapTimeline, before pulse: Int64) -> Int {
        var bars = 0
        var entryPulses: Int64 = 0
        var i = 0
        while i < timeline.count && timeline[i].startPulse < pulse {
            if timeline[i].opensSection && i > 0 {
                bars += Int(entryPulses / timeline[i - 1].bar.meter.pulsesPerBar)
                entryPulses = 0
            }
            entryPulses += timeline[i].pulses
            i += 1
        }
        if i > 0 { bars += Int(entryPulses / timeline[i - 1].bar.meter.pulsesPerBar) }
        return bars
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
        follow(segment: i, from: e, volumeAt: segment.opensSection ? e : nil, retired: retired)
    }

    /// Continue at pulse `e`, frame `gridFrame`: the map plays on from the song
    /// position Continue resumes at, in the meter, tempo and volume of the map
    /// there, with the bar numbers the map gives that position. Past the end of
    /// a map that does not loop, the song goes on at the tempo it ended with.
    mutating func resumeMap(at e: Int64, gridFrame: Int64, retired: borrowing SPSCRing<SoundSet>) {
        guard var m = map, m.timeline.count > 0, m.timeline.pulses > 0 else { return }
        let timeline = m.timeline
        let position = song.resumeSongPulse
        guard timeline.loops || position < timeline.pulses else { return }
        let pass = position / timeline.pulses
        let offset = position % timeline.pulses
        // The segment playing at `offset`, the entry it belongs to, and the bars before that entry.
        var i = 0
        while i + 1 < timeline.count && timeline[i + 1].startPulse <= offset { i += 1 }
        var opening = i
        while !timeline[opening].opensSection { opening -= 1 }
        let barsBefore = MapPlayback.bars(of: timeline, before: timeline[opening].startPulse)
        let segment = timeline[i]
        let into = offset - segment.startPulse
        // Every later segment counts from this frame, less the map's seconds up to here.
        let secondsInto = RampMapping(originFrame: 0, startOffset: 0, pulse: 0, pulses: segment.pulses, fromTempo: segment.fromTempo,
                                      toTempo: segment.toTempo, sampleRate: 1).offset(pulses: Double(into))
        m.active = true
        m.originFrame = gridFrame
        m.passPulse = e - offset
        m.passSeconds = -(segment.startSeconds + secondsInto)
        m.section = segment.section
        m.sectionStart = e - (offset - timeline[opening].startPulse)
        map = m
        song.align(bar: 1 + Int(pass) * MapPlayback.bars(of: timeline, before: timeline.pulses) + barsBefore,
                   atSongPulse: position - (offset - timeline[opening].startPulse))
        pattern.bar = segment.bar
        follow(segment: i, from: e - into, volumeAt: e, retired: retired)
    }

    /// The grid follows segment `i` from its first pulse `start`; the entry's
    /// volume from pulse `volumeAt` when given; the next segment (or the map's
    /// end) goes on the agenda.
    private mutating func follow(segment i: Int, from start: Int64, volumeAt volumePulse: Int64?, retired: borrowing SPSCRing<SoundSet>) {
        guard let m = map else { return }
        let segment = m.timeline[i]
        let ramp = RampMapping(originFrame: m.originFrame, startOffset: (m.passSeconds + segment.startSeconds) * Double(sampleRate),
                               pulse: start, pulses: segment.pulses, fromTempo: segment.fromTempo, toTempo: segment.toTempo,
                               sampleRate: sampleRate)
        if tempoIsOwn(segment.beatTempo, at: start) {
            grid.follow(ramp, tempo: segment.beatTempo, pulsesPerBeat: segment.bar.meter.pulsesPerBeat)
        } else if grid.isFollowing {
            // The source owns the tempo: it is asked for the segment's (a ramp
            // thus in steps of a segment), and its map keeps the block's frames.
            grid.follow(pulsesPerBeat: segment.bar.meter.pulsesPerBeat)
        } else {
            grid.set(pulsesPerBeat: segment.bar.meter.pulsesPerBeat)
        }
        if let volumePulse {
            var gains = m.baseGains
            gains.master *= segment.volume
            audio.schedule(SoundChange(sounds: nil, gains: gains), atGridFrame: grid.frame(of: volumePulse), retired: retired)
        }
        let next = start + segment.pulses
        if i + 1 < m.timeline.count || m.timeline.loops {
            agenda.schedule(AgendaEntry(pulse: next, change: .section(Int32(i + 1))))
        } else {
            agenda.schedule(AgendaEntry(pulse: next, change: .transport(.end)))
        }
    }

    /// The map's last bar line: Stop and the Song Position there, as a stop command sends them.
    mutating func endMap(at gridFrame: Int64, status: borrowing EngineStatus) {
        // A source that owns start and stop stops too, or it would start the song again.
        if owner.transport { sourceRequests.running = false }
        song.stop()
        stopMap()
        midi.emit(.stop, gridFrame: gridFrame)
        sync.run(false, at: gridFrame + sync.delay, status: status)
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
