/// The sync side of the engine (docs/DESIGN.md §14): the edges the grid placed,
/// waiting for their frame, and the state of the two lines between blocks.
///
/// The engine's grid loop calls `pulse`, `reset`, `run` at the frame of a grid
/// point (the click's rounded frame, plus the click's delay); `render` writes the
/// lines of one block. A pulse that starts near a block's end goes on into the
/// next block: the line state (`clockHighUntil`, `resetHighUntil`, `running`)
/// outlives the block, as a sounding click's voice does.
struct SyncOutput: ~Copyable {
    private(set) var settings: SyncSettings?
    /// The pulse width in frames; nil: half of each pulse's interval (DIN sync's square wave).
    private var widthFrames: Int64?
    private var queue = SyncEdgeQueue(capacity: 1024)
    /// The first frame at which the clock line is low again after its last pulse.
    private var clockHighUntil: Int64 = .min
    /// The same for the reset line.
    private var resetHighUntil: Int64 = .min
    /// The run line's level from the last edge rendered on.
    private var running = false
    /// Delay of the lines against the grid (a negative clock offset plus the
    /// alignment shift, `OutputDelays`); the grid loop adds it to each frame.
    private(set) var delay: Int64 = 0
    /// Where the last clock and reset pulses queued end: a shorter delay taken
    /// mid-run must not bring a pulse onto the one before it (two pulses
    /// merged would be one pulse lost to the device counting them).
    private var lastClockEnd: Int64 = .min
    private var lastResetEnd: Int64 = .min

    /// Full scale on an audio output: a pulse is +1.0, the line at rest 0 (§14.4).
    static let high: Float = 1

    init(settings: SyncSettings?, sampleRate: Int) {
        self.settings = settings
        widthFrames = settings?.widthFrames(sampleRate: sampleRate)
    }

    mutating func setDelay(_ frames: Int64) { delay = frames }

    /// The width in frames at a new sample rate; edges already queued keep their frames.
    mutating func resample(to rate: Int) {
        widthFrames = settings?.widthFrames(sampleRate: rate)
    }

    /// A clock pulse rising at `frame`, `interval` frames before the next one
    /// is due at the tempo in force. It lasts its width, at most half the
    /// interval, so the line falls before the next pulse rises and every pulse
    /// has its rising edge.
    mutating func pulse(at frame: Int64, interval: Int64, status: borrowing EngineStatus) {
        let half = max(1, interval / 2)
        let edge = SyncEdge(frame: max(frame, lastClockEnd + 1), action: .clock, width: min(widthFrames ?? half, half))
        lastClockEnd = edge.frame + edge.width
        append(edge, status: status)
    }

    /// A reset pulse rising at `frame` on the second line (modular `--sync-reset bar`).
    mutating func reset(at frame: Int64, interval: Int64, status: borrowing EngineStatus) {
        guard settings?.resetsOnBars == true else { return }
        let half = max(1, interval / 2)
        let edge = SyncEdge(frame: max(frame, lastResetEnd + 1), action: .reset, width: min(widthFrames ?? half, half))
        lastResetEnd = edge.frame + edge.width
        append(edge, status: status)
    }

    /// The run line rises (Start, Continue) or falls (Stop) at `frame` (DIN sync).
    mutating func run(_ high: Bool, at frame: Int64, status: borrowing EngineStatus) {
        guard settings?.kind.hasRunLine == true else { return }
        append(SyncEdge(frame: frame, action: high ? .runHigh : .runLow, width: 0), status: status)
    }

    private mutating func append(_ edge: SyncEdge, status: borrowing EngineStatus) {
        if !queue.append(edge) { status.droppedEvents.add(1, ordering: .relaxed) }
    }

    /// The block's samples of the clock line into `clock` and of the second
    /// line (run or reset) into `second`, each `frames` long (either may be
    /// nil: the lines still advance). An edge whose frame has passed (skipped
    /// cycles) takes effect at the block's first frame.
    /// Inlined, so that without a sync output (the usual run: nothing to
    /// write, no edge to take) the cycle pays a comparison, not a call.
    @inline(__always)
    mutating func render(blockStart: Int64, frames: Int, clock: UnsafeMutablePointer<Float>?, second: UnsafeMutablePointer<Float>?) {
        if clock == nil && second == nil && queue.first == nil { return }
        renderLines(blockStart: blockStart, frames: frames, clock: clock, second: second)
    }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    private mutating func renderLines(blockStart: Int64, frames: Int, clock: UnsafeMutablePointer<Float>?, second: UnsafeMutablePointer<Float>?) {
        let end = blockStart + Int64(frames)
        var position = 0
        while let edge = queue.first, edge.frame < end {
            let offset = max(position, Int(max(0, edge.frame - blockStart)))
            write(blockStart: blockStart, from: position, to: offset, clock: clock, second: second)
            position = offset
            switch edge.action {
            case .clock: clockHighUntil = edge.frame + edge.width
            case .reset: resetHighUntil = edge.frame + edge.width
            case .runHigh: running = true
            case .runLow: running = false
            }
            queue.removeFirst()
        }
        write(blockStart: blockStart, from: position, to: frames, clock: clock, second: second)
    }

    /// Offsets `from..<to` of the block at the lines' levels now.
    private func write(blockStart: Int64, from: Int, to: Int, clock: UnsafeMutablePointer<Float>?, second: UnsafeMutablePointer<Float>?) {
        guard from < to else { return }
        if let clock { Self.fill(clock, from: from, to: to, highBefore: Self.offset(clockHighUntil, in: blockStart)) }
        if let second {
            if running {
                for i in from..<to { second[i] = Self.high }
            } else {
                Self.fill(second, from: from, to: to, highBefore: Self.offset(resetHighUntil, in: blockStart))
            }
        }
    }

    /// A frame as an offset in the block that starts at `blockStart`; 0 for a frame before it.
    private static func offset(_ frame: Int64, in blockStart: Int64) -> Int64 {
        frame <= blockStart ? 0 : frame - blockStart
    }

    /// High from `from` up to the offset `highBefore`, low after it, up to `to`.
    /// Plain loops: the real-time checker sees through them (docs/DESIGN.md §2.2).
    private static func fill(_ out: UnsafeMutablePointer<Float>, from: Int, to: Int, highBefore: Int64) {
        let split = Int(min(Int64(to), max(Int64(from), highBefore)))
        for i in from..<split { out[i] = high }
        for i in split..<to { out[i] = 0 }
    }
}

/// An edge of a sync line at its output frame.
struct SyncEdge: BitwiseCopyable {
    enum Action: UInt8, BitwiseCopyable {
        /// A clock pulse of `width` frames.
        case clock
        /// A reset pulse of `width` frames on the second line.
        case reset
        /// The run line rises or falls.
        case runHigh, runLow
    }
    var frame: Int64
    var action: Action
    var width: Int64
}

/// Sync edges waiting for their frame (the click's delay can hold them past
/// the block). One thread; allocated once; `append` refuses when full. A
/// concrete queue, as `ClickQueue` and for the same reason (EventQueue.swift).
struct SyncEdgeQueue: ~Copyable {
    private let storage: UnsafeMutablePointer<SyncEdge>
    private var indices: QueueIndices

    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
        Prefault.touch(storage, count: capacity)
        indices = QueueIndices(capacity: capacity)
    }

    deinit { storage.deallocate() }

    mutating func append(_ e: SyncEdge) -> Bool {
        guard let slot = indices.append() else { return false }
        (storage + slot).initialize(to: e)
        return true
    }

    var first: SyncEdge? {
        guard let slot = indices.first else { return nil }
        return storage[slot]
    }
    mutating func removeFirst() { indices.removeFirst() }
}
