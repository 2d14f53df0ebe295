import CJack
import CJackShims
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What JACK's notification callbacks tell the supervisor. The callbacks run on
/// JACK's threads (the shutdown one possibly on the process thread, "as if it
/// were an asynchronous POSIX signal handler", jack.h), so they only store
/// atomics and post the control thread's wake-up (`sem_post` is
/// async-signal-safe, POSIX); the supervisor acts on them in its next round.
struct JackNotices: ~Copyable, @unchecked Sendable {
    let serverGone = Atomic<Bool>(false)
    let sampleRate = Atomic<Int>(0)
    let bufferSize = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    /// Bumped on every port connection change and port registration.
    let graphChanges = Atomic<Int>(0)
    /// Bumped by JACK's latency callback in playback mode (`tactusLatency`).
    let latencyChanges = Atomic<Int>(0)
    /// The control thread's `ControlWakeup`.
    let wakeup: UnsafeMutablePointer<sem_t>

    init(wakeup: UnsafeMutablePointer<sem_t>) { self.wakeup = wakeup }

    func wake() { sem_post(wakeup) }
}

/// JACK's thread-init callback, on the process thread before its first cycle:
/// the stack pages a cycle uses are touched here, not by the cycle (`MemoryLock`).
func tactusThreadInit(_ arg: UnsafeMutableRawPointer?) {
    tactus_prefault_stack()
}

/// The process callback: JACK passes the context's address as `arg`. Checked
/// in release builds (REALTIME_CHECKS), which see into TactusCore's engine.
#if REALTIME_CHECKS
@_noLocks @_noAllocation
#endif
func tactusProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    ProcessCycle.run(arg.assumingMemoryBound(to: ProcessContext.self), frames: frames)
    return 0
}

/// The timebase callback (`--transport master`): JACK passes the process
/// context's address as `arg`, and the position of the next cycle to fill.
#if REALTIME_CHECKS
@_noLocks @_noAllocation
#endif
func tactusTimebase(_ state: jack_transport_state_t, _ frames: jack_nframes_t, _ position: UnsafeMutablePointer<jack_position_t>?,
                    _ newPosition: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let position, let arg else { return }
    ProcessCycle.publishBarBeatTick(arg.assumingMemoryBound(to: ProcessContext.self), into: position)
}

func tactusServerGone(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return }
    notices.pointee.serverGone.store(true, ordering: .releasing)
    notices.pointee.wake()
}

func tactusSampleRate(_ rate: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return 0 }
    notices.pointee.sampleRate.store(Int(rate), ordering: .releasing)
    notices.pointee.wake()
    return 0
}

func tactusBufferSize(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return 0 }
    notices.pointee.bufferSize.store(Int(frames), ordering: .releasing)
    notices.pointee.wake()
    return 0
}

func tactusXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return 0 }
    notices.pointee.xruns.add(1, ordering: .relaxed)
    notices.pointee.wake()
    return 0
}

func tactusPortConnect(_ a: jack_port_id_t, _ b: jack_port_id_t, _ connected: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return }
    notices.pointee.graphChanges.add(1, ordering: .releasing)
    notices.pointee.wake()
}

func tactusPortRegistration(_ port: jack_port_id_t, _ registered: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let notices = arg?.assumingMemoryBound(to: JackNotices.self) else { return }
    notices.pointee.graphChanges.add(1, ordering: .releasing)
    notices.pointee.wake()
}

/// libjack prints every failed attempt to reach a server; while Tactus retries
/// once a second that would be a line a second, so errors go nowhere then.
func tactusSilentJackError(_ message: UnsafePointer<CChar>?) {}

/// JACK's own error messages, prefixed so the user knows who speaks.
func tactusJackError(_ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    StandardError.line("tactus: JACK: \(String(cString: message))")
}
