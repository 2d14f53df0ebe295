import CALSA
import CALSAShims
import Glibc

/// Keeps the connections the user asked for (`--alsa-clock-to`,
/// `--alsa-control-from`, `--alsa-clock-from`): made at start when the port is there, made later when
/// the System Announce port (0:1) reports that it appeared, noted (never fatal)
/// when it goes away, and made again when it comes back.
///
/// Used by the thread that opens the client, then only by the input thread,
/// which receives the announcements.
final class PortConnector: @unchecked Sendable {
    /// One connection the user asked for.
    struct Wanted {
        var specifier: PortSpecifier
        /// The other end must be a source (we read from it) or a destination (we write to it).
        var direction: PortSpecifier.Direction
        /// Our port at this end.
        var ownPort: SequencerAddress
        /// The port it is connected to now.
        var connected: SequencerPort?
        /// The last problem reported, so the same one is not repeated on every announcement.
        var lastProblem: String?
    }

    private let sequencer: Sequencer
    private let report: @Sendable (String) -> Void
    private(set) var wanted: [Wanted] = []
    private let clockPort: SequencerAddress
    private let controlPort: SequencerAddress
    /// `clock_in` (`--alsa-clock-from`), nil without it.
    private let clockInPort: SequencerAddress?
    /// Connections of our ports made by another client (aconnect, a DAW, a
    /// patchbay), with the text they were reported under.
    private var madeElsewhere: [Subscription: String] = [:]

    struct Subscription: Hashable { var sender: SequencerAddress; var dest: SequencerAddress }

    init(sequencer: Sequencer, clockPort: SequencerAddress, controlPort: SequencerAddress, clockInPort: SequencerAddress? = nil,
         report: @escaping @Sendable (String) -> Void) {
        self.sequencer = sequencer
        self.clockPort = clockPort
        self.controlPort = controlPort
        self.clockInPort = clockInPort
        self.report = report
    }

    func want(_ specifier: PortSpecifier, direction: PortSpecifier.Direction, ownPort: SequencerAddress) {
        wanted.append(Wanted(specifier: specifier, direction: direction, ownPort: ownPort))
    }

    /// Connects whatever is waiting and can be found now.
    func connectWaiting(initially: Bool = false) {
        guard wanted.contains(where: { $0.connected == nil }) else { return }
        let ports = sequencer.ports()
        for index in wanted.indices where wanted[index].connected == nil {
            let w = wanted[index]
            guard let port = w.specifier.resolve(in: ports, direction: w.direction) else {
                if initially {
                    note(index, "ALSA: no \(w.direction == .source ? "MIDI source" : "MIDI destination") '\(w.specifier)' yet; "
                         + "it will be connected when it appears")
                }
                continue
            }
            do throws(SequencerError) {
                switch w.direction {
                case .source: try sequencer.subscribe(from: port.address, to: w.ownPort)
                case .destination: try sequencer.subscribe(from: w.ownPort, to: port.address)
                }
                wanted[index].connected = port
                wanted[index].lastProblem = nil
                report(w.direction == .source ? "ALSA: \(port) → \(ownName(w.ownPort))" : "ALSA: clock → \(port)")
            } catch let error where error.code == -EBUSY {
                // Already connected (by an earlier run of ours, or by hand with aconnect): fine.
                wanted[index].connected = port
            } catch {
                note(index, "ALSA: cannot connect '\(w.specifier)' (\(port)): \(error)")
            }
        }
    }

    /// Reacts to one event from the System Announce port.
    func handle(announcement event: snd_seq_event_t) {
        let address = event.data.addr
        switch UInt32(event.type) {
        case SND_SEQ_EVENT_CLIENT_START.rawValue, SND_SEQ_EVENT_CLIENT_CHANGE.rawValue,
             SND_SEQ_EVENT_PORT_START.rawValue, SND_SEQ_EVENT_PORT_CHANGE.rawValue:
            connectWaiting()
        case SND_SEQ_EVENT_PORT_EXIT.rawValue, SND_SEQ_EVENT_CLIENT_EXIT.rawValue:
            let wholeClient = UInt32(event.type) == SND_SEQ_EVENT_CLIENT_EXIT.rawValue
            for index in wanted.indices {
                guard let port = wanted[index].connected, port.address.client == address.client,
                      wholeClient || port.address.port == address.port else { continue }
                wanted[index].connected = nil
                report("ALSA: \(port) went away; it will be connected again when it comes back")
            }
        default:
            break
        }
    }

    /// Reacts to the kernel's notice that another client subscribed a port to one
    /// of ours or removed such a subscription. ALSA sends `PORT_SUBSCRIBED` /
    /// `PORT_UNSUBSCRIBED` (from 0:0, `data.connect`) to a port's owner when the
    /// connecting client is not the owner, so the connections Tactus makes itself
    /// are not reported twice. Reported as Tactus' own are ("ALSA: clock → …",
    /// "ALSA: … → control"), and "ALSA: disconnected …" when they go.
    func handle(subscription event: snd_seq_event_t) {
        let connection = Subscription(sender: SequencerAddress(client: event.data.connect.sender.client, port: event.data.connect.sender.port),
                                      dest: SequencerAddress(client: event.data.connect.dest.client, port: event.data.connect.dest.port))
        let subscribed = UInt32(event.type) == SND_SEQ_EVENT_PORT_SUBSCRIBED.rawValue
        if subscribed {
            guard madeElsewhere[connection] == nil, !isWanted(connection), let text = describe(connection) else { return }
            madeElsewhere[connection] = text
            report("ALSA: " + text)
        } else if let text = madeElsewhere.removeValue(forKey: connection) {
            report("ALSA: disconnected " + text)
        } else if isWanted(connection), let text = describe(connection, onlyIfPresent: true) {
            // One of ours undone by hand (aconnect -d) while the other port stays;
            // when the port itself went away, "went away" has said it.
            report("ALSA: disconnected " + text)
        }
    }

    /// A connection Tactus made for `--alsa-clock-to` / `--alsa-control-from` (reported when made).
    private func isWanted(_ c: Subscription) -> Bool {
        wanted.contains { w in
            guard let port = w.connected else { return false }
            return w.direction == .destination ? c.sender == w.ownPort && c.dest == port.address
                                               : c.dest == w.ownPort && c.sender == port.address
        }
    }

    /// The name of one of our input ports, as the reports say it.
    private func ownName(_ port: SequencerAddress) -> String { port == clockInPort ? "clock_in" : "control" }

    /// "clock → NAME:PORT (c:p)", "NAME:PORT (c:p) → control" or "… → clock_in";
    /// nil for a connection not of our clock, control or clock_in.
    private func describe(_ connection: Subscription, onlyIfPresent: Bool = false) -> String? {
        let other: SequencerAddress
        if connection.sender == clockPort { other = connection.dest }
        else if connection.dest == controlPort || (clockInPort != nil && connection.dest == clockInPort) { other = connection.sender }
        else { return nil }
        let port = sequencer.ports().first { $0.address == other }
        if onlyIfPresent && port == nil { return nil }
        let name = port.map { "\($0)" } ?? "\(other)"
        return connection.sender == clockPort ? "clock → \(name)" : "\(name) → \(ownName(connection.dest))"
    }

    private func note(_ index: Int, _ message: String) {
        guard wanted[index].lastProblem != message else { return }
        wanted[index].lastProblem = message
        report(message)
    }
}
