/// The song: where MIDI beat clock's song position stands, and the bar numbers
/// of the meter in force (docs/DESIGN.md §4).
///
/// MIDI 1.0 rules it keeps: Start (0xFA) plays from song position 0; Stop
/// (0xFC) leaves the slave where it was, and the position sent after it (Song
/// Position Pointer, 0xF2) counts whole "MIDI beats" of 6 clocks (16ths),
/// rounded down, so Continue (0xFB) resumes on that 16th. Grid pulses run
/// continuously while the grid rolls; `songOrigin` is the grid pulse of song
/// position 0.
struct SongTransport: BitwiseCopyable {
    private(set) var running = false
    /// Grid pulse of song position 0.
    private(set) var songOrigin: Int64 = 0
    /// Song pulse of a bar line of the current meter, and that bar's number.
    private(set) var meterOriginSong: Int64 = 0
    private(set) var meterOriginBar = 1
    /// Clocks sent since song position 0 (the slave's position, in clocks).
    private(set) var songClocks: Int64 = 0
    /// Where Continue resumes, in song pulses.
    private(set) var resumeSongPulse: Int64 = 0

    /// Pulses from the last bar line of the current meter's grid to grid pulse `p`.
    func barRelative(_ p: Int64) -> Int64 { p - songOrigin - meterOriginSong }

    /// Grid pulse of a pulse `rel` after the current meter's bar lines.
    func gridPulse(barRelative rel: Int64) -> Int64 { rel + songOrigin + meterOriginSong }

    /// The number (from 1) of the bar that grid pulse `p` is in.
    func barNumber(at p: Int64, pulsesPerBar: Int64) -> Int { meterOriginBar + Int(barRelative(p) / pulsesPerBar) }

    /// The Song Position Pointer of the resume point, nil past 14 bits.
    var songPositionBeats: UInt16? { SongPosition.midiBeats(afterClocks: resumeSongPulse / Grid.pulsesPerClock) }

    /// Start at grid pulse `p`: song position 0, bar 1.
    mutating func start(at p: Int64) {
        songOrigin = p
        meterOriginSong = 0
        meterOriginBar = 1
        songClocks = 0
        running = true
    }

    /// Continue at grid pulse `p` from the stored resume point.
    mutating func resume(at p: Int64) {
        songOrigin = p - resumeSongPulse
        songClocks = resumeSongPulse / Grid.pulsesPerClock
        running = true
    }

    /// Stop: the resume point is the last whole MIDI beat the slave reached.
    mutating func stop() {
        running = false
        resumeSongPulse = (songClocks / Grid.clocksPerMIDIBeat) * Grid.pulsesPerMIDIBeat
        songClocks = resumeSongPulse / Grid.pulsesPerClock
    }

    /// The resume point moves to the start of bar `bar` (from 1) of a meter of
    /// `pulsesPerBar`, which counts from bar 1 again.
    mutating func locate(bar: Int, pulsesPerBar: Int64) {
        resumeSongPulse = Int64(max(0, bar - 1)) * pulsesPerBar
        restartMeter()
        if !running { songClocks = resumeSongPulse / Grid.pulsesPerClock }
    }

    /// The resume point moves to song pulse `pulse` (a time source's position).
    /// The bar lines stay on the song positions they had (a source's song has
    /// its bars where they were); before the last meter change, its bars of
    /// `pulsesPerBar` are counted back, until the source says otherwise.
    mutating func locate(songPulse pulse: Int64, pulsesPerBar: Int64) {
        resumeSongPulse = max(0, pulse)
        if meterOriginSong > resumeSongPulse {
            let bars = (meterOriginSong - resumeSongPulse + pulsesPerBar - 1) / pulsesPerBar
            meterOriginSong -= bars * pulsesPerBar
            meterOriginBar -= Int(bars)
        }
        if !running { songClocks = resumeSongPulse / Grid.pulsesPerClock }
    }

    /// Bar `line.number` of the meter in force starts at song pulse `line.songPulse`.
    mutating func anchorMeter(_ line: BarLine) {
        meterOriginSong = line.songPulse
        meterOriginBar = line.number
    }

    /// A new meter from grid pulse `p` on: its first bar line is `p`, numbered
    /// after the bar of the old meter (`oldPulsesPerBar`) that `p` is in or ends.
    mutating func changeMeter(at p: Int64, oldPulsesPerBar: Int64) {
        let rel = barRelative(p)
        meterOriginBar += Int(rel / oldPulsesPerBar) + (rel % oldPulsesPerBar == 0 ? 0 : 1)
        meterOriginSong = p - songOrigin
    }

    /// A time source's bar line: bar `number` starts at song pulse `songPulse`,
    /// in the meter in force.
    mutating func align(bar number: Int, atSongPulse songPulse: Int64) {
        meterOriginSong = songPulse
        meterOriginBar = number
    }

    /// A new song from bar 1 (a bar setting chosen while stopped).
    mutating func newSong() {
        resumeSongPulse = 0
        songClocks = 0
        restartMeter()
    }

    /// Bar lines count from song position 0 and bar 1 again.
    mutating func restartMeter() {
        meterOriginSong = 0
        meterOriginBar = 1
    }

    /// One 0xF8 went out at the song's pace (or `count` of them skipped).
    mutating func clocksSent(_ count: Int64 = 1) {
        if running { songClocks += count }
    }
}
