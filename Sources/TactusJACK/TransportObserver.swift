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
struct TransportObserver: BitwiseCopyable {
    private(set) var rolling = false
    /// `JackTransportStarting` after rolling: held at the new frame for this cycle.
    private(set) var relocating = false
    private var moving = false
    private var frame: UInt32 = 0
    private var seen = false

    /// This cycle's state and frame: (the roll started or stopped, the frame jumped).
    @_noLocks @_noAllocation
    mutating func observe(_ state: jack_transport_state_t, frame f: UInt32, frames: UInt32) -> (changed: Bool, located: Bool) {
        // Raw values: the imported enum's `==` is the standard library's generic one.
        let nowMoving = state.rawValue == JackTransportRolling.rawValue
        let starting = state.rawValue == JackTransportStarting.rawValue
        let nowRolling = nowMoving || (starting && rolling)
        let expected = moving ? frame &+ frames : frame
        let first = !seen
        defer {
            relocating = starting && nowRolling
            rolling = nowRolling
            moving = nowMoving
            frame = f
            seen = true
        }
        guard !first else { return (true, false) }
        let changed = nowRolling != rolling
        return (changed, !changed && f != expected)
    }
}
