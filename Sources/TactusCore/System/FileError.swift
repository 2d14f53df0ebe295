#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read or written: the path the failing call was given
/// and the problem, with the `errno` kept when the C library gave one.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// A system call (open, read, write, mkdir, rename…) failed with this `errno`.
        case system(Int32)
        case isDirectory
        /// A FIFO, a device or a socket: reading it whole could block or never end.
        case notRegularFile
        /// More than `limit` bytes; `size` is what fstat(2) said, nil when the file grew while being read.
        case tooLarge(limit: Int, size: Int?)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The problem in words, without the path: "no such file", "the file has 2048 bytes, more than 1 KiB".
    public var reason: String {
        switch problem {
        case .system(ENOENT): "no such file"
        case .system(EACCES): "permission denied"
        case .system(let code): String(cString: strerror(code))
        case .isDirectory: "is a directory"
        case .notRegularFile: "is not a regular file"
        case .tooLarge(let limit, let size?): "the file has \(size) bytes, more than \(FileError.size(limit))"
        case .tooLarge(let limit, nil): "the file has more than \(FileError.size(limit))"
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// "1 MiB", "4 KiB", or "1000 bytes".
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
