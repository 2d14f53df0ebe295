import TactusCore
import TactusOSC
#if canImport(Glibc)
import Glibc
#endif

/// The OSC server's other half, on the control thread (docs/DESIGN.md §12):
/// each round it drains the server's ring, carries the commands out through the
/// `ControlSession`, answers a refusal with `/tactus/error`, a `query` with
/// `/tactus/state`, and sends `/tactus/state` to every registered address when
/// the state changed, at most 30 times a second per address (as the display
/// redraws, docs/DESIGN.md §5.10), with the bar and beat as they are heard.
public final class RemoteControl {
    public let server: OSCServer
    private let session: ControlSession<MonotonicClock>
    private let engine: UnsafeMutablePointer<EngineControl>
    /// The shortest time between two notifications to one address.
    public var notificationInterval: Int64 = 33_333
    /// At most this many addresses registered: each costs a datagram per change.
    public static let maximumListeners = 16
    private var listeners: [Listener] = []
    /// How many commands the last round took from the server.
    public private(set) var lastRoundRequests = 0

    private struct Listener {
        var peer: RemotePeer
        var sentAt: ControlTime?
        var sent: [OSCArgument]?
    }

    public init(server: OSCServer, session: ControlSession<MonotonicClock>, engine: UnsafeMutablePointer<EngineControl>) {
        self.server = server
        self.session = session
        self.engine = engine
    }

    /// One round at `now`: the commands that arrived, then the notifications due.
    /// Returns when the next round is due for a listener: a notification held
    /// back by the 30-a-second limit, or, while running, the next beat to show.
    @discardableResult
    public func round(at now: ControlTime) -> ControlTime? {
        lastRoundRequests = 0
        while let request = server.requests.pointee.pop() {
            perform(request)
            lastRoundRequests += 1
        }
        guard !listeners.isEmpty else { return nil }
        let state = Self.state(DisplayModel(engine: engine.pointee, session: session, ports: PortsStatus()), gains: session.gains)
        var due: ControlTime?
        for i in listeners.indices where listeners[i].sent != state {
            if let at = listeners[i].sentAt, now - at < notificationInterval {
                due = ControlTime.earliest(due, at + notificationInterval)
                continue
            }
            server.send("/tactus/state", state, to: listeners[i].peer)
            listeners[i].sentAt = now
            listeners[i].sent = state
        }
        // The beat moves while running: look again at the next notification time.
        let running = engine.pointee.status.running.load(ordering: .relaxed)
        return running ? ControlTime.earliest(due, now + notificationInterval) : due
    }

    private func perform(_ request: RemoteRequest) {
        let path = Self.path(of: request.command)
        switch request.command {
        case .query(let replyTo):
            let state = Self.state(DisplayModel(engine: engine.pointee, session: session, ports: PortsStatus()), gains: session.gains)
            server.send("/tactus/state", state, to: replyTo ?? request.sender)
        case .register(let peer):
            guard !listeners.contains(where: { $0.peer == peer }) else { return }
            guard listeners.count < Self.maximumListeners else {
                return server.sendError(path: path, reason: "\(Self.maximumListeners) addresses are registered already; unregister one first", to: request.sender)
            }
            listeners.append(Listener(peer: peer))
        case .unregister(let peer):
            listeners.removeAll { $0.peer == peer }
        default:
            if let error = session.perform(request.command, at: request.microseconds, from: "OSC \(request.sender.host)") {
                server.sendError(path: path, reason: error.reason, to: request.sender)
            }
        }
    }

    /// `/tactus/state f:tempo i:beats i:unit s:accents s:subdivision i:running
    /// i:muted f:gain s:preset i:bar i:beat`: what plays now (a change waiting
    /// for its bar line is not in it yet), the bar and beat last heard.
    static func state(_ m: DisplayModel, gains: SoundGains) -> [OSCArgument] {
        let decibels = 20 * log10(Double(max(gains.master, 1e-6)))
        return [.float(Float(m.tempo.value)), .int32(Int32(m.meter.beatsPerBar)), .int32(Int32(m.meter.beatUnit)),
                .string(m.accents.description), .string(m.subdivision.rawValue), .int32(m.running ? 1 : 0),
                .int32(m.muted ? 1 : 0), .float(Float((decibels * 100).rounded() / 100)), .string(m.preset?.name ?? ""),
                .int32(Int32(clamping: m.bar)), .int32(Int32(clamping: m.beat))]
    }

    /// The path a command came on, for its error.
    static func path(of command: RemoteCommand) -> String {
        let name = switch command {
        case .start: "start"
        case .stop: "stop"
        case .continue: "continue"
        case .locate: "locate"
        case .tempo: "tempo"
        case .nudge: "nudge"
        case .tap: "tap"
        case .meter: "meter"
        case .accents: "accents"
        case .subdivision: "subdivision"
        case .gain: "gain"
        case .mute: "mute"
        case .presetNamed, .presetProgram: "preset"
        case .practice(.countIn): "countin"
        case .practice(.trainer): "trainer"
        case .practice(.gap): "gap"
        case .nextPreset: "next"
        case .previousPreset: "previous"
        case .query: "query"
        case .register: "register"
        case .unregister: "unregister"
        case .ping: "ping"
        }
        return "/tactus/" + name
    }
}
