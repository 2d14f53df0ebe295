/// What a transport the engine shares with other programs did this cycle
/// (JACK transport in `join` and `master`, docs/DESIGN.md §13.3), at its own
/// frame: it started rolling, or it was located while rolling and is held at
/// its new frame for this cycle. The engine takes either in the cycle that
/// sees it, in bars of its own grid (`Engine.transportBar(atFrame:)`).
public enum TransportMove: Sendable, BitwiseCopyable, Equatable {
    case started(frame: UInt32)
    case located(frame: UInt32)
}

/// Everything a host tells the engine about one block, handed over in one
/// call (`Engine.cycle`): where the block is, what its time source owns
/// (docs/DESIGN.md §9), and what a shared transport did in it. The source's
/// position comes from the `CycleSource` given beside it, since a source that
/// takes requests (Link) answers with a position that depends on them.
public struct CycleInput: Sendable, BitwiseCopyable {
    /// The block's first engine frame and its length.
    public var start: Int64
    public var frames: Int
    /// What the block's time source owns: nothing for the engine's own time.
    public var owner: SourceOwnership
    /// A start or a locate of the shared transport seen this cycle, if any.
    public var transport: TransportMove?

    public init(start: Int64, frames: Int, owner: SourceOwnership = SourceOwnership(), transport: TransportMove? = nil) {
        self.start = start
        self.frames = frames
        self.owner = owner
        self.transport = transport
    }
}

/// The block's time source, asked once a cycle, after the engine applied the
/// commands and gathered what the player asked of the source
/// (`TimeSourceRequests`): its position for the block (nil: the engine's own
/// anchor). `pulsesPerBeat` is the meter's beat, in which a source's beats
/// become song pulses.
public protocol CycleSource {
    mutating func position(answering requests: TimeSourceRequests, pulsesPerBeat: Int64) -> TimelinePosition?
}

/// A source whose position is known before the cycle (a host's `time:Position`,
/// a scripted test source, none at all): it keeps the requests it was given.
public struct GivenPosition: CycleSource, BitwiseCopyable {
    public var position: TimelinePosition?
    /// What the player asked of the source in the last cycle.
    public private(set) var requests = TimeSourceRequests()

    public init(_ position: TimelinePosition? = nil) { self.position = position }

    public mutating func position(answering requests: TimeSourceRequests, pulsesPerBeat: Int64) -> TimelinePosition? {
        self.requests = requests
        return position
    }
}

extension Engine {
    /// One block, the only way a host drives the engine (the JACK cycle,
    /// LV2's run, `tactus render`, the tests): the queued commands are applied
    /// under what the source owns, a transport start taken, the requests
    /// gathered since the last block handed to the source, the block rendered
    /// at the position it answers, and a transport locate taken at the block's
    /// end. Writes the click into `click`, feedback cues into `feedback` and
    /// the sync lines into `sync` (each `input.frames` long, may be nil) and
    /// the block's MIDI events into `events` (cleared first).
    ///
    /// Inlinable so that the source's call is specialized in the host's
    /// module, where the compiler's real-time check sees it; the two halves
    /// carry `@_noLocks @_noAllocation`, so the check trusts them there (and
    /// checks them here).
    @inlinable
    public mutating func cycle<Source: CycleSource>(_ input: CycleInput, source: inout Source, control: borrowing EngineControl,
                                                    click: UnsafeMutablePointer<Float>?, feedback: UnsafeMutablePointer<Float>?,
                                                    events: inout MIDIEventBuffer, sync: SyncBuffers = SyncBuffers()) {
        let asked = beginCycle(input, control: control)
        let position = source.position(answering: asked.requests, pulsesPerBeat: asked.pulsesPerBeat)
        endCycle(input, position: position, control: control, click: click, feedback: feedback, events: &events, sync: sync)
    }

    // The two halves carry the real-time check in release builds
    // (REALTIME_CHECKS), which see the whole module; a debug build checks
    // file by file and cannot see into the engine's other files.

    /// The block's commands and a transport start; returns the requests for
    /// the source gathered since the last block (cleared) and the meter's beat.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    @usableFromInline
    mutating func beginCycle(_ input: CycleInput, control: borrowing EngineControl) -> (requests: TimeSourceRequests, pulsesPerBeat: Int64) {
        owner = input.owner
        while let command = control.commands.pop() {
            apply(command, blockStart: input.start, control: control)
        }
        if case .started(let frame)? = input.transport {
            transportStarted(atBar: transportBar(atFrame: frame), blockStart: input.start, control: control)
        }
        defer { sourceRequests = TimeSourceRequests() }
        return (sourceRequests, pulsesPerBeat)
    }

    /// The block at the source's position, then a transport locate.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    @usableFromInline
    mutating func endCycle(_ input: CycleInput, position: TimelinePosition?, control: borrowing EngineControl,
                           click: UnsafeMutablePointer<Float>?, feedback: UnsafeMutablePointer<Float>?, events: inout MIDIEventBuffer,
                           sync: SyncBuffers = SyncBuffers()) {
        render(frames: input.frames, at: input.start, control: control, click: click, feedback: feedback, events: &events,
               position: position, sync: sync)
        // Held at its new frame for this cycle: the next one starts there, and a timebase callback publishes it next.
        if case .located(let frame)? = input.transport {
            transportLocated(toBar: transportBar(atFrame: frame), atFrame: input.start + Int64(input.frames), control: control)
        }
    }

    /// The bar (from 1) that a shared transport's frame is in at the grid's
    /// tempo and meter now: a transport Tactus located or started counts its
    /// frames from bar 1 at Tactus's tempo (docs/DESIGN.md §13.2).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func transportBar(atFrame frame: UInt32) -> Int32 {
        Int32(clamping: Int64(Double(frame) / framesPerBar) + 1)
    }

    /// The first transport frame of bar `bar` (from 1), the inverse of `transportBar(atFrame:)`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func transportFrame(ofBar bar: Int) -> UInt32 {
        // Rounded half away from zero, as `rounded()`, whose rounding rule the real-time check refuses.
        UInt32(clamping: Int64(max(0, Double(bar - 1) * framesPerBar) + 0.5))
    }

    /// A bar's frames at the grid's tempo and meter.
    var framesPerBar: Double {
        Double(sampleRate) * 60 / max(grid.tempo.value, 1) * Double(max(pattern.bar.meter.beatsPerBar, 1))
    }
}
