import CJack
import Foundation
import Glibc
import Synchronization
import TactusCore
@testable import TactusJACK
import TactusLink

/// The real JACK process cycle (`ProcessCycle.run`) on a thread paced by the
/// monotonic clock, without a JACK server: 256-frame blocks at 48 kHz, cycle k
/// at `origin + k·256/48000 s`, the time `cycleTimes` gives for its first
/// frame, as jack2 gives CLOCK_MONOTONIC cycle times. A `ProcessContext` made
/// as `JackMetronome` makes it, so what the ALSA input thread hands the cycle
/// (`JackShared.clockInArrivals`) is followed by the code a server runs.
///
/// The click is rendered with one-sample impulses (accent 1, beat 0.5), so an
/// onset is one non-zero sample on its frame. JACK frame = engine frame here.
final class PacedProcessCycle: @unchecked Sendable {
    static let sampleRate = 48_000
    static let period = 256
    static let microsecondsPerFrame = 1_000_000.0 / Double(sampleRate)

    let control: UnsafeMutablePointer<EngineControl>
    let shared: UnsafeMutablePointer<JackShared>
    let context: UnsafeMutablePointer<ProcessContext>
    private let click = UnsafeMutablePointer<Float>.allocate(capacity: PacedProcessCycle.period)
    /// Monotonic µs of frame 0.
    private(set) var origin: Int64 = 0
    /// Cycle thread's records, read after `stop`: click onsets (engine frames),
    /// the frames of the cycles the engine started and stopped playing in, and the
    /// song tick the follower had when it first reported itself locked.
    private(set) var onsets: [Int64] = []
    private(set) var runningChanges: [(frame: Int64, running: Bool)] = []
    private(set) var lockedAtSongTick: Int64?
    private(set) var lateWakeUps = 0
    /// The ticks the follower counts as lost in transit (put back), at the last cycle.
    private(set) var lostTicks = 0
    /// Every arrival the ALSA input thread handed on, with the time it did.
    let arrivalLog = ArrivalLog()
    private let stopRequested = Atomic<Bool>(false)
    /// The frame after the last block the cycle ran.
    let processedFrame = Atomic<Int64>(0)
    private let finished = DispatchSemaphore(value: 0)

    /// `--alsa-clock-from` at Tactus's own 100 BPM, started stopped (the clock owns tempo and transport).
    init() throws {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: Self.sampleRate, tempo: BPM(100))
        options.startStopped = true
        options.clockIn = true
        options.clockInFromALSA = true
        options.sounds = { SoundSet(sampleRate: $0) { [$0 == .accent ? 1 : $0 == .beat ? 0.5 : 0.25] } }
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        shared = .allocate(capacity: 1)
        shared.initialize(to: JackShared(controlInputCapacity: 64, clockStreamCapacity: nil,
                                         clockInArrivalsCapacity: JackRunOptions.clockInArrivalsCapacity))
        context = .allocate(capacity: 1)
        context.initialize(to: try ProcessContext(options: options, sampleRate: Self.sampleRate, control: control, shared: shared, wakeup: nil))
        onsets.reserveCapacity(4096)
        runningChanges.reserveCapacity(64)
    }

    deinit {
        let sounds = context.pointee.engine.soundSet
        context.deinitialize(count: 1); context.deallocate()
        sounds.deallocate()
        while let set = control.pointee.retiredSounds.pop() { set.deallocate() }
        control.deinitialize(count: 1); control.deallocate()
        shared.deinitialize(count: 1); shared.deallocate()
        click.deallocate()
    }

    /// Arrivals the clock-in ring refused (full).
    var ringDrops: Int {
        shared.pointee.clockInArrivals?.droppedCount() ?? -1
    }

    /// What the ALSA input thread is given: a push into the arrival log, which the
    /// cycle thread hands on into the cycle's ring (`ArrivalLog.handOn`).
    var push: @Sendable (TimedClockInputEvent) -> Void {
        let log = arrivalLog
        return { log.append($0, readAt: MonotonicClock.microseconds()) }
    }

    /// The dry cycle, then cycles from 2 ms from now.
    func start() {
        var host = PacedHost(cycle: self)
        ProcessCycle.dryRun(context, frames: Self.period, host: &host)
        origin = MonotonicClock.microseconds() + 2_000
        let thread = Thread { [self] in run() }
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    func stop() {
        stopRequested.store(true, ordering: .releasing)
        finished.wait()
    }

    /// Monotonic µs of engine frame `frame`.
    func monotonicMicroseconds(ofFrame frame: Int64) -> Double { Double(origin) + Double(frame) * Self.microsecondsPerFrame }

    fileprivate var jackFrame: UInt32 = 0

    private func run() {
        // JACK runs its process thread SCHED_FIFO when allowed (root in the VM); so does this one.
        var parameters = sched_param(sched_priority: 70)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        var cycle: Int64 = 0
        var wasRunning = false
        while !stopRequested.load(ordering: .acquiring) {
            let firstFrame = cycle * Int64(Self.period)
            jackFrame = UInt32(truncatingIfNeeded: firstFrame)
            let start = Int64(monotonicMicroseconds(ofFrame: firstFrame).rounded())
            MonotonicClock.sleep(until: start)
            if MonotonicClock.microseconds() - start > 5_000 { lateWakeUps += 1 }
            // What a cycle run on time would have found in the ring: the arrivals the input
            // thread handed on before the cycle's time, however late this thread woke.
            arrivalLog.handOn(upTo: start) { _ = shared.pointee.clockInArrivals?.push($0) }
            var host = PacedHost(cycle: self)
            ProcessCycle.run(context, frames: jack_nframes_t(Self.period), host: &host)
            for i in 0..<Self.period where click[i] != 0 { onsets.append(firstFrame + Int64(i)) }
            let running = control.pointee.status.running.load(ordering: .relaxed)
            if running != wasRunning { runningChanges.append((firstFrame, running)); wasRunning = running }
            lostTicks = context.pointee.clockIn.follower.lostTicks
            if lockedAtSongTick == nil, context.pointee.clockIn.follower.state == .locked {
                lockedAtSongTick = context.pointee.clockIn.follower.newestSongTick ?? -1
            }
            processedFrame.store(firstFrame + Int64(Self.period), ordering: .releasing)
            cycle += 1
        }
        finished.signal()
    }

    fileprivate var clickBuffer: UnsafeMutablePointer<Float> { click }
}

/// Every arrival the ALSA input thread handed on, with the monotonic µs it was handed on at.
/// The cycle thread takes them from here into the cycle's ring (`handOn`), so that a
/// cycle the emulated CPU woke late finds only what one on time would have found.
final class ArrivalLog: @unchecked Sendable {
    private let lock = Mutex<(entries: [(event: TimedClockInputEvent, readAt: Int64)], handedOn: Int)>(([], 0))
    func append(_ event: TimedClockInputEvent, readAt: Int64) { lock.withLock { $0.entries.append((event, readAt)) } }
    var entries: [(event: TimedClockInputEvent, readAt: Int64)] { lock.withLock { $0.entries } }
    /// Each arrival not yet handed on that was read by `microseconds`, in order.
    func handOn(upTo microseconds: Int64, _ push: (TimedClockInputEvent) -> Void) {
        lock.withLock { log in
            while log.handedOn < log.entries.count, log.entries[log.handedOn].readAt <= microseconds {
                push(log.entries[log.handedOn].event)
                log.handedOn += 1
            }
        }
    }
}

/// The `CycleHost` of `PacedProcessCycle`: the monotonic clock's cycle times,
/// a click buffer, and no other port (the clock in comes through the ring).
private struct PacedHost: CycleHost {
    let cycle: PacedProcessCycle
    var link: LinkAudio? { nil }

    mutating func cycleTimes(frames: jack_nframes_t, sampleRate: Int,
                             offset: inout RawClockOffset) -> (frame: jack_nframes_t, microseconds: Int64, nextMicroseconds: Int64) {
        offset.microseconds = 0
        let first = Int64(cycle.jackFrame)
        return (cycle.jackFrame, Int64(cycle.monotonicMicroseconds(ofFrame: first).rounded()),
                Int64(cycle.monotonicMicroseconds(ofFrame: first + Int64(frames)).rounded()))
    }

    mutating func buffer(_ port: CyclePort, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        port == .click ? UnsafeMutableRawPointer(cycle.clickBuffer) : nil
    }

    mutating func transportQuery(_ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t {
        position.pointee = jack_position_t()
        return JackTransportStopped
    }

    func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 { 0 }
    func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t? { nil }
    mutating func clearMIDI(_ buffer: UnsafeMutableRawPointer) {}
    mutating func reserveMIDI(_ buffer: UnsafeMutableRawPointer, _ offset: jack_nframes_t, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>? { nil }
}

extension SPSCRing {
    /// `dropped`, through a method: an optional ring's stored properties cannot be reached by optional chaining.
    func droppedCount() -> Int { dropped.load(ordering: .relaxed) }
}
