import Foundation

/// Runs the built `tactus` executable (next to the test bundle in .build) and
/// collects its exit status and output: what a user at a shell sees.
enum TactusProcess {
    static var executable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test binary is `.build/<triple>/debug/TactusPackageTests.xctest` (a file on Linux).
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("tactus").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("tactus")
    }

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, standardOutput: String(decoding: o, as: UTF8.self), standardError: String(decoding: e, as: UTF8.self))
    }
}
