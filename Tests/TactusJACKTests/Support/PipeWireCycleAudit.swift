import Foundation

/// Where PipeWire ran the graph out of step, as the recorder's own cycles show
/// it: a hole (cycles the recorder was not run for, or a cycle run twice: its
/// frame time stepped back), or a cycle whose host time (`T` lines) moved half a
/// period or more away from its frames (run a period late, its frame time one
/// behind). PipeWire has no synchronous mode: it skips a late client's cycle and
/// its frame time steps around the skip.
enum PipeWireDisturbance {
    static func spans(_ r: Recording) -> [ClosedRange<Int64>] {
        let period = Int64(r.period)
        var spans = r.holes
        for (a, b) in zip(r.cycleTimes, r.cycleTimes.dropFirst()) {
            let byClock = (b.microseconds - a.microseconds) * Double(r.sampleRate) / 1e6
            if abs(byClock - Double(b.frame - a.frame)) >= Double(period) / 2 || b.frame - a.frame != period {
                spans.append(min(a.frame, b.frame)...(max(a.frame, b.frame) + period))
            }
        }
        // One span for a run of cycles out of step (those touching or a period apart).
        var merged: [ClosedRange<Int64>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound + period {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// How far from a span an event's grid frame may lie and still be its: two
    /// periods, one for the cycle after the span (the recorder's own catch-up
    /// shows there: a cycle run with no host time since the last), one because
    /// Tactus's node is scheduled apart from the recorder's and may come out of
    /// step a cycle later. Beyond that a recording has shown, rarely, a tick one
    /// period early or missing three cycles after the recorder's last step:
    /// Tactus's own skipped cycles, which only its count of gaps shows.
    static let slackPeriods: Int64 = 2

    /// Tactus's own account of the gaps it was not run for (its exit line,
    /// `JackMetronomeShutdown`: "not run for N frames (M ms) in G gaps"): the
    /// gaps and their frames all told, 0 and 0 when it says nothing.
    static func tactusGaps(_ log: String) -> (gaps: Int, frames: Int64) {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("not run for") && $0.contains(" gaps") }),
              let gaps = line.firstMatch(of: /in (\d+) gaps/), let frames = line.firstMatch(of: /not run for (\d+) frames/) else { return (0, 0) }
        return (Int(gaps.output.1) ?? 0, Int64(frames.output.1) ?? 0)
    }

    /// Whether a sound at `frame` that is not a click's first sample is the
    /// tail of the click at `click`, found again after Tactus's own gaps: at a
    /// cycle's first frame, within the sound's `length` and the frames Tactus
    /// was not run for, a period at least for each gap and at most all of them
    /// (and the period the tail resumes in).
    static func isTail(at frame: Int64, of click: Int64, length: Int64, gaps: (gaps: Int, frames: Int64), period: Int64) -> Bool {
        frame % period == 0 && frame - click < length + min(period * Int64(1 + gaps.gaps), gaps.frames + period)
    }
}

/// Every event of one port against the grid anchored at the first, each one
/// put in a class by what the recording shows (docs/DESIGN.md §3.6), nothing
/// allowed by number. "Beside a disturbance" (`PipeWireDisturbance`): the grid
/// frame in it or within `slackPeriods` of it, the event found before its end
/// and that slack.
/// * on the grid, ±0.5 frame;
/// * moved by whole periods, ±0.5 frame, its place in the cycle exact: Tactus
///   placed it in its block, and PipeWire labelled that block with another
///   cycle's frame time (the block of a cycle run late read a later frame time,
///   or reached the recorder in a later cycle), beside a disturbance;
/// * late at a cycle's first frame, beside a disturbance: a tick due in cycles
///   skipped there, sent at the next block's first frame (Tactus's rule; a
///   click due there is dropped, never late);
/// * a click's tail (`value` not a click's first sample) at a cycle's first
///   frame, beside a disturbance around its click: the sound found again after
///   cycles whose output did not reach the recorder; with no disturbance the
///   recorder saw, a tail resumed after Tactus's own skipped cycles is charged
///   one of its gaps per period it came late;
/// * anything else is off the grid: a fault. So is an event on a grid position
///   taken already (sent twice).
/// A grid position with no event is the output of a cycle that came too late,
/// dropped by the server: allowed beside a disturbance. A move of one period,
/// a lateness under a period, a tail or a missing event with no disturbance
/// the recorder saw is charged to a gap Tactus itself reported
/// (`tactusGaps`: its cycles PipeWire skipped while the recorder's ran): at
/// most that many.
struct PipeWireCycleAudit: CustomStringConvertible {
    var onGridFrames: [Int64] = []
    var onGrid: Int { onGridFrames.count }
    var moved: [String] = []
    var lateAtCycleStart: [String] = []
    var tails = 0
    /// Grid positions with no event beside no disturbance (in `unseenByRecorder` too).
    var missing: [Int64] = []
    /// Moves, lateness or missing events with no disturbance in the recording: Tactus's own gaps.
    var unseenByRecorder: [String] = []
    var offGrid: [String] = []
    let tactusGaps: Int

    /// The verdict: nothing off the grid, and what no disturbance explains no
    /// more than Tactus's own gaps.
    var holds: Bool { offGrid.isEmpty && unseenByRecorder.count <= tactusGaps }

    /// `firstSamples`: a click's first sample values (its onsets); nil for MIDI.
    /// `length`: a click's sound in frames.
    init(_ events: [(frame: Int64, value: Float?)], interval: Double, period: Int, spans: [ClosedRange<Int64>],
         tactusGaps: Int, framesNotRun: Int64 = 0, firstSamples: Set<Float>? = nil, length: Int64 = 0) {
        self.tactusGaps = tactusGaps
        let sorted = events.sorted { $0.frame < $1.frame }
        /// An event that can be on the grid: any tick, a click's onset (not its tail).
        func isOnset(_ value: Float?) -> Bool {
            guard let firstSamples else { return true }
            return value.map(firstSamples.contains) ?? false
        }
        guard let first = sorted.first(where: { isOnset($0.value) })?.frame else { return }
        let p = Int64(period)
        func position(_ k: Int64) -> Double { Double(first) + Double(k) * interval }
        /// The disturbance a grid frame lies in or a period beside, if any.
        func disturbance(at g: Double, slack: Int64 = 0) -> ClosedRange<Int64>? {
            let beside = PipeWireDisturbance.slackPeriods * p
            return spans.first { Double($0.lowerBound - beside - slack) <= g && g < Double($0.upperBound + beside) }
        }
        /// Found again no later than the disturbance's end and the slack after it.
        func after(_ d: ClosedRange<Int64>, _ f: Int64) -> Bool { f < d.upperBound + PipeWireDisturbance.slackPeriods * p }
        var next: Int64 = 0
        func take(_ k: Int64, _ why: String?) {
            if k < next { offGrid.append("\(why ?? "on the grid") #\(k) again"); return }
            for j in next..<k {
                let g = position(j)
                if disturbance(at: g) == nil { missing.append(Int64(g.rounded())) }
            }
            next = k + 1
        }
        for (f, value) in sorted where f >= first {
            let offset = Double(f - first)
            let k = Int64((offset / interval).rounded())
            if abs(offset - Double(k) * interval) <= 0.5 && isOnset(value) {
                onGridFrames.append(f)
                take(k, nil)
                continue
            }
            if let firstSamples, let value, !firstSamples.contains(value) {
                // A click's tail at a cycle's first frame, after the grid frame of the click it belongs to.
                let k = Int64((offset / interval).rounded(.down))
                let late = Double(f) - position(k)
                if f % p == 0, let d = disturbance(at: position(k), slack: length), after(d, f) {
                    tails += 1
                } else if PipeWireDisturbance.isTail(at: f, of: Int64(position(k).rounded()), length: length, gaps: (tactusGaps, framesNotRun), period: p) {
                    // Resumed after cycles of Tactus's that PipeWire skipped (its
                    // own gaps): the sound went on that many periods later. Each
                    // period past the click's length is one gap at least.
                    let periods = max(1, Int(((late - Double(length)) / Double(p)).rounded(.up)))
                    for _ in 0..<periods { unseenByRecorder.append("tail \(f), \(late) after its click") }
                } else {
                    offGrid.append("tail \(f) (\(value)), \(late) after a click's frame")
                }
                continue
            }
            // Whole periods either way, the place in the cycle exact.
            var placed = false
            for n in [1, 2, 3, 4, -1, -2] as [Int64] {
                let g = offset - Double(n * p)
                let j = Int64((g / interval).rounded())
                guard j >= next, abs(g - Double(j) * interval) <= 0.5 else { continue }
                let d = disturbance(at: position(j))
                let label = "\(f) (#\(j) moved \(n) periods)"
                if let d, n < 0 || after(d, f) { moved.append(label) } else if abs(n) == 1 { unseenByRecorder.append(label) } else { continue }
                take(j, label)
                placed = true
                break
            }
            if placed { continue }
            // Late at a cycle's first frame: the first grid position not yet sent
            // that a disturbance explains (the ones before it dropped by the
            // server, judged as missing), else the last before this frame.
            if f % p == 0, position(next) < Double(f) {
                let last = Int64(((Double(f) - Double(first)) / interval).rounded(.up)) - 1
                let explained = (next...max(next, last)).first { j in
                    guard let d = disturbance(at: position(j)) else { return false }
                    return after(d, f)
                }
                let j = explained ?? last
                let late = Double(f) - position(j)
                let label = "\(f) (#\(j) \(late) late)"
                if explained != nil { lateAtCycleStart.append(label) } else if late < Double(p) { unseenByRecorder.append(label) } else { offGrid.append(label) }
                take(j, label)
                continue
            }
            offGrid.append("\(f) (\(offset - Double(k) * interval) from #\(k))")
        }
        unseenByRecorder += missing.map { "missing at \($0)" }
    }

    var description: String {
        "\(onGrid) on the grid, \(moved.count) moved whole periods by PipeWire's frame time \(moved), \(lateAtCycleStart.count) late at a cycle start after a skip \(lateAtCycleStart), \(tails) click tails after a skip, \(unseenByRecorder.count) beside no disturbance the recorder saw \(unseenByRecorder) (Tactus's own gaps \(tactusGaps)), off the grid: \(offGrid)"
    }
}
