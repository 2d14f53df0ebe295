import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An OSC message as the tests write and read it, encoded here by hand (OSC 1.0:
/// the path and the type tags as 4-byte padded strings, big-endian int32 and
/// float32), independently of liblo, which Tactus uses.
struct OSCTestMessage: Equatable, CustomStringConvertible {
    enum Value: Equatable { case i(Int32), f(Float), s(String) }
    var path: String
    var values: [Value]

    init(_ path: String, _ values: [Value] = []) {
        self.path = path
        self.values = values
    }

    var bytes: [UInt8] {
        var out = Self.padded(path)
        out += Self.padded("," + values.map { switch $0 { case .i: "i"; case .f: "f"; case .s: "s" } }.joined())
        for v in values {
            switch v {
            case .i(let n): out += withUnsafeBytes(of: n.bigEndian, Array.init)
            case .f(let x): out += withUnsafeBytes(of: x.bitPattern.bigEndian, Array.init)
            case .s(let s): out += Self.padded(s)
            }
        }
        return out
    }

    static func padded(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        while b.count % 4 != 0 { b.append(0) }
        return b
    }

    /// Reads a reply (i, f, s only: what Tactus sends); nil if it is not one.
    init?(decoding data: [UInt8]) {
        var at = 0
        func string() -> String? {
            guard let end = data[at...].firstIndex(of: 0) else { return nil }
            let s = String(decoding: data[at..<end], as: UTF8.self)
            at = (end + 4) & ~3
            return s
        }
        func word() -> UInt32? {
            guard at + 4 <= data.count else { return nil }
            defer { at += 4 }
            return data[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard let path = string(), let tags = string(), tags.hasPrefix(",") else { return nil }
        var values: [Value] = []
        for tag in tags.dropFirst() {
            switch tag {
            case "i": guard let w = word() else { return nil }; values.append(.i(Int32(bitPattern: w)))
            case "f": guard let w = word() else { return nil }; values.append(.f(Float(bitPattern: w)))
            case "s": guard let s = string() else { return nil }; values.append(.s(s))
            default: return nil
            }
        }
        self.path = path
        self.values = values
    }

    var description: String { "\(path) \(values.map { switch $0 { case .i(let n): "\(n)"; case .f(let x): "\(x)"; case .s(let s): "\"\(s)\"" } }.joined(separator: " "))" }
}

/// A UDP socket on 127.0.0.1 that sends datagrams to Tactus' OSC port and reads
/// what comes back (errors, pong, state), as a tablet would.
final class OSCTestPeer {
    let socket: Int32
    let port: UInt16

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        guard withUnsafePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else {
            close(fd)
            throw TestFailure("cannot bind a UDP socket on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        // A big receive buffer: a flood's answers must not be lost on our side.
        var size: Int32 = 4 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socket) }

    var url: String { "osc.udp://127.0.0.1:\(port)/" }

    static func loopback(port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return a
    }

    func send(_ bytes: [UInt8], to port: UInt16) {
        var target = Self.loopback(port: port)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &target) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            } }
        }
    }

    func send(_ message: OSCTestMessage, to port: UInt16) { send(message.bytes, to: port) }

    /// The next datagram within `seconds`, or nil.
    func receive(seconds: Double = 2) -> [UInt8]? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// The next message on `path` within `seconds` (others are skipped).
    func receive(path: String, seconds: Double = 2) -> OSCTestMessage? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let data = receive(seconds: deadline.timeIntervalSinceNow) else { return nil }
            if let m = OSCTestMessage(decoding: data), m.path == path { return m }
        }
        return nil
    }

    /// Everything waiting, dropped.
    func drain() { while receive(seconds: 0.05) != nil {} }

    /// `/tactus/query` answered to this socket: the state, named.
    func query(_ port: UInt16) -> TactusState? {
        drain()
        send(OSCTestMessage("/tactus/query"), to: port)
        return receive(path: "/tactus/state").flatMap(TactusState.init)
    }
}

/// `/tactus/state f:tempo i:beats i:unit s:accents s:subdivision i:running i:muted f:gain s:preset i:bar i:beat`.
struct TactusState: Equatable {
    var tempo: Float, beats: Int32, unit: Int32, accents: String, subdivision: String
    var running: Bool, muted: Bool, gain: Float, preset: String, bar: Int32, beat: Int32

    init?(_ m: OSCTestMessage) {
        guard m.values.count == 11, case .f(let t) = m.values[0], case .i(let b) = m.values[1], case .i(let u) = m.values[2],
              case .s(let a) = m.values[3], case .s(let d) = m.values[4], case .i(let r) = m.values[5], case .i(let mu) = m.values[6],
              case .f(let g) = m.values[7], case .s(let p) = m.values[8], case .i(let bar) = m.values[9], case .i(let beat) = m.values[10]
        else { return nil }
        (tempo, beats, unit, accents, subdivision, running, muted, gain, preset, self.bar, self.beat) = (t, b, u, a, d, r == 1, mu == 1, g, p, bar, beat)
    }

    /// What a command may change, without the beat, which moves by itself.
    var settings: String { "\(tempo) \(beats)/\(unit) \(accents) \(subdivision) running \(running) muted \(muted) gain \(gain) preset '\(preset)'" }
}

/// liblo's command-line tools, as a tablet's author would test with them.
enum LibloTools {
    /// `oscsend localhost PORT PATH [TYPES ARGS…]`, waited for.
    @discardableResult
    static func send(_ port: UInt16, _ path: String, _ types: String = "", _ arguments: String...) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
        p.arguments = ["localhost", "\(port)", path] + (types.isEmpty ? [] : [types] + arguments)
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// `oscdump -L PORT` writing to `output`, line by line.
    static func dump(_ port: UInt16, output: URL) throws -> Process {
        try TestProcess.launch("/usr/bin/oscdump", ["-L", "\(port)"], output: output)
    }
}
