/// The index arithmetic of a fixed-capacity FIFO, shared by the engine's
/// concrete queues (`MIDIEventQueue`, `ClickQueue`).
///
/// The queues are concrete, not one generic type, on purpose: a debug build
/// runs generic code through runtime metadata that the Swift runtime builds the
/// first time it is needed, taking a lock and allocating, and the real-time
/// probe caught exactly that on the first Start and the first click of an
/// engine that had never played (docs/DESIGN.md §2.2). Concrete types have no
/// such first time.
struct QueueIndices: BitwiseCopyable {
    let capacity: Int
    private(set) var head = 0
    private(set) var count = 0

    init(capacity: Int) { self.capacity = capacity }

    /// The slot for a new element, or nil when full (then nothing changes).
    mutating func append() -> Int? {
        guard count < capacity else { return nil }
        count += 1
        return (head + count - 1) % capacity
    }

    /// The slot of the oldest element, or nil when empty.
    var first: Int? { count == 0 ? nil : head }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) % capacity
        count -= 1
    }

    mutating func removeAll() { head = 0; count = 0 }

    /// The slot of the `i`-th element from the oldest.
    func slot(_ i: Int) -> Int { (head + i) % capacity }
}

/// MIDI events waiting for their frame (the clock offset delays them past the
/// block). One thread; allocated once; `append` refuses when full.
struct MIDIEventQueue: ~Copyable {
    private let storage: UnsafeMutablePointer<TimedMIDIEvent>
    private var indices: QueueIndices

    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
        Prefault.touch(storage, count: capacity)
        indices = QueueIndices(capacity: capacity)
    }

    deinit { storage.deallocate() }

    mutating func append(_ e: TimedMIDIEvent) -> Bool {
        guard let slot = indices.append() else { return false }
        (storage + slot).initialize(to: e)
        return true
    }

    var first: TimedMIDIEvent? {
        guard let slot = indices.first else { return nil }
        return storage[slot]
    }
    mutating func removeFirst() { indices.removeFirst() }

    /// Moves every frame after `frame` by `scale` (a sample-rate change).
    mutating func rescaleFrames(_ scale: (Int64) -> Int64) {
        for i in 0..<indices.count { storage[indices.slot(i)].frame = scale(storage[indices.slot(i)].frame) }
    }
}

/// Click onsets waiting for their frame (a negative clock offset delays them).
/// One thread; allocated once; `append` refuses when full.
struct ClickQueue: ~Copyable {
    private let storage: UnsafeMutablePointer<TimedClick>
    private var indices: QueueIndices

    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
        Prefault.touch(storage, count: capacity)
        indices = QueueIndices(capacity: capacity)
    }

    deinit { storage.deallocate() }

    mutating func append(_ e: TimedClick) -> Bool {
        guard let slot = indices.append() else { return false }
        (storage + slot).initialize(to: e)
        return true
    }

    var first: TimedClick? {
        guard let slot = indices.first else { return nil }
        return storage[slot]
    }
    mutating func removeFirst() { indices.removeFirst() }

    mutating func rescaleFrames(_ scale: (Int64) -> Int64) {
        for i in 0..<indices.count { storage[indices.slot(i)].frame = scale(storage[indices.slot(i)].frame) }
    }
}
