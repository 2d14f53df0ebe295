import CALSA
import CALSAShims
import Glibc
import TactusCore

/// The sequencer queue the clock is scheduled on, running in real time (seconds
/// and nanoseconds, not ticks) on the high-resolution timer.
///
/// The queue's timer decides how precisely the kernel delivers: events wait in
/// the queue until a timer interrupt finds them due. The kernel runs a queue's
/// timer at a preferred frequency of at most 6250 Hz (sound/core/seq/seq_timer.c,
/// MAX_FREQUENCY), a 160 µs period on `SND_TIMER_GLOBAL_HRTIMER`; the default
/// is 1000 Hz, and the system timer ticks only every 1/HZ.
public final class ClockQueue: @unchecked Sendable {
    public let id: Int32
    private let sequencer: Sequencer

    /// Allocates and configures the queue; it starts with `start()`.
    init(sequencer: Sequencer, name: String, resolutionHz: Int) throws(SequencerError) {
        self.sequencer = sequencer
        id = try SequencerError.check(snd_seq_alloc_named_queue(sequencer.handle, name), "snd_seq_alloc_named_queue", subject: name)
        var timerID: OpaquePointer?
        try SequencerError.check(snd_timer_id_malloc(&timerID), "snd_timer_id_malloc")
        defer { snd_timer_id_free(timerID) }
        snd_timer_id_set_class(timerID, Int32(SND_TIMER_CLASS_GLOBAL.rawValue))
        snd_timer_id_set_sclass(timerID, Int32(SND_TIMER_SCLASS_NONE.rawValue))
        snd_timer_id_set_card(timerID, -1)
        snd_timer_id_set_device(timerID, Int32(SND_TIMER_GLOBAL_HRTIMER))
        snd_timer_id_set_subdevice(timerID, 0)
        var timer: OpaquePointer?
        try SequencerError.check(snd_seq_queue_timer_malloc(&timer), "snd_seq_queue_timer_malloc")
        defer { snd_seq_queue_timer_free(timer) }
        try SequencerError.check(snd_seq_get_queue_timer(sequencer.handle, id, timer), "snd_seq_get_queue_timer", subject: "queue \(id)")
        snd_seq_queue_timer_set_type(timer, SND_SEQ_TIMER_ALSA)
        snd_seq_queue_timer_set_id(timer, timerID)
        snd_seq_queue_timer_set_resolution(timer, UInt32(resolutionHz))
        try SequencerError.check(snd_seq_set_queue_timer(sequencer.handle, id, timer), "snd_seq_set_queue_timer",
                                 subject: "queue \(id), high-resolution timer at \(resolutionHz) Hz")
    }

    /// Starts the queue's clock at 0. The start is itself an event: drained here
    /// while the thread that will share the output buffer has not started yet.
    func start() throws(SequencerError) {
        try SequencerError.check(tactus_seq_start_queue(sequencer.handle, id), "snd_seq_start_queue", subject: "queue \(id)")
        try drainBlocking()
    }

    func stop() {
        _ = tactus_seq_stop_queue(sequencer.handle, id)
        try? drainBlocking()
    }

    func free() { _ = snd_seq_free_queue(sequencer.handle, id) }

    /// Drains alsa-lib's output buffer on a non-blocking handle: a brief wait on the
    /// descriptor whenever the kernel pool is momentarily full, at most ~100 ms.
    private func drainBlocking() throws(SequencerError) {
        for _ in 0..<100 {
            let r = snd_seq_drain_output(sequencer.handle)
            if r == 0 { return }
            if r < 0 && r != -EAGAIN { throw SequencerError("snd_seq_drain_output", code: r) }
            MonotonicClock.sleep(microseconds: 1000)
        }
        throw SequencerError("snd_seq_drain_output", code: -EAGAIN)
    }

    /// The queue's real time now, in microseconds since it started.
    public func microseconds() throws(SequencerError) -> Int64 {
        var status: OpaquePointer?
        try SequencerError.check(snd_seq_queue_status_malloc(&status), "snd_seq_queue_status_malloc")
        defer { snd_seq_queue_status_free(status) }
        try SequencerError.check(snd_seq_get_queue_status(sequencer.handle, id, status), "snd_seq_get_queue_status", subject: "queue \(id)")
        return snd_seq_queue_status_get_real_time(status)!.pointee.microseconds
    }

    /// `count` readings of the queue's time, each between two readings of the
    /// monotonic clock, for `QueueClockCalibration`; fewer (none) when the queue
    /// cannot be read.
    func calibrationReadings(count: Int = 5) -> [QueueClockCalibration.Reading] {
        var readings: [QueueClockCalibration.Reading] = []
        for _ in 0..<count {
            let before = MonotonicClock.microseconds()
            guard let queueTime = try? microseconds() else { break }
            readings.append(.init(before: before, queue: queueTime, after: MonotonicClock.microseconds()))
        }
        return readings
    }

    /// The timer the kernel really opened for this queue (nil when /proc does not say).
    public func timerReport() -> SequencerTimerReport? {
        guard let text = Self.read(path: "/proc/asound/seq/timer") else { return nil }
        return SequencerTimerReport(procText: text, queue: Int(id))
    }

    private static func read(path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
