import CJack

/// JACK transport from one cycle to the next, on the process thread: whether
/// it rolls, and whether its frame jumped (a locate).
///
/// jack2's transport engine moves the frame only in a cycle that is
/// `JackTransportRolling`, and passes through `JackTransportStarting` for at
/// least one cycle when it starts and when it is located while rolling (while
/// slow-sync clients get ready, none here), standing at the new frame there.
/// So: a frame other than the last one plus the period after a rolling cycle,
/// or the last one after any other, is somebody's `jack_transport_locate`; a
/// transport starting from a stop rolls from its first `Rolling` cycle; one
/// starting again after a locate while rolling is still rolling (`relocating`:
/// held at its new frame, which it leaves from the next cycle's first frame).
///
/// A roll is also the frame moved by the frames the clock moved since the last
/// cycle seen (`cycleFrame`, the cycle's `jack_last_frame_time`): a cycle this
/// client missed (an xrun, a PipeWire cycle a node skipped, the sounding gate
/// holding) leaves the transport further on, by exactly what it missed, and
/// that is no locate. PipeWire's JACK showed it: a locate answered after every
/// recorder hole, 21 in 10 s, before the rule. Nor is a rolling cycle's frame
/// whole periods off the clock and back the cycle after (PipeWire, §13.6).
struct TransportObserver: BitwiseCopyable {
    private(set) var rolling = false
    /// `JackTransportStarting` after rolling: held at the new frame for this cycle.
    private(set) var relocating = false
    private var moving = false
    private var frame: UInt32 = 0
    /// The clock's frame less the transport's in the last rolling cycle whose
    /// frame the clock agreed with (or a locate set): what a roll keeps.
    private var lead: UInt32?
    /// This cycle's transport frame where the clock puts it, when JACK's was
    /// whole periods off it (PipeWire's shim, §13.6): the frame to play from.
    private(set) var clockFrame: UInt32?
    private var seen = false
    /// Not read for a while (`off`, docs/DESIGN.md §13.5): the next reading is
    /// the transport as it is then, neither a roll started nor a locate.
    private var resuming = false

    /// The transport is not read from here on (`off`); the reading that ends it
    /// tells no change.
    @_noLocks @_noAllocation
    mutating func forget() {
        guard seen || !resuming else { return }
        self = TransportObserver()
        resuming = true
    }

    /// This cycle's state and frame (`cycleFrame`: the cycle's
    /// `jack_last_frame_time`): (the roll started or stopped, the frame jumped).
    @_noLocks @_noAllocation
    mutating func observe(_ state: jack_transport_state_t, frame f: UInt32, frames: UInt32,
                          cycleFrame c: UInt32? = nil) -> (changed: Bool, located: Bool) {
        // Raw values: the imported enum's `==` is the standard library's generic one.
        let nowMoving = state.rawValue == JackTransportRolling.rawValue
        let starting = state.rawValue == JackTransportStarting.rawValue
        let nowRolling = nowMoving || (starting && rolling)
        let expected = moving ? frame &+ frames : frame
        // From Rolling to Rolling, the frame the clock gives (wrapping: both
        // counts are 32-bit) is a roll; so is one up to four whole periods off
        // it, PipeWire's shim for a cycle or two (docs/DESIGN.md §13.6), never
        // a locate (jack2 and PipeWire pass every locate while rolling through
        // `Starting`, §13.1).
        var rolledOn = false
        clockFrame = nil
        if moving, nowMoving, let c, let lead {
            let byClock = c &- lead
            let off = Int64(Int32(bitPattern: f &- byClock))
            let period = Int64(max(frames, 1))
            if off == 0 {
                rolledOn = true
            } else if off % period == 0 && abs(off) <= 4 * period {
                rolledOn = true
                clockFrame = byClock
            }
        }
        let first = !seen
        defer {
            lead = nowMoving ? (clockFrame == nil ? c.map { $0 &- f } : lead) : nil
            relocating = starting && nowRolling
            rolling = nowRolling
            moving = nowMoving
            frame = f
            seen = true
            resuming = false
        }
        guard !first else { return (!resuming, false) }
        let changed = nowRolling != rolling
        return (changed, !changed && f != expected && !rolledOn)
    }
}
