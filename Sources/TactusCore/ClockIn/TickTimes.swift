/// The arrival frames of the last ticks of an incoming clock, newest first by
/// index: a ring of fixed capacity, allocated (and its pages touched, `Prefault`)
/// when it is made, so appending on the real-time thread never allocates
/// (docs/DESIGN.md §2.2). When full, the oldest tick makes room.
public struct TickTimes: ~Copyable {
    public let capacity: Int
    private let storage: UnsafeMutablePointer<Int64>
    /// Slot of the newest tick.
    private var newest = 0
    public private(set) var count = 0

    public init(capacity: Int) {
        precondition(capacity >= 2)
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func append(_ frame: Int64) {
        newest = newest + 1 == capacity ? 0 : newest + 1
        storage[newest] = frame
        count = min(count + 1, capacity)
    }

    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func removeAll() { count = 0 }

    /// Takes out the tick before the newest (an inference undone).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func removeBeforeNewest() {
        precondition(count >= 2)
        let newestFrame = self[age: 0]
        newest = newest == 0 ? capacity - 1 : newest - 1
        storage[newest] = newestFrame
        count -= 1
    }

    /// Takes out the newest tick (a late arrival, its slot kept by the tick before it).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    mutating func removeNewest() {
        precondition(count >= 2)
        newest = newest == 0 ? capacity - 1 : newest - 1
        count -= 1
    }

    /// The frame of the tick `age` ticks before the newest (0: the newest), `age < count`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public subscript(age age: Int) -> Int64 {
        precondition(age >= 0 && age < count)
        let slot = newest - age
        return storage[slot < 0 ? slot + capacity : slot]
    }

    /// The interval (frames) that ended at the tick `age` ticks before the newest, `age + 1 < count`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public func interval(age: Int) -> Int64 { self[age: age] - self[age: age + 1] }
}
