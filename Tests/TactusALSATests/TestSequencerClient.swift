import CALSA
import CALSAShims
import Glibc
import Synchronization
@testable import TactusALSA
import TactusCore

/// A second sequencer client playing the other side in the tests: a DAW receiving
/// the clock, or a keyboard sending to `Tactus:control`.
final class TestSequencerClient {
    let handle: OpaquePointer
    let id: UInt8
    let port: UInt8
    var address: SequencerAddress { SequencerAddress(client: id, port: port) }

    /// One received event: its type, the kernel's real-time stamp (µs on the
    /// subscription's queue), and its controller value.
    struct Received {
        var type: UInt32
        var queueMicroseconds: Int64?
        var value: Int32
    }

    /// A client named `name` with one port that both sends and receives.
    init(name: String, portName: String = "port", inputPool: Int = 2000) throws {
        var h: OpaquePointer?
        try SequencerError.check(snd_seq_open(&h, "default", Int32(SND_SEQ_OPEN_DUPLEX), Int32(SND_SEQ_NONBLOCK)), "snd_seq_open")
        handle = h!
        try SequencerError.check(snd_seq_set_client_name(handle, name), "snd_seq_set_client_name")
        id = UInt8(snd_seq_client_id(handle))
        let caps = SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ | SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE
        port = UInt8(try SequencerError.check(snd_seq_create_simple_port(handle, portName, UInt32(caps),
                                                                         UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION)),
                                              "snd_seq_create_simple_port"))
        try SequencerError.check(snd_seq_set_client_pool_input(handle, inputPool), "snd_seq_set_client_pool_input")
        try SequencerError.check(snd_seq_set_client_pool_output(handle, 2000), "snd_seq_set_client_pool_output")
    }

    deinit { snd_seq_close(handle) }

    /// Subscribes `source` → `destination`; with `queue`, each delivered event is
    /// stamped with that queue's real time (the receiver's measure of arrival).
    func subscribe(from source: SequencerAddress, to destination: SequencerAddress, stampingWith queue: Int32? = nil) throws {
        try withSubscription(from: source, to: destination) { subscription in
            if let queue {
                snd_seq_port_subscribe_set_queue(subscription, queue)
                snd_seq_port_subscribe_set_time_update(subscription, 1)
                snd_seq_port_subscribe_set_time_real(subscription, 1)
            }
            try SequencerError.check(snd_seq_subscribe_port(handle, subscription), "snd_seq_subscribe_port")
        }
    }

    /// Has the kernel stamp every event delivered to our port with `queue`'s real
    /// time, whoever made the subscription (a client that connects to us itself).
    func stampArrivals(with queue: Int32) throws {
        try Sequencer.stampArrivals(handle: handle, port: Int32(port), queue: queue)
    }

    /// Removes the subscription `source` → `destination` (as `aconnect -d` does).
    func unsubscribe(from source: SequencerAddress, to destination: SequencerAddress) throws {
        try withSubscription(from: source, to: destination) { subscription in
            try SequencerError.check(snd_seq_unsubscribe_port(handle, subscription), "snd_seq_unsubscribe_port")
        }
    }

    /// A subscription record `source` → `destination`, freed after `body`.
    private func withSubscription(from source: SequencerAddress, to destination: SequencerAddress,
                                  _ body: (OpaquePointer?) throws -> Void) throws {
        var subscription: OpaquePointer?
        snd_seq_port_subscribe_malloc(&subscription)
        defer { snd_seq_port_subscribe_free(subscription) }
        var s = source.alsa, d = destination.alsa
        snd_seq_port_subscribe_set_sender(subscription, &s)
        snd_seq_port_subscribe_set_dest(subscription, &d)
        try body(subscription)
    }

    /// Sends `event` to our subscribers at once, retrying briefly while our pool is full.
    /// False when the kernel refused it (the receiver's FIFO was full).
    @discardableResult
    func send(_ event: snd_seq_event_t) -> Bool {
        var event = event
        tactus_seq_ev_set_source(&event, Int32(port))
        tactus_seq_ev_set_subs(&event)
        tactus_seq_ev_set_direct(&event)
        for _ in 0..<1000 {
            let result = snd_seq_event_output_direct(handle, &event)
            if result >= 0 { return true }
            if result != -EAGAIN { return false }
            MonotonicClock.sleep(microseconds: 200)
        }
        return false
    }

    /// Allocates a queue of our own and starts it (real time 0 now), for `schedule`.
    func startQueue() throws -> Int32 {
        let queue = try SequencerError.check(snd_seq_alloc_queue(handle), "snd_seq_alloc_queue")
        try SequencerError.check(tactus_seq_start_queue(handle, queue), "snd_seq_start_queue")
        try drainOutput()
        return queue
    }

    /// Writes `message` to our subscribers, scheduled at `microseconds` of `queue`'s
    /// real time: the kernel sends it then, however late this thread is. `drainOutput` hands it over.
    func schedule(_ message: MIDIMessage, at microseconds: Int64, on queue: Int32) throws {
        var event = snd_seq_event_t.encoding(message.bytes)!
        tactus_seq_ev_set_source(&event, Int32(port))
        tactus_seq_ev_set_subs(&event)
        var time = snd_seq_real_time_t(tv_sec: UInt32(microseconds / 1_000_000), tv_nsec: UInt32(microseconds % 1_000_000) * 1000)
        tactus_seq_ev_schedule_real(&event, queue, 0, &time)
        try SequencerError.check(snd_seq_event_output(handle, &event), "snd_seq_event_output")
    }

    /// Hands alsa-lib's output buffer to the kernel, waiting while the pool is full (at most ~1 s).
    func drainOutput() throws {
        for _ in 0..<1000 {
            let result = snd_seq_drain_output(handle)
            if result == 0 { return }
            if result < 0 && result != -EAGAIN { try SequencerError.check(result, "snd_seq_drain_output") }
            MonotonicClock.sleep(microseconds: 1_000)
        }
        throw SequencerError("snd_seq_drain_output", code: -EAGAIN)
    }

    func send(_ message: MIDIMessage) {
        _ = send(snd_seq_event_t.encoding(message.bytes)!)
    }

    /// Reads what is waiting, without blocking; connection notices are left out.
    func receiveAvailable() -> [Received] {
        var received: [Received] = []
        while true {
            var event: UnsafeMutablePointer<snd_seq_event_t>?
            let result = snd_seq_event_input(handle, &event)
            if result == -EAGAIN { break }
            guard result >= 0, let e = event?.pointee else { continue }
            let type = UInt32(e.type)
            if type == SND_SEQ_EVENT_PORT_SUBSCRIBED.rawValue || type == SND_SEQ_EVENT_PORT_UNSUBSCRIBED.rawValue { continue }
            var stamp: Int64?
            if Int32(e.flags) & SND_SEQ_TIME_STAMP_MASK == SND_SEQ_TIME_STAMP_REAL {
                stamp = e.time.time.microseconds
            }
            received.append(Received(type: type, queueMicroseconds: stamp, value: e.data.control.value))
        }
        return received
    }

    /// Receives until `done` says so or `timeout` µs pass, polling every millisecond.
    func receive(for timeout: Int64, until done: ([Received]) -> Bool) -> [Received] {
        let deadline = MonotonicClock.microseconds() + timeout
        var all: [Received] = []
        while MonotonicClock.microseconds() < deadline {
            all += receiveAvailable()
            if done(all) { break }
            MonotonicClock.sleep(microseconds: 1_000)
        }
        return all
    }
}

extension ALSAClient {
    /// A client for a test, with its report lines collected.
    static func forTest(options: ALSAOptions = ALSAOptions(), messages: ReportLog) throws -> ALSAClient {
        try ALSAClient(options: options) { messages.append($0) }
    }
}

/// The lines an `ALSAClient` reported, collected from any thread.
final class ReportLog: @unchecked Sendable {
    private let lock = Mutex<[String]>([])
    func append(_ line: String) { lock.withLock { $0.append(line) } }
    var lines: [String] { lock.withLock { $0 } }
}

/// A ring the control thread would read, owned by the test.
final class ControlRing {
    let pointer: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>
    init(capacity: Int = 1024) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: SPSCRing(capacity: capacity))
    }
    deinit { pointer.deinitialize(count: 1); pointer.deallocate() }

    func drain() -> [ControlInputEvent] {
        var events: [ControlInputEvent] = []
        while let event = pointer.pointee.pop() { events.append(event) }
        return events
    }

    /// Reads until `count` events came or `timeout` µs passed.
    func receive(count: Int, timeout: Int64 = 3_000_000) -> [ControlInputEvent] {
        let deadline = MonotonicClock.microseconds() + timeout
        var events: [ControlInputEvent] = []
        while events.count < count && MonotonicClock.microseconds() < deadline {
            events += drain()
            MonotonicClock.sleep(microseconds: 1_000)
        }
        return events
    }
}

/// Tactus's ALSA client reading `Tactus:control` into a ring the test owns (as
/// the control thread would read it), and a test client `sender` (a keyboard, a
/// pedal) subscribed to it; the client's report lines in `log`. The test stops `client`.
struct ControlInputReading {
    let log = ReportLog()
    let client: ALSAClient
    let ring = ControlRing()
    let sender: TestSequencerClient

    /// `beforeHandingOn` runs on the input thread before each message is handed on (`ALSAClient.startInput`).
    init(sender name: String, options: ALSAOptions = ALSAOptions(), beforeHandingOn: (@Sendable (MIDIMessage) -> Void)? = nil) throws {
        client = try ALSAClient.forTest(options: options, messages: log)
        client.startInput(into: ring.pointer, beforeHandingOn: beforeHandingOn)
        sender = try TestSequencerClient(name: name)
        try sender.subscribe(from: sender.address, to: client.controlPort)
    }
}
