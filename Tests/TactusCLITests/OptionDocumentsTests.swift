import Foundation
import Testing
@testable import TactusCLI

/// `--help`, the man page (`tactus --help-man`) and the bash completion
/// (`tactus --help-completion bash`) are all built from `OptionTable`: each
/// option of the table is in all three, where its commands are.
@Suite("The option table in --help, the man page and the completion")
struct OptionDocumentsTests {
    @Test func everyOptionIsInHelpManPageAndCompletion() throws {
        let man = try TactusProcess.run(["--help-man"])
        let completion = try TactusProcess.run(["--help-completion", "bash"])
        #expect(man.status == 0 && completion.status == 0)
        let completionLines = completion.standardOutput.split(separator: "\n").map(String.init)
        for command in Options.Command.allCases {
            let help = try TactusProcess.run([command.rawValue, "--help"]).standardOutput
            // The completion's list for the command: `        run) _tactus_offer "$cur" <<<$'-b\n--bpm\n…' ;;`.
            let offered = try #require(completionLines.first { $0.hasPrefix("        \(command.rawValue)) _tactus_offer") })
            let words = offered.split(separator: "'")[1].components(separatedBy: "\\n")
            for spec in OptionTable.options(of: command) {
                #expect(help.contains("  " + spec.synopsis + "  "), "\(command) --help: \(spec.long)")
                #expect(spec.names.allSatisfy(words.contains), "completion of \(command): \(spec.long)")
            }
            #expect(Set(words) == Set(OptionTable.options(of: command).flatMap(\.names)), "\(command): the completion offers no other option")
            #expect(man.standardOutput.contains(".TP\n\\fB\(command.rawValue)\\fR\n"), "man page: command \(command)")
        }
        for spec in OptionTable.all {
            // The man page's entry: `\fB\-b\fR, \fB\-\-bpm\fR \fIBPM\fR` (roff: a hyphen typed is `\-`).
            let names = spec.names.map { "\\fB" + $0.replacingOccurrences(of: "-", with: "\\-") + "\\fR" }.joined(separator: ", ")
            let placeholder = spec.placeholder.map { " \\fI" + $0.replacingOccurrences(of: "-", with: "\\-") + "\\fR" } ?? ""
            #expect(man.standardOutput.contains(".TP\n" + names + placeholder + "\n"), "man page: \(spec.long)")
            // A value option's value is completed by its own `case $prev` arm, with its choices.
            if spec.takesValue {
                let arm = completionLines.first { $0.hasPrefix("    " + spec.names.joined(separator: " | ") + ") ") }
                #expect(arm != nil, "completion: the value of \(spec.long)")
                if !spec.choices.isEmpty { #expect(arm?.contains("$'" + spec.choices.joined(separator: "\\n") + "'") == true, "\(spec.long)") }
            }
        }
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "PRESET FILES", "CONTROLLER FILE", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(man.standardOutput.contains("\n.SH \(section)\n"), "man page section \(section)")
        }
        #expect(man.standardOutput.contains(".BR jackd (1),\n.BR klick (1),\n.BR aconnect (1)"))
    }

    /// groff's own check (`-ww`: every warning; `-z`: no output): the page is clean roff.
    @Test func theManPageHasNoGroffWarning() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("tactus-\(getpid()).1")
        defer { try? FileManager.default.removeItem(at: page) }
        try Data(try TactusProcess.run(["--help-man"]).standardOutput.utf8).write(to: page)
        let groff = try Shell.run("groff -man -ww -z '\(page.path)'")
        #expect(groff.status == 0 && groff.output == "")
    }

    /// The script in bash, as bash calls it at a Tab: COMP_WORDS and COMP_CWORD in, COMPREPLY out.
    @Test func theCompletionOffersOptionsValuesAndPresetNames() throws {
        let script = try TactusProcess.run(["--help-completion", "bash"]).standardOutput
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
            let run = try Shell.run("eval \"$TACTUS_COMPLETION\"; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _tactus; printf '%s\\n' \"${COMPREPLY[@]}\"",
                                    environment: ["TACTUS_COMPLETION": script, "PATH": TactusProcess.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"])
            return run.output.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["tactus", "--sub"]) == ["--subdivision"])
        #expect(try complete(["tactus", "--subdivision", "t"]) == ["triplets"])
        #expect(try complete(["tactus", "-m", "7"]) == ["7/8"])
        #expect(try complete(["tactus", "--pressure-mode", ""]) == ["levels", "continuous"])
        #expect(try complete(["tactus", "render", "--fo"]) == ["--format"])
        #expect(try complete(["tactus", "presets", "--"]) == ["--setlist", "--names", "--help", "--version"])
        #expect(try complete(["tactus", "re"]) == ["render"])
        #expect(try complete(["tactus", "--preset", "Wal"]) == ["Waltz"])
        // A free value has nothing to offer, not the options.
        #expect(try complete(["tactus", "--bpm", ""]) == [])
        // No server: no port, and at once (`tactus ports` says so and exits).
        #expect(try complete(["tactus", "--connect-clock", ""]) == [])
    }
}

/// `bash -c COMMAND`: its status and its standard output and error together.
enum Shell {
    static func run(_ command: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
