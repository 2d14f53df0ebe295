import Foundation

/// A private tmux server with one 80 × 24 pane running a command: the tests
/// type into it (`send-keys`) and read its screen (`capture-pane`) as a player
/// would see it. Its own socket (`-L`), no user configuration (`-f /dev/null`);
/// the server is ended with the test.
final class Tmux {
    static let path = "/usr/bin/tmux"
    let socket: String
    let target = "tactus"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    init(command: String, width: Int = 80, height: Int = 24) throws {
        guard Tmux.isInstalled else { throw TestFailure("tmux is not installed: scripts/test installs it (Debian package tmux)") }
        socket = "tactus-test-\(getpid())-\(Tmux.counter.next())"
        try run(["-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", command])
    }

    deinit { _ = try? run(["kill-server"]) }

    private static let counter = Counter()

    /// Runs `tmux -L SOCKET ARGUMENTS…` and returns what it printed. With
    /// posix_spawn and waitpid rather than Foundation's Process: `new-session`
    /// leaves a server behind that inherits the client's output, and Process
    /// did not always see that client exit.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let output = TestFiles.file("\(socket).tmux-output")
        let words = [Tmux.path, "-L", socket] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in envp { free(entry) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A clean signal state: the test process may have SIGINT/SIGTERM blocked
        // (a JACK client made in-process blocks them), and a tmux server that
        // inherits a blocked SIGCHLD or SIGTERM never ends.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Tmux.path, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw TestFailure("cannot start tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, spelled out (macros Swift does not import).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")): status \(status): \(text)")
        }
        return text
    }

    /// Keys by tmux's names: "Right", "Up", "Space", "q", "C-c".
    func keys(_ keys: String...) throws {
        try run(["send-keys", "-t", target] + keys)
    }

    /// The pane's rows as shown now, without colours; `joiningWrapped`: a line
    /// wider than the pane, which tmux wraps, comes back whole (`-J`).
    func screen(joiningWrapped: Bool = false) throws -> [String] {
        let text = try run(["capture-pane", "-p"] + (joiningWrapped ? ["-J"] : []) + ["-t", target])
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Reads the screen until `condition` holds (every 20 ms, up to `seconds`); the screen it held on, or nil.
    func waitFor(seconds: Double = 10, _ condition: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let lines = try? screen(), condition(lines) { return lines }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// The process the pane's shell started (the shell runs the command as its child).
    func commandPID() throws -> Int32? {
        let shell = try run(["display-message", "-p", "-t", target, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8) else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }
}

extension Array where Element == String {
    /// The row that starts with `prefix`, if any.
    func row(_ prefix: String) -> String? { first { $0.hasPrefix(prefix) } }
}
