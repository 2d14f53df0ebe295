import CJack
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to JACK, with JACK's own status bits spelled out
/// (jack/types.h `JackStatus`), so a message says more than "failed".
public enum JackError: Error, Equatable, CustomStringConvertible {
    /// `jack_client_open` returned NULL.
    case openFailed(status: UInt32, server: String?)
    case portRegistrationFailed(port: String)
    case activationFailed(code: Int32)
    /// `jack_connect` refused (no such port, two outputs or two inputs, types that differ,
    /// a client not active yet): the code it returned.
    case connectionFailed(source: String, destination: String, code: Int32)
    /// `--clock-offset` beyond one beat of the tempo (the engine delays a whole stream, not a grid).
    case clockOffsetTooLarge(milliseconds: Double, beatMilliseconds: Double)
    /// `--link`: the Link session could not be set up (the reason from `LinkError`).
    case linkUnavailable(String)

    public var description: String {
        switch self {
        case .openFailed(let status, let server):
            let where_ = server.map { "JACK server \"\($0)\"" } ?? "the default JACK server"
            return "cannot open a client on \(where_): \(JackError.describe(status: status))"
        case .portRegistrationFailed(let port):
            return "JACK refused to register port \"\(port)\" (name taken, or the server ran out of ports)"
        case .activationFailed(let code):
            return "jack_activate failed (error \(code))"
        case .connectionFailed(let source, let destination, let code):
            return "JACK refused to connect \(source) to \(destination) (jack_connect error \(code))"
        case .clockOffsetTooLarge(let ms, let beat):
            return "--clock-offset \(ms) ms is more than one beat (\((beat * 10).rounded() / 10) ms at this tempo)"
        case .linkUnavailable(let reason):
            return "--link: \(reason)"
        }
    }

    /// What a run says while it waits for a server: for `JackServerFailed`
    /// (nothing listens on the server's socket) what is wrong and what to do,
    /// in our words rather than libjack's status bits; any other error as it is.
    /// PipeWire serves JACK clients only through its own libjack (pipewire-jack).
    public var waitingReason: String {
        guard case .openFailed(let status, let server) = self, status & JackServerFailed.rawValue != 0 else { return description }
        // libjack takes the default server's name from JACK_DEFAULT_SERVER; it is worth naming.
        let name = server ?? getenv("JACK_DEFAULT_SERVER").map { String(cString: $0) }
        let which = name.map { "JACK server named '\($0)'" } ?? "JACK server"
        return "no \(which) is running: start one (jackd, or qjackctl), or on PipeWire install pipewire-jack"
    }

    /// Each set bit of a `jack_status_t`, as the JACK headers explain it.
    public static func describe(status: UInt32) -> String {
        let bits: [(UInt32, String)] = [
            (JackFailure.rawValue, "overall operation failed"),
            (JackInvalidOption.rawValue, "invalid or unsupported option"),
            (JackNameNotUnique.rawValue, "client name not unique"),
            (JackServerStarted.rawValue, "server was started"),
            (JackServerFailed.rawValue, "unable to connect to the JACK server (is it running?)"),
            (JackServerError.rawValue, "communication error with the JACK server"),
            (JackNoSuchClient.rawValue, "no such client"),
            (JackLoadFailure.rawValue, "unable to load internal client"),
            (JackInitFailure.rawValue, "unable to initialize client"),
            (JackShmFailure.rawValue, "unable to access shared memory"),
            (JackVersionError.rawValue, "client's protocol version does not match the server's"),
            (JackBackendError.rawValue, "backend error"),
            (JackClientZombie.rawValue, "client zombified"),
        ]
        let set = bits.filter { status & $0.0 != 0 }.map(\.1)
        let hex = "0x" + String(status, radix: 16)
        return set.isEmpty ? "status \(hex)" : set.joined(separator: "; ") + " (status \(hex))"
    }
}
