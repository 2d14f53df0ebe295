import Synchronization

/// The tempo the control thread wants, read by the engine once per render call.
///
/// Lock-free: one `Atomic` word. One writer (the control thread: keys, pressure
/// controller, presets); any number of readers. The engine applies a new value at
/// the next MIDI clock tick, where it re-anchors its grid.
public struct TempoState: ~Copyable, @unchecked Sendable {
    @usableFromInline let hundredths: Atomic<Int32>

    public init(_ tempo: BPM) { hundredths = Atomic(tempo.hundredths) }

    @inlinable public func load() -> BPM {
        BPM(hundredths: hundredths.load(ordering: .acquiring))
    }

    @inlinable public func store(_ tempo: BPM) {
        hundredths.store(tempo.hundredths, ordering: .releasing)
    }
}
