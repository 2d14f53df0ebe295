import CJack
import TactusCore

/// `tactus clock-meter PORT` on JACK (docs/DESIGN.md §9.1, "The meter"): a client
/// with one JACK MIDI input, `clock_in`, connected to `PORT`. Its process
/// callback only decodes and hands over (`ClockMeterCycle`); this thread reads
/// the ring every 50 ms, prints a line for each transport message and error as
/// it comes, and `ClockMeter`'s figures each second. The times are frames, so
/// the meter measures the sender, not itself.
public enum JackClockMeter {
    public struct Settings: Sendable {
        public var port: String
        public var clientName = "tactus-meter"
        public var serverName: String?
        /// `--bpm`: the tempo drift is measured against.
        public var tempo: BPM?
        /// `--seconds`: stop after this long; nil: at Ctrl-C.
        public var seconds: Double?

        public init(port: String) { self.port = port }
    }

    /// Transport messages and errors a cycle may hand over before the printing
    /// thread reads again: 50 ms of ticks at 999 BPM are 20, so only a flood fills it.
    static let ringCapacity = 4_096
    /// How often the printing thread reads the ring.
    static let readMilliseconds = 50

    /// Runs until `--seconds`, SIGINT or SIGTERM (blocked by the caller,
    /// `ProcessPolicy.apply`), or the server's loss. Status 0; 1 when there is no
    /// server, no such port, or the server went away.
    public static func run(_ settings: Settings, output: (String) -> Void, log: (String) -> Void) -> Int32 {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
        let client: JackClient
        do {
            client = try JackClient(name: settings.clientName, server: settings.serverName)
        } catch {
            log("clock-meter: \(error.waitingReason)")
            return 1
        }
        defer { client.close() }
        guard let source = client.ports().first(where: { $0.name == settings.port }) else {
            log("clock-meter: no JACK port named '\(settings.port)' (tactus ports lists the midi out ports)")
            return 1
        }
        guard source.isOutput, source.type == JACK_DEFAULT_MIDI_TYPE else {
            log("clock-meter: '\(settings.port)' is a\(source.type == JACK_DEFAULT_MIDI_TYPE ? " MIDI input" : "n \(source.isOutput ? "audio output" : "audio input")") port: the meter reads a JACK MIDI output (tactus ports lists them)")
            return 1
        }
        let port: OpaquePointer
        do {
            port = try client.register(TactusPort.clockIn.rawValue, .midiInput)
        } catch {
            log("clock-meter: \(error)")
            return 1
        }
        let context = UnsafeMutablePointer<ClockMeterContext>.allocate(capacity: 1)
        context.initialize(to: ClockMeterContext(client: client.handle, port: port, sampleRate: client.sampleRate,
                                                 startFrame: jack_frame_time(client.handle), capacity: ringCapacity))
        let wakeup = ControlWakeup()
        let notices = UnsafeMutablePointer<JackNotices>.allocate(capacity: 1)
        notices.initialize(to: JackNotices(wakeup: wakeup.semaphore))
        defer {
            // A client whose server went away is only closed (libjack owns the zombie until then).
            if !notices.pointee.serverGone.load(ordering: .acquiring) { client.deactivate() }
            client.close()
            context.deinitialize(count: 1)
            context.deallocate()
            notices.deinitialize(count: 1)
            notices.deallocate()
        }
        jack_set_process_callback(client.handle, tactusClockMeterProcess, UnsafeMutableRawPointer(context))
        jack_on_info_shutdown(client.handle, tactusServerGone, UnsafeMutableRawPointer(notices))
        jack_set_thread_init_callback(client.handle, tactusThreadInit, nil)
        do {
            try client.activate()
            try client.connect(settings.port, "\(client.name):\(TactusPort.clockIn.rawValue)")
        } catch {
            log("clock-meter: \(error)")
            return 1
        }
        var meter = ClockMeter(rate: client.sampleRate, origin: 0, tempo: settings.tempo)
        for line in meter.header(source: "\(settings.port) → \(client.name):\(TactusPort.clockIn.rawValue)") { output(line) }
        let begin = ContinuousClock.now
        let end = settings.seconds.map { begin + .milliseconds(Int(($0 * 1_000).rounded())) }
        var second = 1
        var status: Int32 = 0
        func read() {
            while let input = context.pointee.inputs.pop() {
                if let line = meter.receive(input.output, at: input.time) { output(line) }
            }
        }
        while true {
            read()
            if notices.pointee.serverGone.load(ordering: .acquiring) {
                log("clock-meter: the JACK server went away")
                status = 1
                break
            }
            let now = ContinuousClock.now
            if now >= begin + .seconds(second) {
                output(meter.secondLine(second: second))
                second += 1
            }
            if let end, now >= end { break }
            if TerminationSignals.wait(milliseconds: readMilliseconds) != nil { break }
        }
        let dropped = context.pointee.inputs.dropped.load(ordering: .relaxed)
        if dropped > 0 { log("clock-meter: \(dropped) bytes' results dropped: the printing thread fell behind") }
        return status
    }
}
