import CJack
import Synchronization

/// Whether the cycles of a newly activated client sound yet.
///
/// JACK connects only the ports of an active client (jackd2 refuses with
/// "Cannot connect ports owned by inactive clients"), so after `jack_activate`
/// the process callback runs before Tactus' connections exist, for several
/// cycles on a loaded machine. Whatever the engine rendered then was lost: on a
/// server back at another rate, the downbeat, the Song Position Pointer and the
/// Continue (a slave stayed stopped), and the click that began unconnected was
/// heard from the first cycle its connection was in, whole periods off the grid.
///
/// So the supervisor closes the gate before activating and opens it once the
/// connections are made, from a JACK frame (`margin`). Cycles before it write
/// silence and leave the engine and its timeline alone, so the grid goes on
/// exactly where it was. Once a cycle has sounded the gate stays open (the
/// 32-bit frame time wraps after a day).
struct SoundingGate: ~Copyable, @unchecked Sendable {
    /// `open`, `closed`, or the JACK frame (its 32 bits) from which cycles sound.
    private let state = Atomic<Int64>(SoundingGate.open)
    /// Cycles held since the gate got its frame.
    private let held = Atomic<Int>(0)

    private static let open: Int64 = -1
    private static let closed: Int64 = .max
    /// The most cycles held once the gate has its frame: a bound in case a
    /// server's frame time jumps (PipeWire's can step back around a skip).
    private let maximumHeld = Atomic<Int>(0)

    /// How far past the frame `jack_frame_time` gives once the connections are
    /// made the first sounding cycle starts. jackd2's `jack_connect` returns when
    /// the server has the connection, and the server takes it into its graph at
    /// the start of its next cycle: one period would do. PipeWire's returns when
    /// the link exists, which then negotiates with both clients' threads before
    /// data flows through it, a few cycles later, more on a loaded machine (the
    /// Start of the first connection was lost that way). 50 ms covers both and
    /// is nothing to a musician after a server (re)start.
    static func margin(sampleRate: Int, period: Int) -> Int { max(period, sampleRate / 20) }

    /// Supervisor, before `jack_activate`: no cycle sounds until `open(from:)`.
    func close() {
        held.store(0, ordering: .relaxed)
        maximumHeld.store(0, ordering: .relaxed)
        state.store(SoundingGate.closed, ordering: .releasing)
    }

    /// Supervisor, once the connections are made: cycles from `margin` frames
    /// past JACK frame `now` on sound.
    func open(now: jack_nframes_t, sampleRate: Int, period: Int) {
        let margin = SoundingGate.margin(sampleRate: sampleRate, period: period)
        held.store(0, ordering: .relaxed)
        maximumHeld.store(margin / max(1, period) + 4, ordering: .relaxed)
        state.store(Int64(now &+ jack_nframes_t(margin)), ordering: .releasing)
    }

    /// Real-time thread: whether the cycle starting at JACK frame `cycleFrame` stays silent.
    @_noLocks @_noAllocation
    func holds(cycleFrame: jack_nframes_t) -> Bool {
        let s = state.load(ordering: .acquiring)
        if s == SoundingGate.open { return false }
        if s == SoundingGate.closed { return true }
        // Signed distance: wrap-safe, like FrameTimeline.
        let reached = Int32(bitPattern: cycleFrame &- jack_nframes_t(truncatingIfNeeded: s)) >= 0
        if reached || held.add(1, ordering: .relaxed).newValue > maximumHeld.load(ordering: .relaxed) {
            state.store(SoundingGate.open, ordering: .relaxed)
            return false
        }
        return true
    }
}
