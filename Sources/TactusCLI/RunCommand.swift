#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TactusALSA
import TactusCore
import TactusJACK
import TactusOSC

/// `tactus [run] [PORT...]`: Tactus as a JACK client, until SIGINT or SIGTERM.
///
/// The main thread is the control thread (`JackControlThread`): it created the
/// metronome (which blocks SIGINT/SIGTERM before JACK starts its threads), it
/// alone pushes engine commands, and it sleeps on the metronome's
/// `ControlWakeup` between its rounds. Everything allocated here is freed on the
/// way out, after the threads that read it have stopped.
public enum RunCommand {
    /// `tempo` and `bar` come from a preset when one was given (they win over the
    /// defaults); `presets` is the preset list (and the starting preset) for
    /// Program Change, the deep press and the `[` `]` keys.
    public static func run(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil, presets: PresetStart? = nil) -> Int32 {
        var jack: JackRunOptions
        let environment = ProcessEnvironment.current
        var options = options
        options.applyControllerTransport(path: UserFiles.controllerFile(environment), preset: presets?.preset?.preset)
        let samplesInUse = SampleFilesInUse(options)
        let lastTempo = LastTempoStore(environment: environment)
        do {
            // The last tempo (docs/DESIGN.md §5.7) when neither --bpm nor a preset gives one.
            var startTempo = tempo
            if startTempo == nil && options.tempo == nil {
                do throws(OptionError) { startTempo = try lastTempo.load() } catch { printError(error.message) }
            }
            jack = try jackOptions(options, tempo: startTempo, bar: bar, samplesInUse: samplesInUse)
            _ = try ALSAWiring.options(from: options)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        // The ALSA clock thread reads a copy of every clock event.
        if options.useALSA { jack.clockStreamCapacity = 4096 }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let alsaInput = UnsafeMutablePointer<SPSCRing<ControlInputEvent>>.allocate(capacity: 1)
        alsaInput.initialize(to: SPSCRing(capacity: 4096))
        defer { alsaInput.deinitialize(count: 1); alsaInput.deallocate() }
        // Freed after `play` returned: the metronome, the session and the front
        // end that read them are gone by then.
        return play(options, jack: jack, control: control, alsaInput: alsaInput, presets: presets, environment: environment,
                    samplesInUse: samplesInUse, lastTempo: lastTempo)
    }

    /// The client, the control thread and the ALSA client, until a signal.
    private static func play(_ options: Options, jack: JackRunOptions, control: UnsafeMutablePointer<EngineControl>,
                             alsaInput: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>, presets: PresetStart?,
                             environment: [String: String], samplesInUse: SampleFilesInUse, lastTempo: LastTempoStore) -> Int32 {
        let metronome: JackMetronome
        do {
            ProcessPolicy.apply()
            metronome = try JackMetronome(options: jack, control: control)
        } catch {
            printError("tactus: \(error)")
            return OptionError.exitStatus
        }
        let shared = SharedPointer(metronome.shared)
        let clockStream = ClockStreamSource(
            peek: { shared.pointer.pointee.clockStream?.peek() }, pop: { _ = shared.pointer.pointee.clockStream?.pop() },
            isEmpty: { shared.pointer.pointee.clockStream?.peek() == nil }, frameClock: { shared.pointer.pointee.frameClock.read() })
        // The control thread is this one: the pressure controller reads both
        // control rings, the keys come from the terminal, the display or the
        // change log goes out, all in its rounds.
        let session = controlSession(options, jack: jack, control: control, presets: presets, environment: environment,
                                     inputs: [{ shared.pointer.pointee.controlInput.pop() }, { alsaInput.pointee.pop() }],
                                     samples: samplesInUse, sampleRate: { metronome.sampleRate }, wakeup: metronome.wakeup)
        session.presetSwitched = { [unowned session] entry in
            samplesInUse.use(entry)
            switchTransport(options, to: entry.preset, metronome: metronome, session: session)
            if let refusal = options.clockInSwitchRefusal(entry.preset) { session.say("\(entry.preset.name): \(refusal)") }
        }
        session.tempoOwner = Self.tempoOwner(options, mode: jack.transport)
        session.refusedEngineTempi = { metronome.refusedEngineTempi }
        session.saveLastTempo = { (tempo: BPM) in
            do throws(OptionError) { try lastTempo.save(tempo) } catch { printError(error.message) }
        }
        var alsa: ALSAClient?
        var dspLoad = DSPLoadReading()
        let alsaConnections = ALSAConnectionTracker()
        let frontEnd = RunFrontEnd(session: session, engine: control, interactive: RunFrontEnd.isInteractive(options),
                                   environment: environment, wakeup: metronome.wakeup) {
            portsStatus(metronome, alsa: alsa, alsaConnections: alsaConnections.current, dspLoad: &dspLoad)
        }
        if let port = options.oscPort {
            do throws(OSCServerError) {
                let server = try OSCServer(host: options.oscHost, port: port, wakeup: metronome.wakeup)
                server.start()
                frontEnd.remote = RemoteControl(server: server, session: session, engine: control)
                printError("tactus: OSC on \(server.local) (UDP)\(options.oscHost == "127.0.0.1" ? "" : ": open to the network, anyone who reaches it controls Tactus")")
            } catch {
                frontEnd.finish()
                printError("tactus: \(error)")
                return OptionError.exitStatus
            }
        }
        if options.tempoMap != nil || options.trainer != nil || options.gapTrainer != nil {
            session.practice = PracticeTools(map: options.tempoMap, trainer: options.trainer != nil, gap: options.gapTrainer != nil)
        }
        // `--alsa-clock-from`: the input thread's push into the cycle's clock-in ring.
        var clockIn: (@Sendable (TimedClockInputEvent) -> Void)?
        if options.alsaClockFrom != nil {
            clockIn = { (arrival: TimedClockInputEvent) in _ = shared.pointer.pointee.clockInArrivals?.push(arrival) }
        }
        do throws(OptionError) {
            alsa = try ALSAWiring.start(options, clockStream: clockStream, controlInput: alsaInput, wakeup: metronome.wakeup,
                                        clockIn: clockIn,
                                        log: alsaConnections.report)
        } catch {
            frontEnd.finish()
            printError(error.message)
            return OptionError.exitStatus
        }
        let bar = jack.engine.bar
        printError(StartLine.text(options, tempo: jack.engine.tempo, bar: bar, preset: presets?.preset, lastTempo: lastTempo, startStopped: jack.startStopped))
        var seenChanges = -1
        let linkFollower = LinkFollower(metronome)
        let clockInWatch = ClockInWatch(metronome)
        let serverWait = ServerWait(limit: options.waitSeconds, reminds: !RunFrontEnd.isInteractive(options), now: TactusCore.MonotonicClock().now())
        let status = JackControlThread.run(session.loop, metronome: metronome) {
            frontEnd.linkSession = linkFollower.round(session.loop)
            frontEnd.clockIn = clockInWatch.round(now: TactusCore.MonotonicClock().now()) { session.say($0) }
            let changes = metronome.changes
            defer { seenChanges = changes }
            // `q` or Ctrl-C in the terminal: the same way out as SIGINT (MIDI Stop, close).
            if frontEnd.round(portsChanged: changes != seenChanges) { JackControlThread.requestQuit() }
            let gaveUp = serverWait.gaveUp
            let waiting = serverWait.round(connected: metronome.everConnected, now: TactusCore.MonotonicClock().now()) { printError($0) }
            if serverWait.gaveUp && !gaveUp { JackControlThread.requestQuit() }
            return ControlTime.earliest(frontEnd.nextDeadline, waiting)
        }
        // A tempo set in the last seconds before the quit has not settled: kept now.
        session.finish()
        // The last JACK cycle has pushed its Stop; the ALSA queue delivers it, then stops.
        alsa?.stop()
        alsa = nil
        frontEnd.remote?.server.stop()
        frontEnd.finish()
        // Never connected (Ctrl-C or --wait ended the wait): the run failed (EXIT STATUS).
        return metronome.everConnected ? status : 1
    }

    static let followTempoOwner = "the JACK timebase master"
    static let clockInTempoOwner = "the incoming MIDI clock"

    /// A preset switched to while running changes the JACK transport mode when
    /// its `"transport"` asks for another one and `--transport` did not pin it
    /// (`Options.transport(of:playing:)`); with Link it says why not.
    static func switchTransport(_ options: Options, to preset: Preset, metronome: JackMetronome,
                                session: ControlSession<TactusCore.MonotonicClock>) {
        guard let mode = options.transport(of: preset, playing: metronome.transportMode) else { return }
        if let refusal = options.transportRefusal(mode) { return session.say("\(preset.name): \(refusal)") }
        metronome.changeTransport(to: mode)
        session.tempoOwner = tempoOwner(options, mode: mode)
    }

    /// Who owns the tempo when it is not Tactus (docs/DESIGN.md §9): the
    /// incoming MIDI clock (`--clock-in`), the JACK timebase master in follow
    /// mode, else nobody.
    static func tempoOwner(_ options: Options, mode: JackTransportMode) -> String? {
        if options.followsClock { return clockInTempoOwner }
        return mode == .follow ? followTempoOwner : nil
    }

    /// The control session of the run: pressure settings (preset, controller.json,
    /// command line), the preset list, and what the engine starts with.
    static func controlSession(_ options: Options, jack: JackRunOptions, control: UnsafeMutablePointer<EngineControl>,
                               presets: PresetStart?, environment: [String: String],
                               inputs: [() -> ControlInputEvent?], samples: SampleFilesInUse? = nil,
                               sampleRate: (() -> Int)? = nil, wakeup: ControlWakeup? = nil) -> ControlSession<TactusCore.MonotonicClock> {
        var controller: ControllerSettings?
        do throws(OptionError) {
            controller = try ControllerFile.load(path: UserFiles.controllerFile(environment))
        } catch {
            printError(error.message)
        }
        let configuration = options.pressureConfiguration(base: presets?.preset?.preset.pressure ?? PressureConfiguration(), controller: controller)
        var switcher: PresetSwitcher?
        if let presets {
            // Each preset is read afresh when chosen, then the command line's clock options applied.
            var s = PresetSwitcher(library: presets.library, sampleRate: jack.engine.sampleRate, switchPoint: options.switchPoint,
                                   masterGain: options.linearGain) { path throws(PresetError) in
                options.overriding(try PresetFile.load(path: path))
            }
            if let sampleRate { s.sampleRate = sampleRate }
            // Read on a thread of their own; the control thread is woken when they are there.
            if let samples { s.samples = { entry, rate in samples.read(for: entry, sampleRate: rate) { wakeup?.post() } } }
            if let entry = presets.preset { s.started(with: entry) }
            switcher = s
        }
        let session = ControlSession(configuration: configuration, tempo: jack.engine.tempo, engine: control, inputs: inputs,
                                     clock: TactusCore.MonotonicClock(), bar: jack.engine.bar, muted: options.mute,
                                     clockOffsetMilliseconds: options.clock.offsetMilliseconds, presets: switcher,
                                     isSetlist: options.setlist != nil, gains: jack.engine.gains)
        session.savePreset = { UserPresetFile.save($0, environment: environment) }
        session.countIn = jack.engine.countIn
        session.controllerActions = controller?.actions ?? []
        session.bindActions(of: presets?.preset?.preset)
        return session
    }

    /// The JACK and ALSA side for the display.
    static func portsStatus(_ metronome: JackMetronome, alsa: ALSAClient?, alsaConnections: [MIDIConnection],
                      dspLoad: inout DSPLoadReading) -> PortsStatus {
        var connections = alsa == nil ? [] : alsaConnections
        let view: JackView
        if let s = metronome.status {
            view = .connected(JackFigures(server: s.server, client: s.client, sampleRate: s.sampleRate, period: s.period,
                                          xruns: s.xruns, dspLoadPercent: dspLoad.update(s.dspLoad), transport: s.transport,
                                          sync: s.sync))
            connections += s.clockConnections.map { MIDIConnection(.jack, .clock, $0) }
            connections += s.controlConnections.map { MIDIConnection(.jack, .control, $0) }
        } else {
            view = .waiting(server: metronome.serverName)
        }
        return PortsStatus(jack: view, connections: connections, alsaActive: alsa != nil)
    }

    /// The JACK client's settings from the command line, with the click sounds
    /// read once to check them (`FirstSoundSet`): the engine plays them if the
    /// server runs at their rate.
    static func jackOptions(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil,
                            samplesInUse: SampleFilesInUse? = nil) throws(OptionError) -> JackRunOptions {
        var jack = JackRunOptions()
        jack.clientName = options.clientName
        jack.serverName = options.serverName
        jack.clickConnections = options.arguments
        jack.feedbackConnections = options.connectFeedback.isEmpty ? nil : options.connectFeedback
        jack.clockConnections = options.connectClock
        jack.controlConnections = options.connectControl
        jack.startStopped = options.startStopped
        jack.syncConnections = options.connectSync
        jack.syncRunConnections = options.connectSyncRun
        // --link-quantum and --link-start-stop mean --link.
        if options.link || options.linkQuantum != nil || options.linkStartStop {
            jack.link = LinkRunOptions(quantum: options.linkQuantum, sharesStartStop: options.linkStartStop)
        }
        jack.transport = options.transport
        jack.clockIn = options.followsClock
        jack.clockInFromALSA = options.alsaClockFrom != nil
        jack.clockInConnections = options.connectClockIn
        jack.clockOffsetMilliseconds = options.clock.offsetMilliseconds
        jack.align = options.align
        var gains = options.soundGains
        gains.master = options.linearGain
        let settings: BarSettings
        if let bar { settings = bar } else { settings = try options.barSettings() }
        jack.engine = EngineConfiguration(sampleRate: FirstSoundSet.likelyRate, tempo: tempo ?? options.tempo ?? BPM(120), bar: settings,
                                          gains: gains, clockWhileStopped: options.clock.sendWhileStopped,
                                          sendSongPosition: options.clock.sendSongPosition, muted: options.mute,
                                          feedbackNotes: options.feedbackMIDI ? .standard : nil,
                                          // `--map`: laid out once, played from each Start, kept for the whole run.
                                          map: options.tempoMap.map { MapTimeline($0, loops: options.mapLoop, subdivision: options.subdivision ?? .none, pulse: options.pulse ?? .beat) },
                                          countIn: options.countIn, trainer: options.trainer, gap: options.gapTrainer,
                                          sync: try options.liveSyncSettings())
        do {
            try jack.checkClockOffset()
        } catch {
            throw OptionError("tactus: \(error)")
        }
        // User and preset samples: read once now so a bad file is an error at
        // start, and again (resampled) whenever the server's sample rate changes,
        // as the preset playing then has them.
        let inUse = samplesInUse ?? SampleFilesInUse(options)
        let first = FirstSoundSet(try options.soundSet(sampleRate: FirstSoundSet.likelyRate), files: inUse.current)
        jack.sounds = { rate in first.take(sampleRate: rate, files: inUse.current) ?? inUse.soundSet(sampleRate: rate) }
        return jack
    }
}

/// The sounds read at start to check the sample files, kept for the engine:
/// the first engine built at their rate (JACK's default, 48 kHz) plays them, so
/// the check costs no second read; at another rate they are freed unused.
/// The files must still be the ones playing (a preset switched before the
/// first server came may have changed them). Held by `JackRunOptions.sounds`:
/// a set never taken is freed with the last copy of the options.
final class FirstSoundSet: @unchecked Sendable {
    /// jackd's default rate (`-r`), the one a server most likely runs at.
    static let likelyRate = 48_000
    private let lock = Mutex<SoundSet?>(nil)
    private let files: [ClickSound: String]

    init(_ set: SoundSet, files: [ClickSound: String]) {
        lock.withLock { $0 = set }
        self.files = files
    }

    /// The kept set if `sampleRate` and `files` are its own (once); nil otherwise.
    /// The first call frees it either way: it is of no use later.
    func take(sampleRate: Int, files current: [ClickSound: String]) -> SoundSet? {
        guard let set = lock.withLock({ value -> SoundSet? in defer { value = nil }; return value }) else { return nil }
        if set.sampleRate == sampleRate && current == files { return set }
        set.deallocate()
        return nil
    }

    deinit {
        lock.withLock { value in value?.deallocate() }
    }
}
