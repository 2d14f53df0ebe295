import Foundation
import Testing

extension JACKServerTests {
    /// The README's quick start, each command as the README
    /// writes it, run here: the live ones against a private jackd (its server
    /// and client name added, no display, no ALSA), the render in a folder of
    /// its own, and the two set-up commands checked to be the scripts the
    /// Install section describes.
    @Suite(.serialized) struct ReadmeQuickStart {
        static let root: String = {
            var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
            parts.removeLast(3)
            return parts.joined(separator: "/")
        }()

        /// The quick start's commands: the indented lines of the block after its
        /// marker, the comment cut off, split into words as a shell would (double quotes).
        static func commands() throws -> [[String]] {
            let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
            let marker = try #require(readme.range(of: "<!-- quick start:"))
            var lines = readme[marker.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            while lines.first?.isEmpty == true { lines = lines.dropFirst() }
            return lines.prefix { $0.hasPrefix("    ") }.map { words(String($0)) }
        }

        static func words(_ line: String) -> [String] {
            var words: [String] = [], word = "", quoted = false, any = false
            for c in line {
                if c == "\"" { quoted.toggle(); any = true; continue }
                if !quoted && c == "#" { break }
                if !quoted && c == " " {
                    if any { words.append(word) }
                    word = ""; any = false
                    continue
                }
                word.append(c); any = true
            }
            if any { words.append(word) }
            return words
        }

        @Test("The quick start is the 8 commands this test runs, in 10 lines or fewer")
        func theQuickStartIsWhatIsTested() throws {
            let commands = try Self.commands()
            #expect(commands.count <= 10)
            #expect(commands.map { $0.joined(separator: " ") } == [
                "scripts/run", "scripts/test", "tactus 7/8 133", "tactus system:playback_1 system:playback_2",
                "tactus --connect-clock ardour:MIDI Clock in", "tactus --preset Waltz", "tactus render click.wav --seconds 30 --bpm 96",
                "tactus --help",
            ])
        }

        @Test("The two set-up commands are the Install section's scripts, executable and valid shell")
        func theTwoCommands() throws {
            let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
            let install = try #require(readme.range(of: "## Install"))
            for command in try Self.commands() where command[0].hasPrefix("scripts/") {
                let path = Self.root + "/" + command[0]
                #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
                #expect(readme[install.upperBound...].contains("    \(command[0]) "), "Install does not describe \(command[0])")
                let check = Process()
                check.executableURL = URL(fileURLWithPath: "/bin/bash")
                check.arguments = ["-n", path]
                try check.run()
                check.waitUntilExit()
                #expect(check.terminationStatus == 0, "bash -n \(path)")
            }
        }

        @Test("Every tactus command of the quick start runs: live on a private jackd, the render to its file")
        func everyTactusCommandRuns() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            // A DAW's clock input, as Ardour names it.
            let recording = TestFiles.file("\(server.name).quickstart.recording")
            let ready = URL(fileURLWithPath: recording.path + ".ready")
            let daw = try TestProcess.launch(TestFiles.probe, ["record", "-s", server.name, "--name", "ardour", "--out", recording.path,
                                                               "--ready", ready.path, "--audio-ports", "0", "--midi-ports", "1",
                                                               "--midi-port-name", "MIDI Clock in"],
                                             output: URL(fileURLWithPath: recording.path + ".log"))
            defer { _ = Launch.stop(daw) }
            try #require(TestProcess.waitForFile(ready, seconds: 10), "the DAW's port did not appear")
            let home = TestFiles.file("\(server.name).quickstart-home")
            // No last tempo, no presets or controller of the player's own.
            let environment = ["XDG_CONFIG_HOME": home.path + "/config", "XDG_STATE_HOME": home.path + "/state"]

            for (n, command) in try Self.commands().enumerated() where command[0] == "tactus" {
                let arguments = Array(command.dropFirst())
                let log = TestFiles.file("\(server.name).quickstart-\(n).log")
                let line = command.joined(separator: " ")
                if arguments.first == "render" || arguments.contains("--help") {
                    let folder = TestFiles.file("\(server.name).quickstart-\(n)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let p = try TestProcess.launch(TestFiles.tactus, arguments, output: log, environment: environment, directory: folder)
                    #expect(TestProcess.wait(p, seconds: 60) == 0, "\(line): \(Launch.text(log))")
                    if arguments.first == "render" {
                        // 30 s at 48 kHz, 16-bit mono: 1 440 000 frames after a 44-byte header.
                        #expect(Launch.text(log).contains("rendered 1440000 frames"), "\(line): \(Launch.text(log))")
                        let size = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("click.wav").path)[.size] as? Int
                        #expect(size == 44 + 2 * 1_440_000, "\(line)")
                    } else {
                        #expect(Launch.text(log).contains("tactus render"), "\(line): \(Launch.text(log))")
                    }
                    continue
                }
                let client = "qs\(n)"
                let p = try TestProcess.launch(TestFiles.tactus, arguments + ["-s", server.name, "-n", client, "--no-alsa", "--no-interactive"],
                                               output: log, environment: environment)
                #expect(Launch.waitFor(log, containing: " running\n"), "\(line): \(Launch.text(log))")
                Thread.sleep(forTimeInterval: 1)
                let connections = try Self.connections(server: server.name)
                #expect(Launch.stop(p) == 0, "\(line): \(Launch.text(log))")
                let text = Launch.text(log)
                switch arguments {
                case ["7/8", "133"]:
                    #expect(text.contains(" meter 7/8 Xxxxxxx\n") && text.contains(" tempo 266 BPM\n"), "\(line): \(text)")
                case ["system:playback_1", "system:playback_2"]:
                    #expect(connections["\(client):click"] == ["system:playback_1", "system:playback_2"], "\(line): \(connections)")
                case ["--connect-clock", "ardour:MIDI Clock in"]:
                    #expect(text.contains(" connected JACK clock -> ardour:MIDI Clock in\n"), "\(line): \(text)")
                    #expect(connections["\(client):clock"] == ["ardour:MIDI Clock in"], "\(line): \(connections)")
                case ["--preset", "Waltz"]:
                    #expect(text.contains(" Waltz\n") && text.contains(" meter 3/4 "), "\(line): \(text)")
                default:
                    Issue.record("no check for \(line)")
                }
            }
            // The DAW heard the clock at 120 BPM (the tempo with no last tempo): a tick every 1 000 frames.
            _ = Launch.stop(daw)
            let ticks = try Recording(contentsOf: recording).ticks()
            let fit = GridFit(Array(ticks.prefix(40)), interval: 1000)
            #expect(fit.count == 40 && fit.fittedError <= 0.5 && fit.gaps == 0, "\(fit)")
        }

        /// `jack_lsp -c`: each port of the server and the ports connected to it.
        static func connections(server: String) throws -> [String: [String]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/jack_lsp")
            p.arguments = ["-s", server, "-c"]
            p.environment = ProcessInfo.processInfo.environment
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = FileHandle.nullDevice
            try p.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            var result: [String: [String]] = [:]
            var port = ""
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix(" ") { result[port, default: []].append(line.trimmingCharacters(in: .whitespaces)) } else { port = String(line) }
            }
            return result.mapValues { $0.sorted() }
        }
    }
}
