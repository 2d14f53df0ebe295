#if canImport(Glibc)
import Glibc
#endif
import CJack
import TactusCore

/// The control thread's half of `--transport` (docs/DESIGN.md §13): the
/// timebase registration, and start, stop and locate carried between Tactus
/// and JACK transport both ways. The process callback only reads the
/// transport (`ProcessCycle.readTransport`), says what it did as
/// `CycleEvent`s and wakes this thread; every request to JACK (`jack_transport_start`, `_stop`,
/// `_locate`, `jack_set_timebase_callback`) and every engine command is made
/// here, on the thread that owns the command ring's producer end.
///
/// Who moved first decides: a transport that started, stopped or jumped moves
/// Tactus; a Tactus that started or stopped (key, MIDI Start on `control`,
/// preset) moves the transport, from the bar line it plays from. Each side's
/// echo of the other then agrees and does nothing. In follow mode the engine
/// follows the transport itself (the time-source seam); only Tactus's own
/// start and stop requests are handed on. Without Link, the transport's start
/// and its locate while rolling are the process cycle's to give the engine
/// in the cycle that sees them (`TransportMove`, docs/DESIGN.md §13.3); this
/// thread carries the stop and a locate of a stopped transport.
final class JackTransportLink {
    /// The mode playing: `--transport`, or the last preset's `"transport"` (`change`).
    private(set) var mode: JackTransportMode
    private let log: (String) -> Void
    /// This client holds the timebase (`master`, or `master-force`).
    private(set) var isMaster = false
    private var saidBusy = false
    /// The process cycle starts and relocates the engine itself (no Link:
    /// with it, a start is asked of the session through the engine's commands).
    private let cycleTakesStarts: Bool

    init(mode: JackTransportMode, shared: UnsafeMutablePointer<JackShared>, cycleTakesStarts: Bool = true,
         log: @escaping (String) -> Void) {
        self.mode = mode
        self.log = log
        self.cycleTakesStarts = cycleTakesStarts
        shared.pointee.transportMode.store(TransportCycleMode.bits(mode), ordering: .releasing)
    }

    /// After activation: the timebase, when asked for.
    func attached(_ client: OpaquePointer, context: UnsafeMutablePointer<ProcessContext>, status: borrowing EngineStatus,
                  shared: UnsafeMutablePointer<JackShared>) {
        seen(status: status, shared: shared)
        isMaster = false
        register(client, context: context)
    }

    /// A preset's `"transport"` while running (docs/DESIGN.md §13), on the
    /// control thread: the timebase given back when the new mode does not want
    /// it, the cycle told (it reads the mode each cycle: following starts or
    /// stops from its next one), and the timebase asked for as at start when the
    /// new mode wants it. What the transport and Tactus do from here on is
    /// carried across as in any round; what they did before is not news.
    /// `client` and `context` are nil while no server is there (`attached` asks then).
    func change(to newMode: JackTransportMode, client: OpaquePointer?, context: UnsafeMutablePointer<ProcessContext>?,
                status: borrowing EngineStatus, shared: UnsafeMutablePointer<JackShared>) {
        mode = newMode
        seen(status: status, shared: shared)
        if let client, isMaster, !newMode.wantsTimebase {
            // jack2 answers `jack_release_timebase` with a reposition to the
            // frame of a cycle around the request (a period back from where it
            // rolls, through one `Starting` cycle): no locate of anyone's to follow.
            let rolling = shared.pointee.transportRolling.load(ordering: .relaxed)
            shared.pointee.releasedAtFrame.store(rolling ? Int(shared.pointee.transportFrame.load(ordering: .relaxed)) : -1,
                                                 ordering: .relaxed)
            jack_release_timebase(client)
            isMaster = false
            // The display's next look: no master, before a cycle has seen it.
            shared.pointee.timebasePresent.store(false, ordering: .relaxed)
            log("JACK timebase released")
        }
        shared.pointee.transportMode.store(TransportCycleMode.bits(newMode), ordering: .releasing)
        saidBusy = false
        if let client, let context { register(client, context: context) }
    }

    /// What happened before now is not news: Tactus's own locate is forgotten.
    private func seen(status: borrowing EngineStatus, shared: UnsafeMutablePointer<JackShared>) {
        shared.pointee.ownLocateFrame.store(-1, ordering: .relaxed)
    }

    /// The timebase, when the mode asks for it and this client does not hold it.
    /// `master` registers conditionally (JACK answers EBUSY while another client
    /// is master: said once, and Tactus runs as `join`); `master-force` takes it over.
    private func register(_ client: OpaquePointer, context: UnsafeMutablePointer<ProcessContext>) {
        guard mode.wantsTimebase, !isMaster else { return }
        let result = jack_set_timebase_callback(client, mode == .master ? 1 : 0, tactusTimebase, UnsafeMutableRawPointer(context))
        if result == 0 {
            isMaster = true
            log("JACK timebase master: \(String(cString: jack_get_client_name(client))) (BBT from the click's grid, 1920 ticks a beat)")
        } else if result == EBUSY {
            if !saidBusy { log("another JACK client is timebase master: running as --transport join (--transport master-force takes over)") }
            saidBusy = true
        } else {
            log("cannot become JACK timebase master (jack_set_timebase_callback: \(result)): running as --transport join")
        }
    }

    /// Gives the timebase back (on exit, before the client closes).
    func release(_ client: OpaquePointer) {
        guard isMaster else { return }
        jack_release_timebase(client)
        isMaster = false
    }

    /// One thing a cycle saw (`CycleEvent`), carried across: the transport
    /// moves Tactus, Tactus moves the transport. The current figures decide
    /// whether it is still news: a side that already agrees (the other's echo)
    /// is left alone. In follow mode only Tactus's own start and stop requests
    /// go to JACK. What is asked of the transport goes to `requests`:
    /// libjack's calls on a server, a scripted transport in the deterministic tests.
    func handle<Requests: TransportRequests>(_ event: CycleEvent, requests: inout Requests,
                                             control: UnsafeMutablePointer<EngineControl>, shared: UnsafeMutablePointer<JackShared>) {
        guard mode != .off else { return }
        let rolling = shared.pointee.transportRolling.load(ordering: .acquiring)
        let running = control.pointee.status.running.load(ordering: .acquiring)
        if mode == .follow {
            // The engine follows the transport; Tactus's own start and stop go to it.
            if case .transportRequested(let start) = event {
                if start { requests.start() } else { requests.stop() }
            }
            return
        }
        switch event {
        case .transportLocated(let frame):
            // A locate the cycle left here (of a stopped transport, or a jump
            // without jack2's `Starting` cycle); echoes never come this far.
            control.pointee.commands.push(.locateTransport(frame: frame))
        case .transportStarted(let frame):
            // Without Link the cycle gave the start to the engine already.
            guard rolling && !running && !cycleTakesStarts else { return }
            if frame == 0 {
                control.pointee.commands.push(.start)
            } else {
                control.pointee.commands.push(.locateTransport(frame: frame))
                control.pointee.commands.push(.continue)
            }
        case .transportStopped:
            if !rolling && running { control.pointee.commands.push(.stop) }
        case .songStarted(let from):
            // Tactus started: the transport rolls from the bar it plays.
            guard running && !rolling else { return }
            if from != shared.pointee.transportFrame.load(ordering: .relaxed) {
                shared.pointee.ownLocateFrame.store(Int(from), ordering: .relaxed)
                requests.locate(from)
            }
            requests.start()
        case .songStopped:
            if !running && rolling { requests.stop() }
        case .transportRequested, .peerTempo, .sessionCommit, .engineTempoRefused, .cyclesSkipped, .clockIn, .clockInError:
            break
        }
    }

    /// Who the timebase master is, as far as JACK tells: this client, another
    /// one (JACK names no master), or none.
    func masterDescription(clientName: String, shared: UnsafeMutablePointer<JackShared>) -> String {
        if isMaster { return "\(clientName) (this client)" }
        return shared.pointee.timebasePresent.load(ordering: .relaxed) ? "another client" : "none"
    }
}
