/// Latency alignment (`--align`, docs/DESIGN.md §3.8): how much later than the
/// grid each output is sent, so that what reaches the ears (the click), the
/// MIDI device (the clock) and the sync input (the sync lines) coincide.
///
/// Tactus cannot send anything before the grid's own frame, so an output is
/// "sent early by its path's latency" by delaying every other output by the
/// difference: the output with the longest playback latency goes on the grid,
/// the others `longest - own` frames after it.
public struct OutputShifts: Sendable, Equatable, BitwiseCopyable {
    public var click: Int32
    public var clock: Int32
    public var sync: Int32

    public init(click: Int32 = 0, clock: Int32 = 0, sync: Int32 = 0) {
        self.click = click
        self.clock = clock
        self.sync = sync
    }

    /// The shifts that align outputs with these playback latencies (frames; nil:
    /// the output is not connected, so it neither sets the longest path nor is
    /// shifted). Each shift is at most `limit` frames.
    public static func aligning(click: Int?, clock: Int?, sync: Int?, limit: Int) -> OutputShifts {
        let longest = [click, clock, sync].compactMap { $0 }.max() ?? 0
        func shift(_ latency: Int?) -> Int32 {
            guard let latency else { return 0 }
            return Int32(clamping: min(limit, max(0, longest - latency)))
        }
        return OutputShifts(click: shift(click), clock: shift(clock), sync: shift(sync))
    }
}

/// What each output's delay is made of: the `--clock-offset` trim (positive
/// delays the clock, negative the click and the sync lines, which sound with
/// the click) on top of the alignment shifts.
struct OutputDelays: BitwiseCopyable {
    var clockOffset: Int32 = 0
    var shifts = OutputShifts()

    var click: Int64 { Int64(shifts.click) + max(0, -Int64(clockOffset)) }
    var clock: Int64 { Int64(shifts.clock) + max(0, Int64(clockOffset)) }
    var sync: Int64 { Int64(shifts.sync) + max(0, -Int64(clockOffset)) }
}

extension Engine {
    /// The alignment shifts in force (frames).
    public var outputShifts: OutputShifts { delays.shifts }

    /// New alignment shifts, from the events the grid places next: events
    /// already queued keep their frames, so none is sent twice or lost
    /// (`MIDIOutput` keeps the stream in order, `SyncOutput` keeps every
    /// pulse's rising edge when a shorter delay brings one nearer).
    mutating func setAlignment(_ shifts: OutputShifts) {
        delays.shifts = shifts
        applyDelays()
    }

    mutating func setClockOffset(_ frames: Int32) {
        delays.clockOffset = frames
        applyDelays()
    }

    mutating func applyDelays() {
        midi.setDelay(delays.clock)
        audio.setDelay(delays.click)
        sync.setDelay(delays.sync)
    }
}
