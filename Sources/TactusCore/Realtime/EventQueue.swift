/// A fixed-capacity FIFO for one thread, used inside the engine to hold events
/// whose output frame lies beyond the current block (the clock offset delays one
/// stream against the other). Allocated once; `append` refuses when full.
struct EventQueue<Element: BitwiseCopyable>: ~Copyable {
    private let storage: UnsafeMutablePointer<Element>
    private let capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    mutating func append(_ e: Element) -> Bool {
        guard count < capacity else { return false }
        (storage + (head + count) % capacity).initialize(to: e)
        count += 1
        return true
    }

    var first: Element? { count == 0 ? nil : storage[head] }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) % capacity
        count -= 1
    }

    mutating func removeAll() { head = 0; count = 0 }

    /// Changes every element in place, oldest first.
    mutating func updateEach(_ body: (inout Element) -> Void) {
        for i in 0..<count { body(&storage[(head + i) % capacity]) }
    }
}
