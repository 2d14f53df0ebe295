import Foundation

/// A file written by `tactus-jack-probe record`: audio onsets and MIDI events,
/// each at its absolute JACK frame.
struct Recording {
    struct Onset { var port: Int; var frame: Int64; var value: Float }
    struct Event { var port: Int; var frame: Int64; var bytes: [UInt8] }
    /// One cycle's `jack_transport_query` (`record --transport`), at the recorder's frame of the cycle.
    struct TransportRow {
        var frame: Int64
        /// `jack_transport_state_t`: 0 stopped, 1 rolling, 3 starting.
        var state: Int
        var rolling: Bool { state == 1 }
        var transportFrame: Int64
        var valid: UInt32
        var bar: Int, beat: Int, tick: Int
        var tickDouble: Double
        var beatsPerMinute: Double
        var beatsPerBar: Double, beatType: Double
        var hasBBT: Bool { valid & 0x10 != 0 }
        var hasTickDouble: Bool { valid & 0x200 != 0 }
    }

    var sampleRate = 0
    var period = 0
    var firstFrame: Int64 = 0
    var endFrame: Int64 = 0
    /// The server's xrun notices while recording.
    var xruns = 0
    var onsets: [Onset] = []
    /// The other changes of the ports recorded with `--levels` (`L` lines): with
    /// the onsets, every sample of those ports.
    var levels: [Onset] = []
    var events: [Event] = []
    var transport: [TransportRow] = []
    /// Frames the recorder was not run for (skipped cycles): nothing seen there.
    var holes: [ClosedRange<Int64>] = []
    /// The server's frame time at each xrun notice (the recorder's `XF` lines).
    var xrunFrames: [Int64] = []
    /// Each cycle's first frame and the host time `jack_get_cycle_times` gave it
    /// (`T` lines), in order.
    var cycleTimes: [(frame: Int64, microseconds: Double)] = []

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            switch f.first {
            case "#":
                var i = 1
                while i + 1 < f.count {
                    switch f[i] {
                    case "rate": sampleRate = Int(f[i + 1]) ?? 0
                    case "period": period = Int(f[i + 1]) ?? 0
                    case "first-frame": firstFrame = Int64(f[i + 1]) ?? 0
                    case "end-frame": endFrame = Int64(f[i + 1]) ?? 0
                    case "xruns": xruns = Int(f[i + 1]) ?? 0
                    default: break
                    }
                    i += 2
                }
            case "A":
                onsets.append(Onset(port: Int(f[1])!, frame: Int64(f[2])!, value: Float(f[3])!))
            case "L":
                levels.append(Onset(port: Int(f[1])!, frame: Int64(f[2])!, value: Float(f[3])!))
            case "H":
                // A server whose frame time steps back (PipeWire after a skip) gives to < from.
                let a = Int64(f[1])!, b = Int64(f[2])!
                holes.append(min(a, b)...max(a, b))
            case "B":
                // B frame state transport_frame valid bar beat tick tick_double bpm beats_per_bar beat_type bbt_offset
                transport.append(TransportRow(frame: Int64(f[1])!, state: Int(f[2])!, transportFrame: Int64(f[3])!, valid: UInt32(f[4])!,
                                              bar: Int(f[5])!, beat: Int(f[6])!, tick: Int(f[7])!, tickDouble: Double(f[8])!,
                                              beatsPerMinute: Double(f[9])!, beatsPerBar: Double(f[10])!, beatType: Double(f[11])!))
            case "XF":
                if let f = Int64(f[1]) { xrunFrames.append(f) }
            case "T":
                if let frame = Int64(f[1]), let time = UInt64(f[2]) { cycleTimes.append((frame, Double(time))) }
            case "M":
                events.append(Event(port: Int(f[1])!, frame: Int64(f[2])!, bytes: f.dropFirst(3).map { UInt8($0, radix: 16)! }))
            default:
                break
            }
        }
    }

    /// Whether the server noticed an xrun from frame `a` to frame `b` (its `XF`
    /// frames): between them the dummy driver woke late, re-anchored or caught
    /// up, so its frames and the host's clock went apart by the lateness. What
    /// Link places in host time cannot be judged in frames across such a span.
    func xrunned(from a: Int64, to b: Int64) -> Bool { xrunFrames.contains { $0 >= a && $0 <= b } }

    /// The cycles (the one before and its own first frame) whose host time
    /// moved from the cycle before's by more than 1 ms off the frames between
    /// them (`T` lines): a late wake-up of the server, or its catching up, with
    /// or without an xrun notice.
    var lateWakeUps: [(from: Int64, to: Int64)] {
        let c = cycleTimes
        return c.indices.dropFirst().compactMap { i in
            let nominal = Double(c[i].frame - c[i - 1].frame) * 1e6 / Double(sampleRate)
            return abs(c[i].microseconds - c[i - 1].microseconds - nominal) > 1_000 ? (c[i - 1].frame, c[i].frame) : nil
        }
    }

    /// Whether the server's frames left the host's clock anywhere from `a` to
    /// `b`: an xrun notice, a cycle the recorder missed, or a late wake-up.
    /// Then a frame stamped on the host's clock by another thread
    /// (`jack_frame_time`) is not the frame a cycle took.
    func leftItsClock(from a: Int64, to b: Int64) -> Bool {
        if xrunned(from: a, to: b) || holes.contains(where: { $0.overlaps(a...max(a, b)) }) { return true }
        return lateWakeUps.contains { $0.to >= a && $0.from <= b }
    }

    /// The host time (µs, the server's clock) of `frame`: the time of the last
    /// cycle at or before it, plus the frames after that cycle's first at the
    /// nominal rate. Nil before the first cycle recorded.
    func hostMicroseconds(atFrame frame: Int64) -> Double? {
        guard let i = lastCycle(where: { $0.frame <= frame }) else { return nil }
        let c = cycleTimes[i]
        return c.microseconds + Double(frame - c.frame) * 1e6 / Double(sampleRate)
    }

    /// The frame at host time `microseconds` (the inverse of `hostMicroseconds`):
    /// where something placed in host time, as Link places its beats, lands in
    /// this recording. Nil before the first cycle recorded.
    func frame(atHostMicroseconds microseconds: Double) -> Int64? {
        guard let i = lastCycle(where: { $0.microseconds <= microseconds }) else { return nil }
        let c = cycleTimes[i]
        return c.frame + Int64(((microseconds - c.microseconds) * Double(sampleRate) / 1e6).rounded())
    }

    /// How far the server's frames went from its host time between frames `a` and
    /// `b` (µs; positive: the frames fell behind, as after a late wake-up).
    func framesFellBehind(from a: Int64, to b: Int64) -> Double? {
        guard let ta = hostMicroseconds(atFrame: a), let tb = hostMicroseconds(atFrame: b) else { return nil }
        return (tb - ta) - Double(b - a) * 1e6 / Double(sampleRate)
    }

    /// The last cycle for which `isBefore` holds (the cycles are in order: a binary search).
    private func lastCycle(where isBefore: ((frame: Int64, microseconds: Double)) -> Bool) -> Int? {
        var low = 0, high = cycleTimes.count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(cycleTimes[mid]) { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// A port recorded with `--levels` as its changes in order: each frame where
    /// its sample became `value` (0 before the first).
    func changes(port: Int) -> [Onset] {
        (onsets + levels).filter { $0.port == port }.sorted { $0.frame < $1.frame }
    }

    func clicks(port: Int = 1) -> [Int64] { onsets.filter { $0.port == port }.map(\.frame) }
    func ticks(port: Int = 1) -> [Int64] { events.filter { $0.port == port && $0.bytes == [0xF8] }.map(\.frame) }
    func midi(port: Int = 1) -> [Event] { events.filter { $0.port == port } }
}

/// How a series of frames sits on an ideal grid of `interval` frames anchored at
/// its first element: the worst error, the grid step of every element (to find
/// missing or extra ones) and the drift of a least-squares line.
struct GridFit: CustomStringConvertible {
    let count: Int
    let maxError: Double
    /// Worst error against the same grid with its phase chosen best: for a
    /// series whose first element is itself a rounded grid position.
    let fittedError: Double
    /// Elements whose grid index is not the previous one's + 1 (missing or extra),
    /// unless every missing position fell in a hole of the recording.
    let gaps: Int
    /// Missing positions that fell where the recorder was not run.
    let unseen: Int
    let driftPPM: Double
    /// Where each gap is: the frames either side and their grid indices, for the failure message.
    let gapPlaces: [String]
    /// Each element's grid index from the first (a position unseen in a hole skipped).
    let indices: [Int64]

    /// With `period` (a server that skips cycles, PipeWire), an event at a cycle's
    /// first frame, off the grid and after the grid position of the event following
    /// the previous one, is that event sent late (the engine's rule for a tick
    /// whose cycle was skipped): after a skip of several periods it may lie nearer
    /// the grid position after it, which rounding would take for a missing event
    /// and a duplicate. A missing event still shows: the next one on the grid jumps.
    init(_ frames: [Int64], interval: Double, holes: [ClosedRange<Int64>] = [], period: Int? = nil) {
        count = frames.count
        guard let first = frames.first else { maxError = .infinity; fittedError = .infinity; gaps = 0; unseen = 0; driftPPM = 0; gapPlaces = []; indices = []; return }
        var unseen = 0
        var worst = 0.0
        var lowest = 0.0, highest = 0.0
        var gaps = 0
        var previousIndex: Int64 = -1
        var previousFrame = first
        var places: [String] = []
        var indices: [Int64] = []
        for f in frames {
            var index = Int64((Double(f - first) / interval).rounded())
            if let period, f % Int64(period) == 0,
               abs(Double(f - first) - Double(index) * interval) > 0.5,
               Double(f - first) > Double(previousIndex + 1) * interval {
                index = previousIndex + 1
            }
            let error = Double(f - first) - Double(index) * interval
            worst = max(worst, abs(error))
            lowest = min(lowest, error)
            highest = max(highest, error)
            if index != previousIndex + 1 {
                let missing = (previousIndex + 1)..<max(previousIndex + 1, index)
                let inHoles = !missing.isEmpty && missing.allSatisfy { j in
                    let position = first + Int64((Double(j) * interval).rounded())
                    return holes.contains { ($0.lowerBound - 1)...($0.upperBound + 1) ~= position }
                }
                if inHoles { unseen += missing.count } else {
                    gaps += 1
                    places.append("#\(previousIndex)@\(previousFrame) → #\(index)@\(f) (error \(error))")
                }
            }
            previousIndex = index
            previousFrame = f
            indices.append(index)
        }
        maxError = worst
        self.unseen = unseen
        fittedError = (highest - lowest) / 2
        self.gaps = gaps
        gapPlaces = places
        self.indices = indices
        // Slope of frame against grid index, compared with the nominal interval.
        let n = Double(frames.count)
        let ys = frames.map { Double($0 - first) }
        let xs = indices.map(Double.init)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        driftPPM = sxx > 0 ? (sxy / sxx / interval - 1) * 1e6 : 0
    }

    var description: String { "\(count) events, max error \(maxError) frames (best phase \(fittedError)), \(gaps) gaps\(gapPlaces.isEmpty ? "" : " \(gapPlaces)"), \(unseen) unseen, drift \(driftPPM) ppm" }
}

/// For a server without a synchronous mode (PipeWire), where cycles are skipped
/// now and then on a loaded machine: each event is on the grid anchored at the
/// first (±0.5 frame), or late at the first frame of a cycle (the engine's rule
/// for a tick whose cycle was skipped, less than two periods late), or near a
/// cycle the recorder itself missed (`holes`, ± one period), or off the grid: a fault.
struct SkipTolerantAudit: CustomStringConvertible {
    /// The events on the grid: what a rate (drift) is measured on, late ones being late by rule.
    var onGridFrames: [Int64] = []
    var onGrid: Int { onGridFrames.count }
    var lateAtCycleStart = 0
    var nearHole = 0
    var offGrid: [Int64] = []

    init(_ frames: [Int64], interval: Double, period: Int, holes: [ClosedRange<Int64>]) {
        guard let first = frames.first else { return }
        for f in frames {
            let e = Double(f - first) - (Double(f - first) / interval).rounded() * interval
            if abs(e) <= 0.5 { onGridFrames.append(f) }
            else if f % Int64(period) == 0 && e > 0 && e < Double(2 * period) { lateAtCycleStart += 1 }
            else if holes.contains(where: { ($0.lowerBound - Int64(period))...($0.upperBound + Int64(period)) ~= f }) { nearHole += 1 }
            else { offGrid.append(f) }
        }
    }

    var description: String { "\(onGrid) on the grid, \(lateAtCycleStart) late at a cycle start, \(nearHole) near a recorder hole, off the grid: \(offGrid)" }
}
