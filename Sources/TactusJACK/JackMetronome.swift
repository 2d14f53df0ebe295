#if canImport(Glibc)
import Glibc
#endif
import CJack
import CJackShims
import Synchronization
import TactusCore
import TactusLink

/// Tactus as a JACK client: ports, the process callback, and a supervisor that
/// survives the server going away.
///
/// The supervisor only supervises: it opens the client, notices it lost, retries
/// every second, rebuilds the engine at a new rate, keeps the connections, and
/// reports. It keeps no time of its own: the control thread
/// (`JackControlThread`, on a `ControlLoop`) calls `service()` in each of its
/// rounds and sleeps until the time `service()` returns, or until the process
/// callback or a JACK notification posts its `ControlWakeup`.
///
/// The thread that creates the metronome and calls `service` is the control
/// thread: the only producer of `control.commands` (an SPSC ring), the consumer
/// of `shared.controlInput`, and the one place that opens, activates, reconnects
/// and closes the JACK client. The process callback only touches the
/// `ProcessContext`, which this thread changes only while the client is inactive.
public final class JackMetronome {
    public let options: JackRunOptions
    /// Tempo, commands and status shared with the engine (owned by the caller).
    public let control: UnsafeMutablePointer<EngineControl>
    /// Posted by the process callback when a cycle received control input, and by
    /// JACK's notification callbacks: the control thread's wake-up.
    public let wakeup: ControlWakeup
    /// Control input, the ALSA clock copy and the frame clock (owned here).
    public let shared: UnsafeMutablePointer<JackShared>
    let notices: UnsafeMutablePointer<JackNotices>
    private(set) var context: UnsafeMutablePointer<ProcessContext>?
    var client: JackClient?
    let log: (String) -> Void
    /// The Link session (`--link`), joined at start and kept across reconnections.
    public let link: LinkSession?
    /// Link's quantum in beats, with `--link`.
    public let linkQuantum: Double
    /// `--transport`: the control thread's half (in every mode: a preset may change it).
    let transportLink: JackTransportLink
    /// The control thread's end of `JackShared.cycleEvents`.
    let cycleEvents = CycleEventReader()

    /// Whether a server is there and the client active.
    public internal(set) var isConnected = false
    /// The name JACK gave the client ("tactus", or "tactus-01" when taken).
    public private(set) var clientName: String
    /// The rate the engine renders at: the server's, or the one it had last.
    public var sampleRate: Int { context?.pointee.engine.sampleRate ?? options.engine.sampleRate }
    /// Whether a server was ever reached: a run that never connected ends with status 1.
    public private(set) var everConnected = false
    private var lostAt: ContinuousClock.Instant?
    private var nextAttempt = ContinuousClock.now
    private var saidWaiting = false
    private var bufferSize = 0

    /// The ports' connections, made again on a new server.
    private var connectionKeeper: JackConnectionKeeper
    private var seenGraphChanges = 0
    /// When to read the connections from JACK after a graph change.
    private var snapshotDue: ContinuousClock.Instant?
    private var seenXruns = 0
    /// Bumped by a `service()` that found the client's figures changed (connected
    /// or lost, rate, period, graph, xruns): the display reads them again then.
    public private(set) var changes = 0
    /// Control input dropped, said once a second at most.
    var overflowReport = InputOverflowReport()
    /// `--align`: the latencies and shifts last handed the engine (JackMetronomeAlignment.swift).
    var alignment = LatencyAlignment()

    /// Call `ProcessPolicy.apply()` first, on the main thread: the signals and
    /// the heap arena are the process's, set before JACK starts its threads.
    public init(options: JackRunOptions, control: UnsafeMutablePointer<EngineControl>, wakeup: ControlWakeup = ControlWakeup(),
                log: @escaping (String) -> Void = { StandardError.line("tactus: \($0)") }) throws(JackError) {
        try options.checkClockOffset()
        self.options = options
        self.control = control
        self.wakeup = wakeup
        self.log = log
        clientName = options.clientName
        shared = .allocate(capacity: 1)
        shared.initialize(to: JackShared(controlInputCapacity: options.controlInputCapacity, clockStreamCapacity: options.clockStreamCapacity,
                                           clockInArrivalsCapacity: options.clockInFromALSA ? JackRunOptions.clockInArrivalsCapacity : nil))
        transportLink = JackTransportLink(mode: options.transport, shared: shared, cycleTakesStarts: options.link == nil, log: log)
        notices = .allocate(capacity: 1)
        notices.initialize(to: JackNotices(wakeup: wakeup.semaphore))
        linkQuantum = Double(options.link?.quantum ?? options.engine.bar.meter.beatsPerBar)
        if let settings = options.link {
            do {
                let session = try LinkSession(tempo: options.engine.tempo)
                session.shareStartStop(settings.sharesStartStop)
                session.enable(true)
                link = session
            } catch {
                shared.deinitialize(count: 1)
                shared.deallocate()
                notices.deinitialize(count: 1)
                notices.deallocate()
                throw .linkUnavailable("\(error)")
            }
        } else {
            link = nil
        }
        connectionKeeper = JackConnectionKeeper(options)
    }

    deinit {
        client?.deactivate()
        client?.close()
        if let context {
            let sounds = context.pointee.engine.soundSet
            context.deinitialize(count: 1)
            context.deallocate()
            sounds.deallocate()
        }
        freeRetiredSounds()
        shared.deinitialize(count: 1)
        shared.deallocate()
        notices.deinitialize(count: 1)
        notices.deallocate()
    }

    /// The tempo the engine plays (its status), for the log.
    private var playingTempo: BPM { BPM(hundredths: control.pointee.status.tempoHundredths.load(ordering: .relaxed)) }

    /// JACK's estimate of the frame being played now (`jack_frame_time`), in the
    /// server's 32-bit frame time; nil while no server is there.
    public var jackFrameTime: UInt32? { client.map { jack_frame_time($0.handle) } }

    /// The JACK transport mode playing: `--transport`, or the last preset's `"transport"`.
    public var transportMode: JackTransportMode { transportLink.mode }

    /// A preset's `"transport"` while running (docs/DESIGN.md §13): the
    /// timebase released when leaving `master`, asked for (conditionally, as
    /// at start) when entering it, following started or stopped from the next
    /// cycle. Said in the log; the display's JACK row shows the new mode.
    /// Control thread.
    public func changeTransport(to mode: JackTransportMode) {
        let old = transportLink.mode
        guard mode != old else { return }
        log("JACK transport \(old.label) → \(mode.label)")
        // What the transport and Tactus did under the old mode is not news to the new one.
        takeCycleEvents(client: nil)
        transportLink.change(to: mode, client: isConnected ? client?.handle : nil, context: context, status: control.pointee.status, shared: shared)
        changes += 1
    }

    // MARK: - Running

    /// One supervisor step: notice a lost server and retry it once a second,
    /// follow sample-rate and period changes, remember the connections, free
    /// retired sounds, report control-input overflow. Returns when it next has
    /// work of its own, on CLOCK_MONOTONIC (`MonotonicClock`): the next retry
    /// while the server is gone, the connection snapshot after a graph change,
    /// a connection still waiting for its port, an overflow report held back;
    /// nil when only a notice (which posts `wakeup`) can give it work.
    @discardableResult
    public func service() -> ControlTime? {
        let now = ContinuousClock.now
        let before = (isConnected, seenGraphChanges, bufferSize, context?.pointee.engine.sampleRate)
        var transportMoved = false
        defer {
            let xruns = notices.pointee.xruns.load(ordering: .relaxed)
            if xruns != seenXruns || before != (isConnected, seenGraphChanges, bufferSize, context?.pointee.engine.sampleRate)
                || transportMoved {
                seenXruns = xruns
                changes += 1
            }
        }
        if notices.pointee.serverGone.exchange(false, ordering: .acquiring) { serverWentAway() }
        // Link's peer count takes its lock: counted here, read by the cycle as a figure.
        if let link { shared.pointee.linkPeers.store(link.peers, ordering: .relaxed) }
        freeRetiredSounds()
        var due = overflowReport.due(now: now, dropped: shared.pointee.controlInput.dropped.load(ordering: .relaxed),
                                     capacity: shared.pointee.controlInput.capacity, log: log)
        guard isConnected, let client, let context else {
            if now >= nextAttempt {
                nextAttempt = now + .seconds(1)
                connect()
            }
            due = ContinuousClock.Instant.earliest(due, isConnected ? nil : nextAttempt)
            return due?.controlTime(from: now)
        }
        let rate = notices.pointee.sampleRate.exchange(0, ordering: .acquiring)
        if rate != 0 && rate != context.pointee.engine.sampleRate { changeSampleRate(to: rate) }
        let size = notices.pointee.bufferSize.exchange(0, ordering: .acquiring)
        if size != 0 && size != bufferSize {
            bufferSize = size
            log("JACK period is now \(size) frames")
            reportLatency(client)
        }
        let graph = notices.pointee.graphChanges.load(ordering: .acquiring)
        if graph != seenGraphChanges {
            seenGraphChanges = graph
            snapshotDue = now + .milliseconds(500)
            connectionKeeper.connectPending(client, clientName: clientName, log: log)
        }
        if let due = snapshotDue, now >= due {
            snapshotDue = nil
            rememberConnections(client)
            updateClickLatency(client)
            changes += 1
        }
        followLatencyChanges(client)
        let waiting = !connectionKeeper.pending.isEmpty
        if waiting { connectionKeeper.connectPending(client, clientName: clientName, log: log) }
        transportMoved = takeCycleEvents(client: client.handle)
        due = .earliest(.earliest(due, snapshotDue), waiting ? now + Self.pendingRetry : nil)
        return due?.controlTime(from: now)
    }

    /// How many of the engine's own tempi (the trainer's, a tempo map's) the
    /// JACK timebase master refused (`--transport follow` owns the tempo,
    /// docs/DESIGN.md §9), for the control session to say (`ControlSession.refusedEngineTempi`).
    public var refusedEngineTempi: Int { cycleEvents.refusedEngineTempi }

    /// A Link peer's tempo since the last call, once (docs/DESIGN.md §11.3).
    public func takePeerTempo() -> BPM? { cycleEvents.takePeerTempo() }

    /// What the incoming MIDI clock did since the last call (`--clock-in`):
    /// `CycleEvent.clockIn` and `.clockInError`, in order, each once.
    public func takeClockInEvents() -> [CycleEvent] { cycleEvents.takeClockInEvents() }

    /// Takes what the cycles said since the last round (`CycleEventReader`);
    /// true when the transport or the song moved.
    @discardableResult
    func takeCycleEvents(client: OpaquePointer?) -> Bool {
        let moved = cycleEvents.take(from: shared, client: client, transportLink: transportLink, control: control)
        // A followed source's tempo and beat for the Link session (docs/DESIGN.md §9).
        if let commit = cycleEvents.takeSessionCommit() { link?.commit(commit) }
        return moved
    }

    /// How often connections whose other end is not there yet are tried again
    /// (a client may register its ports without a graph notice reaching us first).
    static let pendingRetry = Duration.milliseconds(100)

    /// Opens the client, registers the ports, activates, connects. False when no
    /// server answered (said once; `service` retries every second).
    @discardableResult
    public func connect() -> Bool {
        let newClient: JackClient
        // libjack narrates a failed open line by line; the status bits say it in one.
        jack_set_error_function(tactusSilentJackError)
        jack_set_info_function(tactusSilentJackError)
        do {
            newClient = try JackClient(name: options.clientName, server: options.serverName)
        } catch {
            if !saidWaiting {
                log("\(error.waitingReason); retrying every second (Ctrl-C to quit)")
                saidWaiting = true
            }
            lostAt = lostAt ?? .now
            return false
        }
        jack_set_error_function(tactusJackError)
        jack_set_info_function(tactusSilentJackError)
        do {
            try attach(newClient)
        } catch {
            log("\(error); retrying every second")
            newClient.close()
            return false
        }
        client = newClient
        isConnected = true
        clientName = newClient.name
        if clientName != options.clientName { log("JACK client name \"\(options.clientName)\" is taken: running as \"\(clientName)\"") }
        let wasLost = lostAt
        lostAt = nil
        saidWaiting = false
        connectionKeeper.restore(newClient, clientName: clientName, log: log)
        // Start once connected, so the listener and the slaves get the first beat and its Start.
        if !everConnected { JackRunOptions.firstCommands(options) { control.pointee.commands.push($0) } }
        openGate(newClient)
        if let wasLost {
            let away = ContinuousClock.now - wasLost
            let seconds = (Double(away.components.seconds) * 10 + Double(away.components.attoseconds / 100_000_000_000_000_000)) / 10
            log("JACK server back after \(seconds) s: \(newClient.sampleRate) Hz, period \(newClient.bufferSize); \(playingTempo) BPM, ports and connections restored")
        }
        reportLatency(newClient)
        everConnected = true
        return true
    }

    /// Registers ports and callbacks on a fresh client, (re)builds the engine for
    /// its sample rate, runs the dry cycle the first time, and activates.
    private func attach(_ client: JackClient) throws(JackError) {
        let rate = client.sampleRate
        let firstTime = context == nil
        if let context {
            if context.pointee.engine.sampleRate != rate { try rebuildEngine(context, sampleRate: rate) }
        } else {
            let c = UnsafeMutablePointer<ProcessContext>.allocate(capacity: 1)
            c.initialize(to: try ProcessContext(options: options, sampleRate: rate, control: control, shared: shared,
                                                wakeup: wakeup.semaphore))
            if let link, let settings = options.link {
                c.pointee.link = (LinkTimeline(quantum: linkQuantum, sharesStartStop: settings.sharesStartStop,
                                               tempo: options.engine.tempo.value), link.audio)
            }
            context = c
        }
        guard let context else { return }
        let ports = try JackPorts.register(on: client, sync: context.pointee.engine.syncSettings, clockIn: options.clockIn && !options.clockInFromALSA)
        let handle = client.handle
        let raw = UnsafeMutableRawPointer(notices)
        jack_set_process_callback(handle, tactusProcess, UnsafeMutableRawPointer(context))
        jack_on_info_shutdown(handle, tactusServerGone, raw)
        jack_set_sample_rate_callback(handle, tactusSampleRate, raw)
        jack_set_buffer_size_callback(handle, tactusBufferSize, raw)
        jack_set_xrun_callback(handle, tactusXrun, raw)
        jack_set_port_connect_callback(handle, tactusPortConnect, raw)
        jack_set_port_registration_callback(handle, tactusPortRegistration, raw)
        jack_set_latency_callback(handle, tactusLatency, raw)
        jack_set_thread_init_callback(handle, tactusThreadInit, nil)
        context.pointee.client = handle
        context.pointee.ports = ports
        bufferSize = client.bufferSize
        if firstTime {
            ProcessCycle.dryRun(context, frames: client.bufferSize)
            if options.lockMemory { MemoryLock.lockAfterStartUp(log: log) }
        }
        if options.lockMemory { MemoryLock.populateFileMappings() }
        context.pointee.gate.close()
        do {
            try client.activate()
        } catch {
            context.pointee.client = nil
            context.pointee.ports = nil
            throw error
        }
        takeCycleEvents(client: nil)
        transportLink.attached(handle, context: context, status: control.pointee.status, shared: shared)
    }

    /// A new sample rate: the grid's frames per pulse and every sound change.
    /// The engine goes on where it was (`Engine.changeSampleRate`): song, bar
    /// and the position in the bar carry on from the frame where the last block
    /// ended, with sounds synthesised (or the preset's samples read) here, off
    /// the real-time thread; the old sets are freed here too.
    private func rebuildEngine(_ context: UnsafeMutablePointer<ProcessContext>, sampleRate: Int) throws(JackError) {
        log("sample rate \(context.pointee.engine.sampleRate) → \(sampleRate) Hz: sounds re-synthesised, \(context.pointee.engine.configuration(atSampleRate: sampleRate).tempo) BPM and the song position kept")
        context.pointee.engine.changeSampleRate(to: sampleRate, sounds: options.sounds(sampleRate),
                                                continuingAt: context.pointee.endFrame) { $0.deallocate() }
        context.pointee.rateChanged()
    }

    /// The sample rate changed under a running client (jackd2 does this only on
    /// a backend switch): deactivate, rebuild, activate, reconnect.
    private func changeSampleRate(to rate: Int) {
        guard let client, let context else { return }
        rememberConnections(client)
        client.deactivate()
        context.pointee.gate.close()
        do {
            try rebuildEngine(context, sampleRate: rate)
            try client.activate()
        } catch {
            log("\(error)")
            return
        }
        connectionKeeper.restore(client, clientName: clientName, log: log)
        openGate(client)
    }

    /// The connections that can be made are made: the cycles that begin from now
    /// on sound (`SoundingGate`).
    private func openGate(_ client: JackClient) {
        context?.pointee.gate.open(now: jack_frame_time(client.handle), sampleRate: client.sampleRate, period: client.bufferSize)
    }

    private func serverWentAway() {
        guard let client, let context else { return }
        isConnected = false
        snapshotDue = nil
        connectionKeeper.forgetPending()
        // libjack no longer runs the callback; the context is ours again.
        context.pointee.client = nil
        context.pointee.ports = nil
        context.pointee.timeline.resume(at: context.pointee.endFrame)
        // The click sounding when the server died was cut there; its rest, played
        // on the next server, would begin off the grid.
        context.pointee.engine.silence()
        client.close()
        self.client = nil
        lostAt = .now
        nextAttempt = .now + .seconds(1)
        saidWaiting = true
        jack_set_error_function(tactusSilentJackError)
        log("JACK server gone: keeping \(playingTempo) BPM and every setting; retrying every second (Ctrl-C to quit)")
    }

    // MARK: - Connections

    private func rememberConnections(_ client: JackClient) {
        guard let ports = context?.pointee.ports else { return }
        connectionKeeper.remember(client, ports: ports)
    }

    private func freeRetiredSounds() {
        while let set = control.pointee.retiredSounds.pop() { set.deallocate() }
    }
}
