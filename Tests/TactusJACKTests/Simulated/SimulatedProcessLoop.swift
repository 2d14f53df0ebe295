import CJack
import TactusCore
import TactusLink
@testable import TactusJACK

/// JACK's process loop without a server, exact to the frame and the same
/// every run: a virtual frame clock (JACK's 32-bit frame time) and host time
/// in µs, the period and sample rate, the port buffers (click and feedback
/// audio, the `clock` MIDI output, the `control` MIDI input), and a scripted
/// transport (`ScriptedTransport`). Each cycle calls the real
/// `ProcessCycle.run` on a `ProcessContext` made as `JackMetronome` makes it
/// (`ProcessContext(options:sampleRate:…)`, the dry cycle, the `.start` at
/// connection unless `--start-stopped`), through `SimulatedHost`. With
/// `--link`, a scripted Link session (`ScriptedLinkSession`) is the cycle's
/// session, its peers counted for the cycle as the control thread counts
/// them, and the `click` port's playback latency is `clickLatency`.
///
/// Between cycles the control thread's round for JACK transport runs, the
/// real one (`CycleEventReader.take`, `JackTransportLink.handle`, abstracted over `TransportRequests`
/// as the cycle is over `CycleHost`): its start, stop and locate go to the
/// scripted transport, which takes them at the end of the next cycle, as
/// jack2 takes a request at the end of the cycle it was asked in (the live
/// control thread wakes after the cycle that posted it). The round runs after
/// every cycle here, as if the control thread were never late. Tactus as
/// timebase master: its timebase callback's work
/// (`ProcessCycle.publishBarBeatTick`) runs after each of its cycles, for
/// the next one, as jack2 calls it (every cycle here; jack2 only while
/// rolling or after a locate, and the tests read rolling cycles).
final class SimulatedProcessLoop {
    /// One click onset: JACK frame, engine frame, transport frame (rolling
    /// cycles only), and the sample (the tests' sounds: accent 1, beat 0.5).
    struct Onset { var jackFrame: UInt32, engineFrame: Int64, transportFrame: UInt32?, value: Float
        var accent: Bool { value == 1 }
    }

    private(set) var rate: Int
    private(set) var period: Int
    private(set) var jackFrame: UInt32
    /// The host time of `timeOrigin.frame` (µs), moved at a rate change.
    private var timeOrigin: (frame: UInt32, microseconds: Int64)
    var transport: ScriptedTransport
    /// The Link session (`--link`).
    let link: ScriptedLinkSession?
    /// The `click` port's JACK playback latency (frames), as the control thread reads it.
    var clickLatency = 0 { didSet { shared.pointee.clickLatency.store(clickLatency, ordering: .relaxed) } }
    /// Cycles (by JACK frame) whose wake-up jack2 timed late by so many µs.
    var lateWakeUps: [UInt32: Int64] = [:]
    let click = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
    let feedback = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
    /// The `sync` and `sync_run` audio outputs (`--sync-out`, docs/DESIGN.md §14.7).
    let sync = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
    let syncRun = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
    let clock = SimulatedMIDIBuffer()
    let control = SimulatedMIDIBuffer()
    /// The `clock_in` MIDI input (`--clock-in`).
    let clockIn = SimulatedMIDIBuffer()
    let engineControl: UnsafeMutablePointer<EngineControl>
    let shared: UnsafeMutablePointer<JackShared>
    let context: UnsafeMutablePointer<ProcessContext>
    let transportLink: JackTransportLink
    /// The control thread's end of the cycles' events, taken after every cycle.
    let cycleEvents = CycleEventReader()
    /// Every event the cycles said, in order.
    var events: [CycleEvent] = []
    let options: JackRunOptions
    private(set) var isTimebaseMaster: Bool

    /// What the run produced.
    private(set) var onsets: [Onset] = []
    private(set) var midi: [(jackFrame: UInt32, engineFrame: Int64, bytes: [UInt8])] = []
    /// The BBT Tactus published for the cycle at that JACK frame and engine frame (master).
    private(set) var published: [(jackFrame: UInt32, engineFrame: Int64, position: jack_position_t)] = []
    /// Every cycle this client ran: its JACK frame, the transport's state and frame.
    private(set) var cycles: [(jackFrame: UInt32, engineFrame: Int64, state: jack_transport_state_t, transportFrame: UInt32)] = []
    /// Every change of the sync lines' samples (line 0 `sync`, 1 `sync_run`),
    /// from 0 before the first: with `--sync-out`, each line's whole signal.
    private(set) var syncChanges: [(line: Int, jackFrame: UInt32, engineFrame: Int64, value: Float)] = []
    private var syncLevels: [Float] = [0, 0]
    /// MIDI input for the `control` port, at JACK frames.
    var controlInput: [(jackFrame: UInt32, bytes: [UInt8])] = []
    /// MIDI input for the `clock_in` port (`--clock-in`), at JACK frames.
    var clockInput: [(jackFrame: UInt32, bytes: [UInt8])] = []

    /// The tests' sounds: one sample each, accent 1, beat 0.5, the rest 0.25,
    /// so an onset is one non-zero sample on its frame.
    static func impulses(_ rate: Int) -> SoundSet {
        SoundSet(sampleRate: rate) { [$0 == .accent ? 1 : $0 == .beat ? 0.5 : 0.25] }
    }

    init(options base: JackRunOptions, mode: JackTransportMode = .off, rate: Int = 48000, period: Int = 256,
         startFrame: UInt32 = 1_000_000, transport: ScriptedTransport = ScriptedTransport(),
         link: ScriptedLinkSession? = nil, clickLatency: Int = 0) throws {
        var options = base
        options.sounds = { Self.impulses($0) }
        options.transport = mode
        self.options = options
        self.rate = rate
        self.period = period
        jackFrame = startFrame
        timeOrigin = (startFrame, 5_000_000_000)
        self.transport = transport
        self.link = link
        engineControl = .allocate(capacity: 1)
        engineControl.initialize(to: EngineControl())
        shared = .allocate(capacity: 1)
        shared.initialize(to: JackShared(controlInputCapacity: 4096, clockStreamCapacity: nil,
                                         clockInArrivalsCapacity: options.clockInFromALSA ? JackRunOptions.clockInArrivalsCapacity : nil))
        context = .allocate(capacity: 1)
        context.initialize(to: try ProcessContext(options: options, sampleRate: rate, control: engineControl, shared: shared, wakeup: nil))
        // JackMetronome with `--link`: the time source, the quantum a bar of the starting meter by default.
        if let link, let settings = options.link {
            context.pointee.link = (LinkTimeline(quantum: Double(settings.quantum ?? options.engine.bar.meter.beatsPerBar),
                                                 sharesStartStop: settings.sharesStartStop, tempo: options.engine.tempo.value), nil)
            shared.pointee.linkPeers.store(link.peers, ordering: .relaxed)
        }
        self.clickLatency = clickLatency
        shared.pointee.clickLatency.store(clickLatency, ordering: .relaxed)
        transportLink = JackTransportLink(mode: mode, shared: shared, cycleTakesStarts: options.link == nil) { _ in }
        isTimebaseMaster = mode.wantsTimebase
        // JackMetronome.attach: the dry cycle before activation; connect: the start.
        var host = SimulatedHost(loop: self)
        clock.reset(frames: UInt32(period))
        control.reset(frames: UInt32(period))
        clockIn.reset(frames: UInt32(period))
        ProcessCycle.dryRun(context, frames: period, host: &host)
        JackRunOptions.firstCommands(options) { engineControl.pointee.commands.push($0) }
    }

    deinit {
        let sounds = context.pointee.engine.soundSet
        context.deinitialize(count: 1)
        context.deallocate()
        sounds.deallocate()
        while let set = engineControl.pointee.retiredSounds.pop() { set.deallocate() }
        engineControl.deinitialize(count: 1)
        engineControl.deallocate()
        shared.deinitialize(count: 1)
        shared.deallocate()
        click.deallocate()
        feedback.deallocate()
        sync.deallocate()
        syncRun.deallocate()
    }

    func microseconds(atJackFrame frame: UInt32) -> Int64 {
        timeOrigin.microseconds + Int64(Double(frame &- timeOrigin.frame) * 1_000_000 / Double(rate))
    }

    /// A command from the control thread, taken by the next cycle.
    func push(_ command: EngineCommand) { engineControl.pointee.commands.push(command) }

    /// One process cycle of this client, then the server's end of the cycle
    /// (the transport moves on) and the control thread's round.
    func cycle() {
        let frames = UInt32(period)
        if let link { shared.pointee.linkPeers.store(link.peers, ordering: .relaxed) }
        let input = controlInput.filter { $0.jackFrame &- jackFrame < frames }.map { (offset: $0.jackFrame &- jackFrame, bytes: $0.bytes) }
        control.reset(frames: frames, input: input)
        clockIn.reset(frames: frames, input: clockInput.filter { $0.jackFrame &- jackFrame < frames }.map { (offset: $0.jackFrame &- jackFrame, bytes: $0.bytes) })
        clock.reset(frames: frames)
        for i in 0..<period { click[i] = .nan; feedback[i] = .nan; sync[i] = .nan; syncRun[i] = .nan }
        let state = transport.state, transportFrame = transport.frame
        var host = SimulatedHost(loop: self)
        ProcessCycle.run(context, frames: frames, host: &host)
        let start = context.pointee.endFrame - Int64(period)
        cycles.append((jackFrame, start, state, transportFrame))
        let rolling = state.rawValue == JackTransportRolling.rawValue
        for i in 0..<period where click[i] != 0 {
            onsets.append(Onset(jackFrame: jackFrame &+ UInt32(i), engineFrame: start + Int64(i),
                                transportFrame: rolling ? transportFrame &+ UInt32(i) : nil, value: click[i]))
        }
        // A sample the cycle did not write stays NaN, and shows as a change.
        for (line, buffer) in [sync, syncRun].enumerated() where SimulatedHost.hasSyncLine(line, options) {
            for i in 0..<period where !(buffer[i] == syncLevels[line]) {
                syncChanges.append((line, jackFrame &+ UInt32(i), start + Int64(i), buffer[i]))
                syncLevels[line] = buffer[i]
            }
        }
        for e in clock.written() { midi.append((jackFrame &+ e.offset, start + Int64(e.offset), e.bytes)) }
        if isTimebaseMaster {
            var position = jack_position_t()
            ProcessCycle.publishBarBeatTick(context, into: &position)
            transport.publish(position)
            published.append((jackFrame &+ frames, context.pointee.endFrame, position))
        }
        transport.endCycle(period: frames)
        jackFrame &+= frames
        var requests: ScriptedTransport? = transport
        cycleEvents.take(from: shared, requests: &requests, transportLink: transportLink, control: engineControl) { events.append($0) }
        if let requests { transport = requests }
        // JackMetronome.takeCycleEvents: a followed source's commit to the session,
        // as `LinkSession.commit` makes it with the application-thread API.
        if let commit = cycleEvents.takeSessionCommit(), let link {
            var state = link.captureApp()
            commit.apply(to: &state)
            link.commitApp(state)
        }
    }

    func run(cycles count: Int) { for _ in 0..<count { cycle() } }

    /// Cycles until the JACK frame reaches `frame` (wrap-safe distance).
    func run(untilJackFrame frame: UInt32) {
        while Int32(bitPattern: frame &- jackFrame) > 0 { cycle() }
    }

    /// jack2's timed driver re-anchoring its schedule after a stall: from now
    /// on each cycle's time is `microseconds` later for the same frame (the
    /// frames fell behind the host's clock by the stall).
    func reanchor(lateBy microseconds: Int64) {
        timeOrigin.microseconds += microseconds
    }

    /// Cycles this client missed (an xrun, a skipped cycle): the server's frame
    /// time and transport move on without it.
    func skip(cycles count: Int) {
        for _ in 0..<count {
            transport.endCycle(period: UInt32(period))
            jackFrame &+= UInt32(period)
        }
    }

    /// The server back at `newRate` and `newPeriod` (a restart): what
    /// `JackMetronome` does when the server went away (the timeline resumes at
    /// the end of the last block, the sounding click silenced) and when it
    /// attaches to the new one (the engine rebuilt at the new rate, the gate
    /// closed and opened once connected); the new server's frame time starts
    /// at `startFrame`, its transport stopped at 0.
    func restartServer(rate newRate: Int, period newPeriod: Int, startFrame: UInt32) {
        context.pointee.timeline.resume(at: context.pointee.endFrame)
        context.pointee.engine.silence()
        context.pointee.engine.changeSampleRate(to: newRate, sounds: Self.impulses(newRate),
                                                continuingAt: context.pointee.endFrame) { $0.deallocate() }
        context.pointee.rateChanged()
        let elapsed = microseconds(atJackFrame: jackFrame)
        rate = newRate
        period = newPeriod
        jackFrame = startFrame
        timeOrigin = (startFrame, elapsed + 1_000_000)
        transport = ScriptedTransport(master: transport.master, lateBBT: transport.lateBBT)
        context.pointee.gate.close()
        context.pointee.gate.open(now: startFrame, sampleRate: newRate, period: newPeriod)
    }

    /// Quitting (`JackMetronome.shutdown`): the flag, Song Position and the
    /// clock while stopped off, Stop, then three more cycles.
    func quit() {
        shared.pointee.quitting.store(true, ordering: .releasing)
        push(.setSongPositionEnabled(false))
        push(.setClockWhileStopped(false))
        push(.stop)
        run(cycles: 3)
    }

    /// MIDI events without clock ticks.
    var transportMessages: [(jackFrame: UInt32, engineFrame: Int64, bytes: [UInt8])] { midi.filter { $0.bytes != [0xF8] } }
    var ticks: [UInt32] { midi.filter { $0.bytes == [0xF8] }.map(\.jackFrame) }
    /// The clock ticks' engine frames.
    var tickFrames: [Int64] { midi.filter { $0.bytes == [0xF8] }.map(\.engineFrame) }
}
