import Foundation
import Glibc
import Testing
@testable import TactusCLI
import TactusCore

/// `kill -9` while Tactus saves leaves the old file or the new one, never a broken
/// one: the real `tactus`, saving in a loop through its real save code
/// (`TACTUS_SAVE_LOOP`, `SaveLoop`), killed 1 000 times at random moments.
@Suite("Files survive a crash: last tempo, controller.json", .serialized)
struct CrashSafeFilesTests {
    static let kills = 1_000

    @Test func theLastTempoFileIsTheOldOrTheNewAfterEveryKill() throws {
        let contents = SaveLoop.tempos.map { $0.description + "\n" }
        let result = try Self.killWhileSaving("last-tempo", file: { UserFiles.lastTempoFile($0) }, contents: contents)
        print("last-tempo: \(Self.kills) kills, \(result.summary)")
        #expect(result.broken == [], "contents other than the old or the new")
        #expect(result.found.count == 2, "both contents seen: \(result.found)")
        #expect(result.killedMidWrite > 0, "some kills fell between the temporary file and the rename")
    }

    @Test func theControllerFileIsTheOldOrTheNewAfterEveryKill() throws {
        let contents = SaveLoop.controllers.map(ControllerFile.encode)
        let result = try Self.killWhileSaving("controller", file: { UserFiles.controllerFile($0) }, contents: contents)
        print("controller.json: \(Self.kills) kills, \(result.summary)")
        #expect(result.broken == [], "contents other than the old or the new")
        #expect(result.found.count == 2, "both contents seen: \(result.found)")
        #expect(result.killedMidWrite > 0, "some kills fell between the temporary file and the rename")
        #expect(try contents.map { try ControllerFile.decode(Array($0.utf8), path: "controller.json") } == SaveLoop.controllers)
    }

    struct Result {
        /// Contents found after a kill that were neither of the two (should be none).
        var broken: [String] = []
        var found: Set<String> = []
        /// Kills that left the temporary file behind: they struck mid-save.
        var killedMidWrite = 0
        var seconds = 0.0
        var summary: String { "\(killedMidWrite) struck between the temporary file and the rename, \(broken.count) broken, \(Int(seconds.rounded())) s" }
    }

    /// Starts `tactus` with `TACTUS_SAVE_LOOP=loop` `kills` times; each time, once it
    /// said `saving`, kills it after 0 to 2 ms and reads the file it was replacing.
    static func killWhileSaving(_ loop: String, file: ([String: String]) -> String, contents: [String]) throws -> Result {
        var result = Result()
        let started = Date()
        try withTemporaryFolder { folder in
            let environment = ["HOME": folder, "XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config"]
            let path = file(environment)
            let directory = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            var spawned = ProcessInfo.processInfo.environment
            for (k, v) in environment { spawned[k] = v }
            spawned[SaveLoop.variable] = loop
            let envp = spawned.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for p in envp { free(p) } }
            let executable = TactusProcess.executable.path
            let argv = [strdup(executable), nil]
            defer { for p in argv { free(p) } }
            var generator = SystemRandomNumberGenerator()
            for kill in 0..<kills {
                var pipeEnds: [Int32] = [0, 0]
                try #require(pipe(&pipeEnds) == 0)
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
                posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
                var pid: pid_t = 0
                let spawnResult = posix_spawn(&pid, executable, &actions, nil, argv, envp)
                posix_spawn_file_actions_destroy(&actions)
                close(pipeEnds[1])
                try #require(spawnResult == 0, "posix_spawn \(executable): \(spawnResult)")
                // Wait for the first save to be done (so the file exists), at most 10 s.
                var poller = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
                var byte: UInt8 = 0
                let ready = poll(&poller, 1, 10_000) == 1 && read(pipeEnds[0], &byte, 1) == 1
                close(pipeEnds[0])
                if ready { usleep(UInt32.random(in: 0...2_000, using: &generator)) }
                Glibc.kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                try #require(ready, "kill \(kill): tactus did not start saving")
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<unreadable>"
                if contents.contains(text) { result.found.insert(text) } else { result.broken.append(text) }
                for leftover in try FileManager.default.contentsOfDirectory(atPath: directory) where leftover.hasPrefix(name + ".tmp-") {
                    result.killedMidWrite += 1
                    try FileManager.default.removeItem(atPath: directory + "/" + leftover)
                }
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }
}
