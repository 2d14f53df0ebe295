import Synchronization
import TactusCore

/// What the process callback shares with the other threads, allocated once and
/// kept across reconnections (the control thread holds on to these addresses
/// while the JACK client comes and goes).
public struct JackShared: ~Copyable, @unchecked Sendable {
    /// `control` port → control thread: what `ControlInputEvent.accepts`, stamped on the monotonic clock.
    public let controlInput: SPSCRing<ControlInputEvent>
    /// Every clock-stream event (ticks, Start/Stop/Continue, Song Position) with its
    /// engine frame, for the ALSA sequencer output thread; nil when ALSA output is off.
    public let clockStream: SPSCRing<TimedMIDIEvent>?
    /// `--alsa-clock-from`: the incoming clock's messages as the ALSA input
    /// thread stamped them (CLOCK_MONOTONIC µs of their arrival), for the cycle,
    /// which follows them at their frames (`ProcessCycle.followClockIn`); nil
    /// when the clock in is not the ALSA sequencer's.
    public let clockInArrivals: SPSCRing<TimedClockInputEvent>?
    /// Engine frame ↔ monotonic time, published every cycle.
    public let frameClock = FrameClockReference()
    /// Process cycles run.
    public let cycles = Atomic<Int>(0)
    /// Set by `JackMetronome.shutdown`: Tactus is quitting, so its own Stop goes
    /// out whoever owns the transport (a JACK master being followed, a Link
    /// session): the slaves of its clock must hear Stop as the last byte. The
    /// one switch: the cycle's source then owns nothing and gives no position.
    public let quitting = Atomic<Bool>(false)
    /// Frames in the last cycle (the JACK period).
    public let period = Atomic<Int>(0)
    /// Control input messages received (pushed or dropped).
    public let controlInputReceived = Atomic<Int>(0)
    /// Cycles that posted the control thread's wake-up (once a cycle at most: control
    /// input received, a cycle event pushed, or quitting).
    public let wakeupsPosted = Atomic<Int>(0)
    /// The `click` port's JACK playback latency (frames, the range's maximum):
    /// how much later than its cycle a block is heard (Link's beat is read there).
    public let clickLatency = Atomic<Int>(0)
    /// With Link: the session's tempo (hundredths of a BPM) and the phase over
    /// the quantum (millionths of a beat) where the last block is heard.
    public let linkTempoHundredths = Atomic<Int>(0)
    public let linkPhaseMillionths = Atomic<Int>(0)
    /// The session's other peers, as the control thread last counted them.
    public let linkPeers = Atomic<Int>(0)
    /// `LinkTimeline.peerTempoChanges`, a figure for the tests (the control
    /// thread hears of each as `CycleEvent.peerTempo`).
    public let linkPeerTempoChanges = Atomic<Int>(0)
    /// `LinkBridge.commits`: what a followed source asked to commit to the
    /// session (docs/DESIGN.md §9.1), a figure for the tests.
    public let linkSessionCommits = Atomic<Int>(0)
    /// Clock events JACK had no room for in the `clock` port buffer.
    public let clockEventsLost = Atomic<Int>(0)

    /// JACK transport as the process callback saw it last (`--transport`):
    /// rolling or not, its frame, and whether the cycle's position had BBT (a
    /// timebase master publishes it). Read as they are.
    public let transportRolling = Atomic<Bool>(false)
    public let transportFrame = Atomic<UInt32>(0)
    public let timebasePresent = Atomic<Bool>(false)
    /// Locates while rolling the process cycle gave the engine itself (a figure for the tests).
    public let transportLocatesTaken = Atomic<Int>(0)
    /// Repositions that are nobody's locate to follow, -1 for none: the frame
    /// Tactus located the transport to itself before starting it (its own
    /// start, echoed), and where the transport was when this client released
    /// the timebase while rolling (jack2's reposition a period back, §13.5).
    /// Stored by the control thread, taken by the cycle that sees the echo
    /// (`ProcessCycle.isEcho`): echoes are decided there only.
    public let ownLocateFrame = Atomic<Int>(-1)
    public let releasedAtFrame = Atomic<Int>(-1)
    /// The mode as the process cycle reads it (`TransportCycleMode.bits(_:)`): set
    /// at start and when a preset's `"transport"` changes it while running.
    public let transportMode = Atomic<Int>(0)
    /// The incoming MIDI clock's figures for the display (`--clock-in`).
    public let clockIn = ClockInFigures()
    /// Real-time → control thread: what happened in the cycles, in order
    /// (`CycleEvent`), taken by `JackMetronome.service`.
    public let cycleEvents = SPSCRing<CycleEvent>(capacity: 64)
    /// Calls of this client's timebase callback (`--transport master`).
    public let timebaseCallbacks = Atomic<Int>(0)

    public init(controlInputCapacity: Int, clockStreamCapacity: Int?, clockInArrivalsCapacity: Int? = nil) {
        controlInput = SPSCRing(capacity: controlInputCapacity)
        if let c = clockStreamCapacity { clockStream = SPSCRing(capacity: c) } else { clockStream = nil }
        if let c = clockInArrivalsCapacity { clockInArrivals = SPSCRing(capacity: c) } else { clockInArrivals = nil }
    }
}
