import TactusCore

/// Where the ALSA clock thread reads its work: the clock stream the JACK process
/// callback pushes (an `SPSCRing<TimedMIDIEvent>`, the thread being its one
/// consumer) and the `FrameClockReference` the same callback publishes.
///
/// Closures, so the ring and the reference may live wherever their owner keeps
/// them, e.g. inline in the JACK client's shared state
/// (`shared.pointee.clockStream?.peek()`), or at their own addresses.
/// Called on the clock thread only.
public struct ClockStreamSource: Sendable {
    public var peek: @Sendable () -> TimedMIDIEvent?
    public var pop: @Sendable () -> Void
    public var isEmpty: @Sendable () -> Bool
    public var frameClock: @Sendable () -> FrameClockReference.Point?

    public init(peek: @escaping @Sendable () -> TimedMIDIEvent?, pop: @escaping @Sendable () -> Void,
                isEmpty: @escaping @Sendable () -> Bool, frameClock: @escaping @Sendable () -> FrameClockReference.Point?) {
        self.peek = peek
        self.pop = pop
        self.isEmpty = isEmpty
        self.frameClock = frameClock
    }

    /// A ring and a reference at their own stable addresses, which must outlive the clock thread.
    public init(events: UnsafeMutablePointer<SPSCRing<TimedMIDIEvent>>, reference: UnsafeMutablePointer<FrameClockReference>) {
        let events = SharedPointer(events), reference = SharedPointer(reference)
        self.init(peek: { events.pointer.pointee.peek() }, pop: { _ = events.pointer.pointee.pop() },
                  isEmpty: { events.pointer.pointee.count == 0 }, frameClock: { reference.pointer.pointee.read() })
    }
}
