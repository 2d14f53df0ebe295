import CJack
import TactusCore

/// What one cycle read of JACK transport: in follow mode the block's position
/// from the timebase master's BBT (the time-source seam), and in `join` and
/// `master` a start, or a locate while rolling, that the engine takes in this
/// cycle (`CycleInput.transport`, docs/DESIGN.md §13.3).
struct TransportReading: BitwiseCopyable {
    var position: TimelinePosition?
    var move: TransportMove?
}

extension ProcessCycle {
    /// JACK transport, once a cycle (`jack_transport_query`), in every mode but
    /// `off` (where nobody uses it: about 250 instructions a cycle saved,
    /// docs/DESIGN.md §13.5; a mode a preset switches to starts from the
    /// transport as it is then): what it does goes to the control thread
    /// (`JackTransportLink`: start, stop, locate); in follow mode
    /// the cycle's position for the engine's time-source seam: the master's BBT
    /// (`BBTFollower`), or without a master the transport frame at Tactus's own tempo.
    /// Generic over the cycle's host: checked as `run(_:frames:)` specializes it.
    static func readTransport<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, host: inout Host, frames: jack_nframes_t,
                                               jackFrame: UInt32) -> TransportReading {
        let shared = context.pointee.shared
        let mode = TransportCycleMode.current(shared)
        guard mode.reads else {
            context.pointee.transport.forget()
            context.pointee.follower.reset()
            return TransportReading()
        }
        var position = jack_position_t()
        let state = host.transportQuery(&position)
        let seen = context.pointee.transport.observe(state, frame: position.frame, frames: frames, cycleFrame: jackFrame)
        let rolling = context.pointee.transport.rolling
        let hasBBT = position.valid.rawValue & JackPositionBBT.rawValue != 0
        // join and master (not with Link, whose session owns start and stop): a
        // start, and a locate while rolling, are the engine's in this cycle.
        let takes = mode.reads && !mode.follows && context.pointee.link == nil && !context.pointee.dry
        var reading = TransportReading()
        // Whether a locate is anyone's to follow is decided here only: the
        // echo of Tactus's own locate, or jack2's reposition after a release.
        let echo = seen.located && isEcho(shared, frame: position.frame)
        if takes && seen.changed && rolling {
            reading.move = .started(frame: position.frame)
        } else if takes && seen.located && context.pointee.transport.relocating && !echo {
            reading.move = .located(frame: position.frame)
            shared.pointee.transportLocatesTaken.add(1, ordering: .relaxed)
        }
        // A roll started or stopped is news to the control thread only against
        // what it was last told: the observer's first reading is a change by
        // its own count, a stopped one nobody's stop.
        let rollingChanged = rolling != shared.pointee.transportRolling.load(ordering: .relaxed)
        shared.pointee.transportRolling.store(rolling, ordering: .relaxed)
        shared.pointee.transportFrame.store(position.frame, ordering: .relaxed)
        shared.pointee.timebasePresent.store(hasBBT, ordering: .relaxed)
        if seen.changed || seen.located {
            if seen.changed && rollingChanged {
                shared.pointee.cycleEvents.push(rolling ? .transportStarted(frame: position.frame) : .transportStopped(frame: position.frame))
            }
            var taken = false
            if case .located? = reading.move { taken = true }
            if seen.located && !taken && !echo { shared.pointee.cycleEvents.push(.transportLocated(frame: position.frame)) }
            context.pointee.wakeControlThread = true
        }
        // Not following: a follow a preset switches to later starts its phase afresh.
        guard mode.follows else { context.pointee.follower.reset(); return reading }
        // A new roll starts the phase again; a locate keeps it (a master's map
        // is one of the frame: the line is the same unless the BBT says not,
        // and PipeWire's missed cycles look like locates, docs/DESIGN.md §13.6).
        if seen.changed { context.pointee.follower.reset() }
        if seen.changed || seen.located { context.pointee.follower.lostCount() }
        guard rolling && !context.pointee.dry else {
            reading.position = TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0)
            return reading
        }
        // PipeWire's shim (docs/DESIGN.md §13.6) gives a rolling cycle a transport
        // frame whole periods off the one JACK's frame time puts it at, and the
        // right one again the cycle after: the song goes on from the frame time.
        if let byClock = context.pointee.transport.clockFrame { position.frame = byClock }
        var timeline: TimelinePosition
        if let bbt = context.pointee.follower.position(position, frames: frames, located: seen.located) {
            timeline = bbt
        } else {
            let framesPerPulse = context.pointee.ownFramesPerPulse
            timeline = TimelinePosition(rolling: true, songPulse: Double(position.frame) / framesPerPulse, framesPerPulse: framesPerPulse)
        }
        // Held at a locate's new frame for this cycle: that frame is the next cycle's first.
        if context.pointee.transport.relocating && !context.pointee.follower.heldOver { timeline.songPulse -= Double(frames) / timeline.framesPerPulse }
        reading.position = timeline
        return reading
    }
}
