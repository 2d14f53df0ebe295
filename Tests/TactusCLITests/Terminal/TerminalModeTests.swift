import CTerminal
import TactusCore
import Testing
@testable import TactusCLI
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair: the side a program reads (`follower`) and the side a
/// terminal emulator drives (`leader`).
final class PseudoTerminal {
    let leader: Int32
    let follower: Int32

    init() throws {
        var l: Int32 = -1, f: Int32 = -1
        guard tactus_pty_open(&l, &f) == 0 else { throw PseudoTerminalError() }
        leader = l
        follower = f
    }

    deinit {
        close(follower)
        close(leader)
    }

    func settings() -> termios {
        var t = termios()
        tcgetattr(follower, &t)
        return t
    }

    /// Bytes the program wrote, as the emulator would read them (non-blocking).
    func output() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct PseudoTerminalError: Error {}
}

/// Raw mode is process-wide state (one saved setting): one test at a time.
@Suite("Terminal session: raw mode in, everything restored out", .serialized)
struct TerminalModeTests {
    func same(_ a: termios, _ b: termios) -> Bool {
        a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
    }

    @Test func rawModeTurnsOffEchoLinesAndSignalsAndLeaveRestoresEveryFlag() throws {
        let pty = try PseudoTerminal()
        let before = pty.settings()
        #expect(before.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == tcflag_t(ECHO | ICANON | ISIG), "a fresh pty is cooked")
        let session = TerminalSession(input: pty.follower, output: pty.follower)
        session.enter()
        #expect(session.keysAreRaw)
        let raw = pty.settings()
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) != 0, "output still post-processed: a stray line starts at the margin")
        #expect(pty.output().hasPrefix("\u{1B}[?1049h\u{1B}[?25l"), "alternate screen, cursor hidden")
        session.leave()
        #expect(same(pty.settings(), before))
        #expect(pty.output() == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", "cursor shown, main screen back")
        // Leaving twice is harmless: nothing more is written.
        session.leave()
        tactus_terminal_restore()
        #expect(pty.output() == "")
    }

    @Test func theTerminalSizeIsReadFromTheWindow() throws {
        let pty = try PseudoTerminal()
        #expect(tactus_pty_set_size(pty.leader, 31, 97) == 0)
        let session = TerminalSession(input: pty.follower, output: pty.follower)
        #expect(session.size.rows == 31 && session.size.columns == 97)
        // Not a terminal: the 80 x 24 default.
        let notATerminal = TerminalSession(input: -1, output: -1)
        #expect(notATerminal.size.rows == 24 && notATerminal.size.columns == 80)
    }

    @Test func aKeyReaderStampsAndDecodesKeysFromTheTerminal() throws {
        let pty = try PseudoTerminal()
        let session = TerminalSession(input: pty.follower, output: pty.follower)
        session.enter()
        defer { session.leave() }
        let reader = KeyReader(input: pty.follower)
        reader.start()
        let before = MonotonicClock().now().microseconds
        let bytes = Array("\u{1B}[C t]q".utf8) + [0x03]
        _ = bytes.withUnsafeBytes { write(pty.leader, $0.baseAddress, $0.count) }
        var keys: [TimedKeyAction] = []
        for _ in 0..<100 where keys.count < 6 {
            usleep(10_000)
            keys += reader.drain()
        }
        reader.stop()
        #expect(keys.map(\.action) == [.tempoStep(1), .startStop, .tap, .nextPreset, .quit, .quit])
        #expect(keys.allSatisfy { $0.microseconds >= before })
    }
}
