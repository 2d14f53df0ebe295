import CJack

/// A JACK MIDI port buffer without a server: the events of one cycle, each
/// at its frame offset, with jack2's rules for writing one
/// (`jack_midi_event_reserve` refuses an offset past the cycle or before the
/// last event's: JACK MIDI buffers hold their events in time order). The
/// cycle sees it as the raw pointer a port buffer is (`CycleHost.buffer`).
final class SimulatedMIDIBuffer {
    private(set) var events: [(offset: UInt32, bytes: [UInt8])] = []
    /// Events refused (out of order, past the cycle).
    private(set) var refused = 0
    private let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private var used = 0
    private var reserved: [(offset: UInt32, at: Int, size: Int)] = []
    var frames: UInt32 = 256

    deinit { storage.deallocate() }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func at(_ pointer: UnsafeMutableRawPointer) -> SimulatedMIDIBuffer {
        Unmanaged<SimulatedMIDIBuffer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// A new cycle of `frames`, holding `input` (events for an input port).
    func reset(frames: UInt32, input: [(offset: UInt32, bytes: [UInt8])] = []) {
        self.frames = frames
        clear()
        for e in input {
            guard let data = reserve(e.offset, e.bytes.count) else { continue }
            for (i, b) in e.bytes.enumerated() { data[i] = b }
        }
    }

    func clear() {
        used = 0
        reserved = []
        events = []
    }

    func reserve(_ offset: UInt32, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>? {
        guard offset < frames, reserved.last.map({ $0.offset <= offset }) ?? true, used + size <= 4096 else {
            refused += 1
            return nil
        }
        reserved.append((offset, used, size))
        used += size
        return storage + (used - size)
    }

    /// The events written this cycle, read once the cycle has written them.
    func written() -> [(offset: UInt32, bytes: [UInt8])] {
        reserved.map { ($0.offset, Array(UnsafeBufferPointer(start: storage + $0.at, count: $0.size))) }
    }

    var count: UInt32 { UInt32(reserved.count) }

    func event(_ index: UInt32) -> jack_midi_event_t? {
        guard index < count else { return nil }
        let r = reserved[Int(index)]
        return jack_midi_event_t(time: r.offset, size: r.size, buffer: storage + r.at)
    }
}
