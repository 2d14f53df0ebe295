import Foundation
import Glibc
import Synchronization
@testable import TactusALSA
import TactusCore

/// A stand-in for the JACK process callback when no JACK server runs: a thread
/// that renders consecutive 256-frame blocks at 48 kHz paced by the monotonic
/// clock, publishes the `FrameClockReference` point of each cycle and pushes the
/// clock stream into the ALSA ring: the same interfaces the JACK path uses.
///
/// Cycle k covers frames k·256 … and starts at `origin + k·256/48000 s`, the
/// time published for its first frame, so a frame's ideal time is exact.
final class SimulatedJACKCycle: @unchecked Sendable {
    static let sampleRate = 48_000
    static let blockSize = 256
    static let microsecondsPerFrame = 1_000_000.0 / Double(sampleRate)

    let control: UnsafeMutablePointer<EngineControl>
    let clockEvents: UnsafeMutablePointer<SPSCRing<TimedMIDIEvent>>
    let reference: UnsafeMutablePointer<FrameClockReference>
    private let engine: UnsafeMutablePointer<Engine>
    private let sounds: SoundSet
    /// Monotonic µs of frame 0.
    private(set) var origin: Int64 = 0
    /// Every event the engine emitted, in order (cycle thread; read after `stop`).
    private(set) var emitted: [TimedMIDIEvent] = []
    /// Events the ring refused (the clock thread fell that far behind).
    var ringDrops: Int { clockEvents.pointee.dropped.load(ordering: .relaxed) }
    /// How late each cycle's thread woke after its start time (µs), the way an
    /// overloaded machine delays JACK's thread (cycle thread; read after `stop`).
    private(set) var wakeDelays: [Int64] = []
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(tempo: BPM, clockOffsetFrames: Int32 = 0) {
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        clockEvents = .allocate(capacity: 1)
        clockEvents.initialize(to: SPSCRing(capacity: 4096))
        reference = .allocate(capacity: 1)
        reference.initialize(to: FrameClockReference())
        sounds = .synthesized(sampleRate: Self.sampleRate)
        engine = .allocate(capacity: 1)
        engine.initialize(to: Engine(configuration: EngineConfiguration(sampleRate: Self.sampleRate, tempo: tempo, clockOffsetFrames: clockOffsetFrames),
                                     sounds: sounds))
        emitted.reserveCapacity(8192)
        wakeDelays.reserveCapacity(8192)
    }

    deinit {
        engine.deinitialize(count: 1); engine.deallocate()
        control.deinitialize(count: 1); control.deallocate()
        clockEvents.deinitialize(count: 1); clockEvents.deallocate()
        reference.deinitialize(count: 1); reference.deallocate()
        sounds.deallocate()
    }

    /// Starts the cycles 2 ms from now.
    func start() {
        origin = MonotonicClock.microseconds() + 2_000
        let thread = Thread { [self] in run() }
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The control thread's side: a command for the engine (this test thread is its only producer).
    func send(_ command: EngineCommand) { control.pointee.commands.push(command) }

    func stop() {
        stopRequested.store(true, ordering: .releasing)
        finished.wait()
    }

    /// Monotonic µs of engine frame `frame`.
    func monotonicMicroseconds(ofFrame frame: Int64) -> Double {
        Double(origin) + Double(frame) * Self.microsecondsPerFrame
    }

    private func run() {
        // JACK runs its process thread SCHED_FIFO when allowed (root in the VM); so does this one.
        var parameters = sched_param(sched_priority: 70)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        var events = MIDIEventBuffer(capacity: 1024)
        var cycle: Int64 = 0
        while !stopRequested.load(ordering: .acquiring) {
            let firstFrame = cycle * Int64(Self.blockSize)
            let start = Int64(monotonicMicroseconds(ofFrame: firstFrame).rounded())
            MonotonicClock.sleep(until: start)
            wakeDelays.append(MonotonicClock.microseconds() - start)
            reference.pointee.publish(frame: firstFrame, microseconds: start, microsecondsPerFrame: Self.microsecondsPerFrame)
            var ownTime = GivenPosition()
            engine.pointee.cycle(CycleInput(start: firstFrame, frames: Self.blockSize), source: &ownTime, control: control.pointee,
                                 click: nil, feedback: nil, events: &events)
            for index in 0..<events.count {
                clockEvents.pointee.push(events[index])
                emitted.append(events[index])
            }
            cycle += 1
        }
        finished.signal()
    }
}
