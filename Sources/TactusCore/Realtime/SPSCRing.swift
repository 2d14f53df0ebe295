import Synchronization

/// A bounded single-producer / single-consumer queue of plain values, lock-free
/// and allocation-free after `init`, so the JACK process callback can be either
/// end. One thread may push, one other thread may pop; both take `borrowing self`
/// so the ring lives inline in a shared, address-stable context.
///
/// The producer publishes a slot by a release store of `tail`; the consumer reads
/// it after an acquiring load, and gives it back by a release store of `head`.
/// A full ring refuses the value and counts it in `dropped`: the real-time side
/// never waits.
public struct SPSCRing<Element: BitwiseCopyable>: ~Copyable, @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let mask: Int
    @usableFromInline let head = Atomic<Int>(0)   // next slot to read, written by the consumer
    @usableFromInline let tail = Atomic<Int>(0)   // next slot to write, written by the producer
    /// Values refused because the ring was full.
    public let dropped = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    public init(capacity: Int) {
        var size = 2
        while size < capacity { size <<= 1 }
        storage = .allocate(capacity: size)
        Prefault.touch(storage, count: size)
        mask = size - 1
    }

    deinit { storage.deallocate() }

    public var capacity: Int { mask + 1 }

    /// Producer side. False (and counted) when full.
    @inlinable @discardableResult
    public func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        if t - h > mask {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        (storage + (t & mask)).initialize(to: value)
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Consumer side. Nil when empty.
    @inlinable
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        if h == t { return nil }
        let value = storage[h & mask]
        head.store(h + 1, ordering: .releasing)
        return value
    }

    /// Consumer side: the oldest value without removing it.
    @inlinable
    public func peek() -> Element? {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        return h == t ? nil : storage[h & mask]
    }

    /// Values waiting; exact on either end's own thread, a snapshot elsewhere.
    public var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}
