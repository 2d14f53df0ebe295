#if canImport(Glibc)
import Glibc
#endif

/// Touches every page of a buffer the real-time thread will use, when it is
/// allocated (off that thread). The JACK client locks memory with
/// `mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)`: a page is made resident
/// and locked when it is first touched, not when it is mapped, so a thread's
/// stack costs what it uses instead of its whole reservation. A page of a ring
/// the callback would be first to write would then fault on the real-time
/// thread; written here, it never does (docs/DESIGN.md §2.2).
enum Prefault {
    /// Writes zero bytes over `count` elements' storage (uninitialized memory stays so for Swift).
    static func touch<T>(_ pointer: UnsafeMutablePointer<T>, count: Int) {
        _ = memset(pointer, 0, count * MemoryLayout<T>.stride)
    }
}
