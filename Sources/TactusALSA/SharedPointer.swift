/// A pointer to state shared between threads, owned by whoever allocated it (the
/// host program): a ring or a frame-clock reference lives at one stable address
/// for the whole run, and the ALSA threads only borrow it.
public struct SharedPointer<Pointee: ~Copyable>: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<Pointee>

    public init(_ pointer: UnsafeMutablePointer<Pointee>) { self.pointer = pointer }
}
