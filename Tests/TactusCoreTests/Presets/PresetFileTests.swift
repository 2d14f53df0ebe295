import Foundation
import Testing
@testable import TactusCore

@Suite("Preset files on disk")
struct PresetFileTests {
    @Test func aDirectoryIsRefusedWithOneMessage() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/song.json", withIntermediateDirectories: false)
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: folder.path + "/song.json") }
        #expect(error?.messages == ["\(folder.path)/song.json: is a directory; allowed: a preset file (JSON), not a folder"])
    }

    @Test func aMissingFileIsRefusedWithOneMessage() {
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: "/nonexistent/tactus/x.json") }
        #expect(error?.messages == ["/nonexistent/tactus/x.json: no such file; allowed: a readable file"])
    }

    @Test func anUnreadableFileIsRefusedWithOneMessage() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // Through a file as if it were a folder: unreadable for root too (chmod 000 is not).
        let file = folder.write("plain.json", #"{ "name": "A", "tempo": 90 }"#)
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: file + "/inner.json") }
        #expect(error?.messages == ["\(file)/inner.json: cannot be read: Not a directory; allowed: a readable file"])
        if getuid() != 0 {
            chmod(file, 0)
            let denied = #expect(throws: PresetError.self) { try PresetFile.load(path: file) }
            #expect(denied?.messages == ["\(file): cannot be read: permission denied; allowed: a readable file"])
        }
    }

    @Test func aDeviceIsRefusedWithoutReadingIt() {
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: "/dev/zero") }
        #expect(error?.messages == ["/dev/zero: is not a regular file; allowed: a preset file (JSON)"])
    }

    @Test func aFileOverOneMebibyteIsRefusedBeforeItIsRead() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let text = #"{ "name": "A", "tempo": 90, "x": ""# + String(repeating: " ", count: 1 << 20) + "\" }"
        #expect(text.utf8.count == 1_048_613)
        let file = folder.write("huge.json", text)
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: file) }
        #expect(error?.messages == ["\(file): the file has 1048613 bytes, more than 1 MiB; allowed: a file of at most 1 MiB"])
    }

    @Test func aFileOfExactlyOneMebibyteIsRead() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let head = #"{ "name": "Padded", "tempo": 90 }"#
        let file = folder.write("big.json", head + String(repeating: " ", count: (1 << 20) - head.utf8.count))
        #expect(try PresetFile.load(path: file).name == "Padded")
    }

    @Test func aSampleThatCannotBeReadIsNamedByItsField() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("hi.wav", "RIFF")
        let file = folder.write("s.json", #"{ "name": "S", "tempo": 90, "sounds": { "accent": { "sample": "hi.wav" }, "feedback": { "impact": "lo.wav" } } }"#)
        let error = #expect(throws: PresetError.self) { try PresetFile.load(path: file) }
        #expect(error?.issues.map(\.path) == ["sounds.feedback.impact"])
        #expect(error?.messages.first?.contains("cannot read \(folder.path)/lo.wav: No such file or directory") == true)
    }
}
