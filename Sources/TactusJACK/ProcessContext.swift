import CJack
import Synchronization
import TactusCore
import TactusLink
#if canImport(Glibc)
import Glibc
#endif

/// The JACK port handles of one client.
struct JackPorts: BitwiseCopyable {
    var click: OpaquePointer
    var feedback: OpaquePointer
    var clock: OpaquePointer
    var control: OpaquePointer
    /// `clock_in` (`--clock-in`), nil without it.
    var clockIn: OpaquePointer? = nil
    /// `sync` and `sync_run` (`--sync-out`, `JackPorts.register`); nil: not registered.
    var sync: OpaquePointer? = nil
    var syncRun: OpaquePointer? = nil
}

/// Everything the process callback touches, at one stable address handed to
/// JACK as the callback's `void *` argument: the engine inline, plain pointers to
/// what is shared, and nothing that retains or allocates.
///
/// Only the real-time thread touches it while the client is active; the
/// supervisor changes `client`, `ports` and `timeline` only while it is not
/// (before activation, after deactivation, after the server went away).
struct ProcessContext: ~Copyable {
    var engine: Engine
    let control: UnsafeMutablePointer<EngineControl>
    let shared: UnsafeMutablePointer<JackShared>
    var client: OpaquePointer?
    var ports: JackPorts?
    /// The MIDI events of one cycle, reused every cycle.
    var events = MIDIEventBuffer(capacity: 1024)
    var timeline = FrameTimeline()
    /// CLOCK_MONOTONIC − jack2's clock, read every 64 cycles (`RealtimeJack.cycleTimes`).
    var rawClockOffset = RawClockOffset()
    /// Running status and real-time interleaving across events (MIDI 1.0 receiver rules).
    var parser = MIDIParser()
    /// Where the last rendered block ended, so a new server continues from there.
    var endFrame: Int64 = 0
    /// Ableton Link as the time source (`--link`), nil without it: the
    /// timeline the cycle keeps, and the session's audio-thread API, which the
    /// callback's `JackHost` hands the cycle (nil where the cycle's host brings
    /// its own session, as the simulated tier's does).
    var link: (timeline: LinkTimeline, audio: LinkAudio?)?
    /// Whether this client's cycles sound yet (`SoundingGate`).
    let gate = SoundingGate()
    /// The control thread's `ControlWakeup`, posted in a cycle that received
    /// control input (nil: nobody to wake).
    let wakeup: UnsafeMutablePointer<sem_t>?
    /// Set in a cycle that has news for the control thread: `wakeup` is posted
    /// once, at the cycle's end.
    var wakeControlThread = false
    /// A sounding block ended at `endFrame` on this server (false before the
    /// first, and after a server's loss: the new one continues where it ended).
    var endedBlock = false
    /// `--transport` (docs/DESIGN.md §13): the cycle reads the mode from
    /// `JackShared.transportMode` (`TransportCycleMode`: a preset may change it
    /// while running); the transport as the last cycle saw it, the timebase
    /// master's BBT as the follow source, and the frames of a pulse at Tactus's
    /// own tempo (a rolling transport without a master: klick's `-t`).
    var transport = TransportObserver()
    var follower: BBTFollower
    var ownFramesPerPulse: Double
    /// Tactus's own start tempo in pulses a minute, for `ownFramesPerPulse` at any rate.
    let ownPulsesPerMinute: Double
    /// The dry cycle before activation: the transport does not start the song there.
    var dry = false
    /// The incoming MIDI clock as the time source (`--clock-in`).
    var clockIn: ClockInFollow

    /// What the cycle's time source owns (docs/DESIGN.md §9): tempo and
    /// transport with Link, JACK transport follow or the MIDI clock in,
    /// nothing otherwise.
    func sourceOwnership(_ mode: TransportCycleMode) -> SourceOwnership {
        // TactusCore's named values: another module, out of the checker's sight.
        guard link != nil || mode.follows || clockIn.enabled else { return SourceOwnership() }
        return SourceOwnership(tempo: true, transport: true)
    }

    init(engine: consuming Engine, control: UnsafeMutablePointer<EngineControl>, shared: UnsafeMutablePointer<JackShared>,
         wakeup: UnsafeMutablePointer<sem_t>? = nil, ownTempo: BPM = BPM(120), ownMeter: Meter = .fourFour, clockIn: Bool = false) {
        let rate = Double(engine.sampleRate)
        self.clockIn = ClockInFollow(enabled: clockIn, sampleRate: engine.sampleRate)
        self.engine = engine
        self.control = control
        self.shared = shared
        self.wakeup = wakeup
        ownPulsesPerMinute = ownTempo.value * Double(ownMeter.pulsesPerBeat)
        follower = BBTFollower(sampleRate: rate)
        ownFramesPerPulse = rate * 60 / ownPulsesPerMinute
    }

    /// Everything the cycle sized from the sample rate, rebuilt for the
    /// engine's new one (a server back at another rate, docs/DESIGN.md §8.4):
    /// the follower's frames (its phase and its counts of stale readings
    /// start afresh, as on a new server) and the frames of a pulse at
    /// Tactus's own tempo. Control thread, while the client is inactive.
    mutating func rateChanged() {
        let rate = Double(engine.sampleRate)
        follower = BBTFollower(sampleRate: rate)
        ownFramesPerPulse = rate * 60 / ownPulsesPerMinute
        clockIn = ClockInFollow(enabled: clockIn.enabled, sampleRate: engine.sampleRate)
    }
}

/// The process cycle, as functions of the context's address (the callback's
/// `void *`), so that nothing on the real-time path copies or retains.
///
/// `@_noLocks @_noAllocation` makes the compiler reject locks, allocation and
/// reference counting in these bodies and everything they call, the engine's
/// cycle included: in release builds (REALTIME_CHECKS), where TactusCore's
/// functions the cycle calls carry the same attributes and generics are
/// specialized (a debug build cannot see into another module's bodies). The
/// C functions it cannot see into (libjack, `sem_post`) are exempted one call
/// at a time with `_unsafePerformance` (`RealtimeJack`, `post`), and the
/// LD_PRELOAD test (Tests/RTProbe) proves at run time that they do neither
/// (docs/DESIGN.md §2.2).
enum ProcessCycle {
    /// The JACK process callback's cycle: the context's client and ports as
    /// the cycle's `JackHost`. The real-time check is made here, on the
    /// callback's concrete call, and follows it into `run<JackHost>` and every
    /// generic function below as specialized for `JackHost`: a generic body
    /// checked unspecialized would be refused for its calls through the
    /// protocol's witness table, which a specialization does not make.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func run(_ context: UnsafeMutablePointer<ProcessContext>, frames: jack_nframes_t) {
        guard let client = context.pointee.client, let ports = context.pointee.ports else { return }
        var host = JackHost(client: client, ports: ports, link: context.pointee.link?.audio)
        run(context, frames: frames, host: &host)
    }

    /// One JACK cycle on any `CycleHost` (a server's, or the deterministic
    /// tests' simulated one): read the cycle's time, hand the control input
    /// on, render the engine straight into the port buffers, write the clock
    /// events at their frame offsets. A generic, not an existential: the
    /// callback's call is specialized, static and checked (`run(_:frames:)`).
    static func run<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, frames: jack_nframes_t, host: inout Host) {
        let sampleRate = context.pointee.engine.sampleRate
        let shared = context.pointee.shared
        let times = host.cycleTimes(frames: frames, sampleRate: sampleRate, offset: &context.pointee.rawClockOffset)
        // JACK's DLL-filtered period follows the card's real rate (FrameClockReference).
        let microsecondsPerFrame = times.nextMicroseconds > times.microseconds
            ? Double(times.nextMicroseconds - times.microseconds) / Double(frames)
            : 1_000_000 / Double(sampleRate)
        if let input = host.buffer(.control, frames),
           receiveControlInput(context, buffer: input, host: &host, cycleMicroseconds: times.microseconds, microsecondsPerFrame: microsecondsPerFrame) > 0 {
            context.pointee.wakeControlThread = true
        }
        let click = host.buffer(.click, frames)?.assumingMemoryBound(to: Float.self)
        let feedback = host.buffer(.feedback, frames)?.assumingMemoryBound(to: Float.self)
        let clockBuffer = host.buffer(.clock, frames)
        let sync = syncBuffers(host: &host, frames: frames)

        if context.pointee.gate.holds(cycleFrame: times.frame) {
            // Not yet connected: silence, and the engine and timeline stay where
            // they are, so the first sounding cycle continues exactly there.
            if let click { for i in 0..<Int(frames) { click[i] = 0 } }
            if let feedback { for i in 0..<Int(frames) { feedback[i] = 0 } }
            if let clockBuffer { host.clearMIDI(clockBuffer) }
            silence(sync, frames: frames)
        } else {
            let start = context.pointee.timeline.frame(forJackFrame: times.frame)
            let previousEnd = context.pointee.endFrame
            if context.pointee.endedBlock && start != previousEnd {
                tell(context, .cyclesSkipped(from: previousEnd, frames: start - previousEnd))
            }
            context.pointee.endedBlock = true
            shared.pointee.frameClock.publish(frame: start, microseconds: times.microseconds, microsecondsPerFrame: microsecondsPerFrame)
            // jack2's own times are CLOCK_MONOTONIC_RAW, Link's clock on Linux.
            let hostMicroseconds = Double(times.microseconds - context.pointee.rawClockOffset.microseconds)
            // Quitting, the one switch: no source owns anything or gives a
            // position, so the Stop pushed with the flag is the engine's own.
            let quitting = shared.pointee.quitting.load(ordering: .acquiring)
            let mode = TransportCycleMode.current(shared)
            let owner = quitting ? SourceOwnership() : context.pointee.sourceOwnership(mode)
            let reading = quitting ? TransportReading() : readTransport(context, host: &host, frames: frames,
                                                                           jackFrame: UInt32(truncatingIfNeeded: times.frame))
            let status = context.pointee.control
            let wasRunning = status.pointee.status.running.load(ordering: .relaxed)
            let clock = quitting ? nil : readClockIn(context, host: &host, frames: frames, start: start, publishesBBT: mode.publishesBBT,
                                                     cycleMicroseconds: times.microseconds, microsecondsPerFrame: microsecondsPerFrame)
            var source = JackCycleSource(context: context, session: host.link, owner: owner, transport: clock ?? reading.position,
                                         follows: context.pointee.clockIn.enabled || mode.follows, start: start,
                                         frames: Int(frames), host: hostMicroseconds, microsecondsPerFrame: microsecondsPerFrame)
            let input = CycleInput(start: start, frames: Int(frames), owner: owner, transport: reading.move)
            context.pointee.engine.cycle(input, source: &source, control: status.pointee, click: click, feedback: feedback,
                                         events: &context.pointee.events, sync: sync)
            // Tactus started or stopped: the control thread hands it on to JACK
            // transport now (from the transport frame of the bar it plays); with
            // Link the session started or stopped it, and the control thread says
            // so now, not at its next round.
            let running = status.pointee.status.running.load(ordering: .relaxed)
            if running != wasRunning && (mode.reads || context.pointee.link != nil) {
                if running {
                    let bar = max(1, status.pointee.status.bar.load(ordering: .relaxed))
                    tell(context, .songStarted(transportFrame: context.pointee.engine.transportFrame(ofBar: bar)))
                } else {
                    tell(context, .songStopped)
                }
            }
            if let clockBuffer {
                sendClock(context, into: clockBuffer, host: &host, blockStart: start, frames: frames)
            }
            context.pointee.endFrame = start + Int64(frames)
        }
        shared.pointee.period.store(Int(frames), ordering: .relaxed)
        shared.pointee.cycles.add(1, ordering: .relaxed)
        // Once a cycle at most, at its end, whatever asked for it: control input
        // received, cycle events pushed, or quitting (the control thread waits
        // for the cycles that deliver the Stop).
        if context.pointee.wakeControlThread || shared.pointee.quitting.load(ordering: .relaxed), let wakeup = context.pointee.wakeup {
            post(wakeup)
            shared.pointee.wakeupsPosted.add(1, ordering: .relaxed)
        }
        context.pointee.wakeControlThread = false
    }

    /// Hands the control thread one cycle event and has it woken at the
    /// cycle's end (once, however many events the cycle told).
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func tell(_ context: UnsafeMutablePointer<ProcessContext>, _ event: CycleEvent) {
        context.pointee.shared.pointee.cycleEvents.push(event)
        context.pointee.wakeControlThread = true
    }

    /// Wakes the control thread (`ControlWakeup`): the one call out of the cycle
    /// besides libjack's and Link's. glibc's `sem_post` takes no lock and makes
    /// a futex wake only while the control thread sleeps; the compiler cannot
    /// see into it (a C function), so it is the one exception to the check,
    /// around that call alone, and the interposer test (Tests/RTProbe) counts
    /// the cycle's locks and allocations with it.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func post(_ wakeup: UnsafeMutablePointer<sem_t>) {
        _ = _unsafePerformance { sem_post(wakeup) }
    }

    /// How far from the frame the control thread saw last when it released the timebase jack2's reposition
    /// after a release may land: a period either way (the cycles that ran
    /// around the request), at most a few (8192 frames is two of the largest
    /// period jackd runs with).
    static var releaseRepositionFrames: Int64 { 8192 }

    /// A locate that is no one's to follow: the echo of Tactus's own (the
    /// frame it located the transport to before starting it), or jack2's
    /// reposition after this client released the timebase while rolling (a
    /// period or so back from where it rolled, `releaseRepositionFrames`).
    /// Either is taken (cleared) when seen.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func isEcho(_ shared: UnsafeMutablePointer<JackShared>, frame: UInt32) -> Bool {
        if shared.pointee.ownLocateFrame.compareExchange(expected: Int(frame), desired: -1, ordering: .relaxed).exchanged { return true }
        let released = shared.pointee.releasedAtFrame.exchange(-1, ordering: .relaxed)
        return released >= 0 && abs(Int64(frame) - Int64(released)) <= releaseRepositionFrames
    }

    /// The timebase callback's work (`--transport master`): the BBT of the next
    /// cycle's first frame, which this cycle's render ended at, from the engine's
    /// own grid (`Engine.barBeatTick`): the position followers get is the one
    /// Tactus plays, through no second timing path. jack2 calls it right after
    /// this client's process callback, on the same thread, for the next cycle.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    static func publishBarBeatTick(_ context: UnsafeMutablePointer<ProcessContext>, into position: UnsafeMutablePointer<jack_position_t>) {
        let end = context.pointee.endFrame
        // `--clock-in`: the line the next block will follow (`followClockIn`).
        let bbt = context.pointee.clockIn.enabled
            ? context.pointee.engine.barBeatTick(atFrame: end, following: context.pointee.clockIn.position(atFrame: end))
            : context.pointee.engine.barBeatTick(atFrame: end)
        position.pointee.valid = jack_position_bits_t(rawValue: JackPositionBBT.rawValue | JackTickDouble.rawValue)
        position.pointee.bar = bbt.bar
        position.pointee.beat = bbt.beat
        position.pointee.tick = Int32(bbt.tick)
        position.pointee.tick_double = bbt.tick
        position.pointee.bar_start_tick = bbt.barStartTick
        position.pointee.beats_per_bar = Float(bbt.beatsPerBar)
        position.pointee.beat_type = Float(bbt.beatType)
        position.pointee.ticks_per_beat = BarBeatTick.ticksPerBeat
        position.pointee.beats_per_minute = bbt.beatsPerMinute
        context.pointee.shared.pointee.timebaseCallbacks.add(1, ordering: .relaxed)
    }

    /// The dry cycle, before `jack_activate`: the whole cycle once on the real
    /// context, into the port buffers of the not yet active client (scratch
    /// memory nobody reads), so the first real cycle runs through code and data
    /// already touched. The engine is stopped, so nothing is lost; the first real
    /// cycle then continues where this one ended.
    static func dryRun(_ context: UnsafeMutablePointer<ProcessContext>, frames: Int) {
        guard let client = context.pointee.client, let ports = context.pointee.ports else { return }
        var host = JackHost(client: client, ports: ports, link: context.pointee.link?.audio)
        dryRun(context, frames: frames, host: &host)
    }

    static func dryRun<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, frames: Int, host: inout Host) {
        context.pointee.timeline.resume(at: context.pointee.endFrame)
        context.pointee.dry = true
        run(context, frames: jack_nframes_t(frames), host: &host)
        // The stopped engine sends no event and the transport did nothing, so
        // the cycle's clock stream and its events ring go untouched: a build
        // without specialization (debug) instantiates a ring's generic type
        // where it is first used, and that allocates and locks. They are used
        // here first, before activation (read only: their consumers, the
        // clock thread and the control thread's next round, have not started).
        _ = context.pointee.shared.pointee.clockStream?.peek()
        _ = context.pointee.shared.pointee.clockInArrivals?.peek()
        _ = context.pointee.shared.pointee.cycleEvents.peek()
        context.pointee.dry = false
        context.pointee.timeline.resume(at: context.pointee.endFrame)
    }

    /// Each `control` event → typed messages → the control thread's ring,
    /// stamped with the monotonic time of its frame (`jack_frames_to_time`
    /// arithmetic on this cycle's times, without the call). A full ring drops
    /// the event and counts it (`SPSCRing.dropped`): the callback never waits.
    /// What passes is `ControlInputEvent.accepts`, the rule the ALSA input
    /// follows too. Returns how many messages were handed on (or dropped).
    @discardableResult
    static func receiveControlInput<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, buffer: UnsafeMutableRawPointer,
                                                     host: inout Host, cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> Int {
        let shared = context.pointee.shared
        let count = host.midiEventCount(buffer)
        var received = 0
        var index: UInt32 = 0
        while index < count {
            if let event = host.midiEvent(buffer, index), let bytes = event.buffer {
                let microseconds = cycleMicroseconds + Int64(Double(event.time) * microsecondsPerFrame)
                var i = 0
                while i < event.size {
                    let byte = bytes[i]
                    if let message = context.pointee.parser.parse(byte), ControlInputEvent.accepts(message) {
                        shared.pointee.controlInputReceived.add(1, ordering: .relaxed)
                        shared.pointee.controlInput.push(ControlInputEvent(message: message, microseconds: microseconds))
                        received += 1
                    }
                    i += 1
                }
            }
            index += 1
        }
        return received
    }

    /// Writes this cycle's clock events at their offsets (JACK MIDI is
    /// sample-accurate: an event's `time` is its frame within the cycle) and
    /// copies them to the ALSA output ring when that output is on.
    static func sendClock<Host: CycleHost>(_ context: UnsafeMutablePointer<ProcessContext>, into buffer: UnsafeMutableRawPointer,
                                           host: inout Host, blockStart: Int64, frames: jack_nframes_t) {
        let shared = context.pointee.shared
        host.clearMIDI(buffer)
        let count = context.pointee.events.count
        var i = 0
        while i < count {
            let event = context.pointee.events[i]
            let offset = jack_nframes_t(clamping: min(max(0, event.frame - blockStart), Int64(frames) - 1))
            let size = Int(event.bytes.count)
            if let data = host.reserveMIDI(buffer, offset, size) {
                data[0] = event.bytes.byte0
                if size > 1 { data[1] = event.bytes.byte1 }
                if size > 2 { data[2] = event.bytes.byte2 }
            } else {
                shared.pointee.clockEventsLost.add(1, ordering: .relaxed)
            }
            shared.pointee.clockStream?.push(event)
            i += 1
        }
    }
}
