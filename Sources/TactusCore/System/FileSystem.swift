#if canImport(Glibc)
import Glibc
#endif

/// The few file operations Tactus needs (presets, set lists, controller.json,
/// the last tempo), as thin wrappers over the C library that throw `FileError`.
///
/// Not Foundation on purpose: loading libFoundation and its ICU data for these
/// calls cost the `tactus` process about 3 MB of anonymous resident memory
/// (relocated pages and their heap, all locked by mlockall) and a third of its
/// start-up time. Never called on the real-time thread.
public enum FileSystem {
    /// The bytes of the regular file at `path`, at most `limit` of them: a larger
    /// file, a directory, a FIFO or a device is refused without reading it.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, problem: .system(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, problem: .system(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileError(path: path, problem: .isDirectory)
        default: throw FileError(path: path, problem: .notRegularFile)
        }
        guard Int(info.st_size) <= limit else { throw FileError(path: path, problem: .tooLarge(limit: limit, size: Int(info.st_size))) }
        // Read until end of file, one byte past the limit at most: the file may grow after fstat.
        // The buffer is the size fstat gave and one byte more (the end of file is seen at once),
        // grown only if the file grew; not `limit + 1` up front: a 1 MiB buffer for each preset
        // raised glibc malloc's mmap threshold (mallopt(3): it follows the largest freed mapped
        // block), so the heap stayed 1 MiB larger, every page of it locked by mlockall.
        var bytes = [UInt8](repeating: 0, count: min(limit, Int(info.st_size)) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { break }
                bytes += repeatElement(0, count: min(limit + 1, max(4096, 2 * count)) - count)
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, problem: .system(errno))
            }
            count += n
        }
        guard count <= limit else { throw FileError(path: path, problem: .tooLarge(limit: limit, size: nil)) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Replaces the file at `path` with `bytes`, creating its folders: the one
    /// atomic write of Tactus (the last tempo, `controller.json`). Written to a
    /// temporary file beside it (the same file system), flushed to the disk with
    /// fsync(2), then renamed over it: rename(2) replaces the name atomically, so a
    /// reader, or Tactus after `kill -9`, finds the old file or the new one, never
    /// an empty or half-written one. The fsync before the rename keeps a power cut
    /// from leaving the new name on blocks never written (ext4 and XFS may commit
    /// the rename first); the folder's fsync after it makes the rename itself durable.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let folder = parent(of: path)
        if let folder { try createDirectories(folder) }
        let temporary = path + ".tmp-\(getpid())"
        // Mode 0666 less the umask, as any editor would create it.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard fd >= 0 else { throw FileError(path: path, problem: .system(errno)) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw FileError(path: path, problem: .system(code))
            }
            written += n
        }
        // fsync and close(2) are where a full disk or a network file system reports a failed write.
        let synced = fsync(fd) == 0
        let code = errno
        guard close(fd) == 0, synced else {
            let failure = synced ? errno : code
            unlink(temporary)
            throw FileError(path: path, problem: .system(failure))
        }
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw FileError(path: path, problem: .system(failure))
        }
        syncDirectory(folder ?? ".")
    }

    /// fsync(2) of a folder, so a rename in it survives a power cut. Best effort: the
    /// file is already replaced, and some file systems refuse a folder's fsync (EINVAL).
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `mkdir -p`: creates the folder and its missing parents (mode 0777 less the umask).
    /// Whether `path` is a regular file (or a link to one).
    public static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    public static func createDirectories(_ path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 {
                let code = errno
                guard code == EEXIST else { throw FileError(path: prefix, problem: .system(code)) }
                var info = stat()
                guard stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw FileError(path: prefix, problem: .system(ENOTDIR)) }
            }
            prefix += "/"
        }
    }

    /// The folder holding `path`; nil for a bare file name (the working folder) and for "/".
    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = path[..<slash]
        return folder.isEmpty ? nil : String(folder)
    }
}
