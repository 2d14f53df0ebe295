import CALSA
import CALSAShims
import Glibc
import Synchronization
import TactusCore

/// The ALSA clock output thread: takes the clock stream's events (absolute engine
/// frames) from the ring the JACK process callback fills, turns each frame into a
/// time on the ALSA queue, and writes it stamped with that time plus a small
/// look-ahead, so the kernel, not this thread, sends it on time.
///
/// frame → monotonic µs by the points the JACK cycle publishes
/// (`FrameClockReference`), filtered (`ClockDispatcher`, `FrameTimeFilter`);
/// monotonic µs → queue real time by `QueueClockCalibration`. The frames already
/// include `--clock-offset` (the engine adds it to the clock stream), so no
/// offset is applied here. What is sent, late or dropped is `ClockDispatcher`'s rule.
final class ClockScheduler: @unchecked Sendable {
    private let sequencer: Sequencer
    private let queue: ClockQueue
    private let port: UInt8
    private let source: ClockStreamSource
    private let lookAhead: Double
    private let calibrationInterval: Int64
    private let statistics: ALSAStatistics
    private let report: @Sendable (String) -> Void

    let stopRequested = Atomic<Bool>(false)
    /// For tests: every event's frame and the queue time it was scheduled at.
    let recorder: ScheduleRecorder?
    /// The calibration's origin as Double bits, for other threads (0: none yet).
    private let publishedOrigin = Atomic<UInt64>(0)

    // Clock thread only.
    private var calibration = QueueClockCalibration()
    private var dispatcher: ClockDispatcher
    private var reportedOutputError = false
    private var reportedCalibrationError = false

    /// How often the thread looks into the ring. The look-ahead must cover this
    /// plus the thread's wake-up latency, or events leave late.
    static let pollInterval: Int64 = 1_000

    init(sequencer: Sequencer, queue: ClockQueue, port: UInt8, source: ClockStreamSource, lookAheadMicroseconds: Int64, calibrationIntervalMicroseconds: Int64,
         statistics: ALSAStatistics, recorder: ScheduleRecorder? = nil, report: @escaping @Sendable (String) -> Void) {
        self.recorder = recorder
        self.sequencer = sequencer
        self.queue = queue
        self.port = port
        self.source = source
        lookAhead = Double(lookAheadMicroseconds)
        dispatcher = ClockDispatcher(lookAheadMicroseconds: Double(lookAheadMicroseconds))
        calibrationInterval = calibrationIntervalMicroseconds
        self.statistics = statistics
        self.report = report
    }

    /// Monotonic µs of queue time 0, once calibrated.
    var origin: Double? {
        let bits = publishedOrigin.load(ordering: .acquiring)
        return bits == 0 ? nil : Double(bitPattern: bits)
    }

    /// Measures the queue clock once, before the thread starts.
    func calibrateNow() { calibrate() }

    func run() {
        var nextCalibration = MonotonicClock.microseconds() + calibrationInterval
        var outputPending = false
        var stopDeadline: Int64?
        while true {
            let stopping = stopRequested.load(ordering: .acquiring)
            let now = MonotonicClock.microseconds()
            if stopping && stopDeadline == nil { stopDeadline = now + 1_000_000 }
            if now >= nextCalibration {
                calibrate()
                nextCalibration = now + calibrationInterval
            }
            if scheduleWaitingEvents(now: now) { outputPending = true }
            if outputPending { outputPending = !drain() }
            if stopping && (source.isEmpty() && !outputPending || now >= stopDeadline!) { break }
            MonotonicClock.sleep(microseconds: outputPending ? Self.pollInterval / 4 : Self.pollInterval)
        }
        waitForDelivery()
    }

    /// Writes every event in the ring into alsa-lib's output buffer. True when
    /// something was written (to drain), false when nothing was.
    private func scheduleWaitingEvents(now: Int64) -> Bool {
        // Every cycle's point feeds the filter, events or not (a stopped clock sends none).
        observeLatestPoint(now: now)
        guard let origin = calibration.origin else { return false }
        var wrote = false
        while let event = source.peek() {
            // Again after the event: the cycle publishes its point before pushing its events.
            guard observeLatestPoint(now: now) else { break }
            guard var alsaEvent = snd_seq_event_t.encoding(event.bytes) else {
                source.pop()
                continue
            }
            let time: Int64
            switch dispatcher.action(forFrame: event.frame, isClockTick: event.bytes.status == MIDIStatus.timingClock, now: now, origin: origin) {
            case .hold:
                return wrote
            case .drop:
                // A tick long overdue (the thread was stopped, or the ring filled before
                // it started): dropped like the engine drops what an xrun made too late,
                // rather than sent as a burst.
                source.pop()
                statistics.droppedEvents.add(1, ordering: .relaxed)
                continue
            case .schedule(let stamp, _):
                time = stamp
            }
            tactus_seq_ev_set_source(&alsaEvent, Int32(port))
            tactus_seq_ev_set_subs(&alsaEvent)
            var stamp = snd_seq_real_time_t(tv_sec: UInt32(time / 1_000_000), tv_nsec: UInt32(time % 1_000_000) * 1000)
            tactus_seq_ev_schedule_real(&alsaEvent, queue.id, 0, &stamp)
            let result = snd_seq_event_output(sequencer.handle, &alsaEvent)
            if result == -EAGAIN {
                // Our kernel pool is full for now: keep the event and try again shortly.
                statistics.outputRetries.add(1, ordering: .relaxed)
                return true
            }
            source.pop()
            if result < 0 {
                statistics.outputErrors.add(1, ordering: .relaxed)
                reportOutputError(SequencerError("snd_seq_event_output", code: result))
                continue
            }
            let margin = Int((Double(time) - (Double(now) - origin)).rounded())
            if margin < 0 { statistics.lateEvents.add(1, ordering: .relaxed) }
            if margin < statistics.smallestMargin.load(ordering: .relaxed) { statistics.smallestMargin.store(margin, ordering: .relaxed) }
            dispatcher.scheduled(time)
            recorder?.record(.init(frame: event.frame, queueMicroseconds: time, margin: Int64(margin)))
            wrote = true
            statistics.eventsScheduled.add(1, ordering: .relaxed)
        }
        return wrote
    }

    /// Feeds the JACK cycle's latest point to the filter; false before the first cycle.
    @discardableResult
    private func observeLatestPoint(now: Int64) -> Bool {
        guard let point = source.frameClock() else { return false }
        let resetsBefore = dispatcher.filter.resets
        if case .suspect = dispatcher.observe(point, now: now) { statistics.suspectCycles.add(1, ordering: .relaxed) }
        if dispatcher.filter.resets != resetsBefore { statistics.frameClockResets.add(1, ordering: .relaxed) }
        return true
    }

    /// Hands alsa-lib's buffer to the kernel without blocking. True when empty.
    private func drain() -> Bool {
        let result = snd_seq_drain_output(sequencer.handle)
        if result == 0 { return true }
        if result > 0 || result == -EAGAIN {
            statistics.outputRetries.add(1, ordering: .relaxed)
            return false
        }
        statistics.outputErrors.add(1, ordering: .relaxed)
        reportOutputError(SequencerError("snd_seq_drain_output", code: result))
        _ = snd_seq_drop_output(sequencer.handle)
        return true
    }

    private func reportOutputError(_ error: SequencerError) {
        guard !reportedOutputError else { return }
        reportedOutputError = true
        report("\(error); the ALSA clock may miss events")
    }

    private func calibrate() {
        let readings = queue.calibrationReadings()
        guard !readings.isEmpty else {
            if !reportedCalibrationError {
                reportedCalibrationError = true
                report("ALSA sequencer: cannot read the clock queue's time; keeping the last calibration")
            }
            return
        }
        calibration.update(with: readings)
        statistics.lastCalibrationCorrection.store(Int(calibration.lastCorrection.rounded()), ordering: .relaxed)
        publishedOrigin.store(calibration.origin!.bitPattern, ordering: .releasing)
    }

    /// Waits until the queue has sent the last event written, so closing the
    /// client (which deletes its queue) loses nothing, e.g. the Stop at exit.
    private func waitForDelivery() {
        let deadline = MonotonicClock.microseconds() + Int64(lookAhead) + 500_000
        while MonotonicClock.microseconds() < deadline {
            guard let now = try? queue.microseconds(), now < dispatcher.lastScheduled + 1_000 else { return }
            MonotonicClock.sleep(microseconds: 1_000)
        }
    }
}

/// The times the clock thread stamped its events with, for tests that compare
/// them with the kernel's delivery stamps.
final class ScheduleRecorder: @unchecked Sendable {
    struct Entry: Hashable {
        var frame: Int64
        var queueMicroseconds: Int64
        /// µs left before its time when it was written; negative: written late.
        var margin: Int64
    }

    private let entries = Mutex<[Entry]>([])

    func record(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    var recorded: [Entry] { entries.withLock { $0 } }
}
