#if canImport(Glibc)
import Glibc
#endif
import CJack
import CJackShims
import Synchronization
import TactusJACK

/// Opening a client and waiting for other clients' ports, for every probe mode.
enum ProbeClient {
    static func open(_ name: String, server: String?) -> OpaquePointer {
        var status = jack_status_t(0)
        guard let client = tactus_jack_client_open(name, JackNoStartServer, &status, server) else {
            fail("cannot open JACK client \(name): \(JackError.describe(status: status.rawValue))")
        }
        return client
    }

    /// Connects source → destination once both exist; waits up to `seconds`.
    static func connect(_ client: OpaquePointer, _ source: String, _ destination: String, seconds: Double = 10) -> Bool {
        let deadline = Double(monotonicMicroseconds()) + seconds * 1e6
        while Double(monotonicMicroseconds()) < deadline {
            if jack_port_by_name(client, source) != nil && jack_port_by_name(client, destination) != nil {
                let r = jack_connect(client, source, destination)
                if r == 0 || r == EEXIST { return true }
            }
            usleep(10_000)
        }
        StandardError.line("tactus-jack-probe: cannot connect \(source) to \(destination)")
        return false
    }

    static func monotonicMicroseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000
    }

    static func touch(_ path: String?) {
        guard let path, let f = fopen(path, "w") else { return }
        fclose(f)
    }
}

/// Set by the shutdown callback of a probe client.
final class ServerGoneFlag: @unchecked Sendable {
    let gone = Atomic<Bool>(false)
}

func probeServerGone(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ServerGoneFlag>.fromOpaque(arg).takeUnretainedValue().gone.store(true, ordering: .releasing)
}

/// Writes text to a file, or to standard output for "-".
func writeFile(_ path: String, _ text: String) {
    if path == "-" { print(text, terminator: ""); return }
    guard let f = fopen(path, "w") else { fail("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}
