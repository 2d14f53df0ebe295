import Foundation
import Testing
@testable import TactusCore

@Suite("File system wrappers: atomic replace, mkdir -p, whole-file read")
struct FileSystemTests {
    @Test func replaceCreatesTheMissingFoldersAndLeavesNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path + "/state/tactus/last-tempo"
        try FileSystem.replace(file, with: Array("97.30\n".utf8))
        #expect(try FileSystem.read(file, limit: 64) == Array("97.30\n".utf8))
        try FileSystem.replace(file, with: Array("133\n".utf8))
        #expect(try FileSystem.read(file, limit: 64) == Array("133\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/state/tactus") == ["last-tempo"])
    }

    @Test func replaceGivesTheFileTheModeOfTheUmask() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path + "/controller.json"
        let previous = umask(0o022)
        defer { umask(previous) }
        try FileSystem.replace(file, with: [])
        var info = stat()
        #expect(stat(file, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o644)
    }

    @Test func aFolderBlockedByAFileNamesThatFolder() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let plain = folder.write("tactus", "not a folder")
        let error = #expect(throws: FileError.self) { try FileSystem.replace(plain + "/presets/x.json", with: [1]) }
        #expect(error == FileError(path: plain, problem: .system(ENOTDIR)))
        #expect(error?.description == "\(plain): Not a directory")
    }

    @Test func createDirectoriesAcceptsFoldersThatExist() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileSystem.createDirectories(folder.path + "/a/b")
        try FileSystem.createDirectories(folder.path + "/a/b/")
        #expect(PresetDirectories.isDirectory(folder.path + "/a/b"))
    }

    @Test func readRefusesAFileOverTheLimitAndNamesBothSizes() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.write("last-tempo", String(repeating: "9", count: 1025))
        let error = #expect(throws: FileError.self) { try FileSystem.read(file, limit: 1024) }
        #expect(error?.reason == "the file has 1025 bytes, more than 1 KiB")
        #expect(try FileSystem.read(file, limit: 1025).count == 1025)
    }

    /// The buffer starts at the size fstat gives: a file that says 0 bytes (as /proc's do) and has
    /// more is read whole, growing the buffer; one past the limit is still refused.
    @Test func aFileLargerThanItsStatSizeIsReadWholeUpToTheLimit() throws {
        let maps = try FileSystem.read("/proc/self/maps", limit: 1 << 20)
        #expect(maps.count > 4096 && maps.last == UInt8(ascii: "\n"))
        let small = #expect(throws: FileError.self) { try FileSystem.read("/proc/self/maps", limit: 100) }
        #expect(small?.problem == .tooLarge(limit: 100, size: nil))
    }

    @Test func aMissingFileKeepsItsErrno() {
        let error = #expect(throws: FileError.self) { try FileSystem.read("/nonexistent/tactus/controller.json", limit: 64) }
        #expect(error?.problem == .system(ENOENT))
        #expect(error?.description == "/nonexistent/tactus/controller.json: no such file")
    }
}
