/// A MIDI message stamped with the absolute frame where it must sound.
public struct TimedMIDIEvent: Hashable, Sendable, BitwiseCopyable {
    public var frame: Int64
    public var bytes: MIDIBytes

    public init(frame: Int64, bytes: MIDIBytes) {
        self.frame = frame
        self.bytes = bytes
    }
}

/// Caller-owned storage for the MIDI events one `Engine.render` call emits, in
/// frame order. Allocated once; the JACK callback reuses it every cycle.
public struct MIDIEventBuffer: ~Copyable {
    private let storage: UnsafeMutablePointer<TimedMIDIEvent>
    public let capacity: Int
    public private(set) var count = 0
    /// Events refused because the buffer was full, since creation.
    public private(set) var overflow = 0

    public init(capacity: Int = 1024) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        Prefault.touch(storage, count: capacity)
    }

    deinit { storage.deallocate() }

    public mutating func removeAll() { count = 0 }

    mutating func append(_ event: TimedMIDIEvent) {
        guard count < capacity else { overflow += 1; return }
        (storage + count).initialize(to: event)
        count += 1
    }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public subscript(index: Int) -> TimedMIDIEvent {
        precondition(index >= 0 && index < count)
        return storage[index]
    }
}
