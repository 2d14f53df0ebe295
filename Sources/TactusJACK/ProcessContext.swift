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
    /// Ableton Link as the time source (`--link`), nil without it.
    var link: LinkTimeline?
    /// Whether this client's cycles sound yet (`SoundingGate`).
    let gate = SoundingGate()
    /// The control thread's `ControlWakeup`, posted in a cycle that received
    /// control input (nil: nobody to wake).
    let wakeup: UnsafeMutablePointer<sem_t>?
    /// `--transport` (docs/DESIGN.md §13): the cycle reads the mode from
    /// `JackShared.transportMode` (`TransportCycleMode`: a preset may change it
    /// while running); the transport as the last cycle saw it, the timebase
    /// master's BBT as the follow source, and the frames of a pulse at Tactus's
    /// own tempo (a rolling transport without a master: klick's `-t`).
    var transport = TransportObserver()
    var follower: BBTFollower
    var ownFramesPerPulse: Double
    /// A start or a locate of the transport this cycle saw, for the engine to
    /// take in this cycle (`join`, `master`: `TransportTake`).
    var take: TransportTake?
    /// The dry cycle before activation: the transport does not start the song there.
    var dry = false

    /// What the cycle's time source owns (docs/DESIGN.md §9): tempo and
    /// transport with Link or JACK transport follow, nothing otherwise.
    func sourceOwnership(_ mode: TransportCycleMode) -> SourceOwnership {
        // TactusCore's named values: another module, out of the checker's sight.
        guard link != nil || mode.follows else { return _unsafePerformance { SourceOwnership.none } }
        return _unsafePerformance { SourceOwnership.tempoAndTransport }
    }

    init(engine: consuming Engine, control: UnsafeMutablePointer<EngineControl>, shared: UnsafeMutablePointer<JackShared>,
         wakeup: UnsafeMutablePointer<sem_t>? = nil, ownTempo: BPM = BPM(120), ownMeter: Meter = .fourFour) {
        let rate = Double(engine.sampleRate)
        self.engine = engine
        self.control = control
        self.shared = shared
        self.wakeup = wakeup
        follower = BBTFollower(sampleRate: rate)
        ownFramesPerPulse = rate * 60 / (ownTempo.value * Double(ownMeter.pulsesPerBeat))
    }
}

/// The process cycle, as functions of the context's address (the callback's
/// `void *`), so that nothing on the real-time path copies or retains.
///
/// `@_noLocks @_noAllocation` makes the compiler reject locks, allocation and reference
/// counting in these bodies. Calls it cannot see into (libjack; TactusCore,
/// another module) are exempted one by one with `_unsafePerformance`, and the
/// LD_PRELOAD test (Tests/RTProbe) proves at run time that they do neither.
enum ProcessCycle {
    /// One JACK cycle: read the cycle's time, hand the control input on, render
    /// the engine straight into the port buffers, write the clock events at their
    /// frame offsets.
    @_noLocks @_noAllocation
    static func run(_ context: UnsafeMutablePointer<ProcessContext>, frames: jack_nframes_t) {
        guard let client = context.pointee.client, let ports = context.pointee.ports else { return }
        let sampleRate = context.pointee.engine.sampleRate
        let shared = context.pointee.shared
        let times = RealtimeJack.cycleTimes(client, frames: frames, sampleRate: sampleRate, offset: &context.pointee.rawClockOffset)
        // JACK's DLL-filtered period follows the card's real rate (FrameClockReference).
        let microsecondsPerFrame = times.nextMicroseconds > times.microseconds
            ? Double(times.nextMicroseconds - times.microseconds) / Double(frames)
            : 1_000_000 / Double(sampleRate)
        if let input = RealtimeJack.buffer(ports.control, frames),
           receiveControlInput(context, buffer: input, cycleMicroseconds: times.microseconds, microsecondsPerFrame: microsecondsPerFrame) > 0,
           let wakeup = context.pointee.wakeup {
            // The one call out of the cycle besides libjack's: no lock, a futex
            // wake only while the control thread sleeps (ControlWakeup).
            _unsafePerformance {
                _ = sem_post(wakeup)
                shared.pointee.wakeupsPosted.add(1, ordering: .relaxed)
            }
        }
        let click = RealtimeJack.buffer(ports.click, frames)?.assumingMemoryBound(to: Float.self)
        let feedback = RealtimeJack.buffer(ports.feedback, frames)?.assumingMemoryBound(to: Float.self)
        let clockBuffer = RealtimeJack.buffer(ports.clock, frames)

        if context.pointee.gate.holds(cycleFrame: times.frame) {
            // Not yet connected: silence, and the engine and timeline stay where
            // they are, so the first sounding cycle continues exactly there.
            if let click { for i in 0..<Int(frames) { click[i] = 0 } }
            if let feedback { for i in 0..<Int(frames) { feedback[i] = 0 } }
            if let clockBuffer { RealtimeJack.clear(clockBuffer) }
        } else {
            let start = context.pointee.timeline.frame(forJackFrame: times.frame)
            _unsafePerformance {
                shared.pointee.frameClock.publish(frame: start, microseconds: times.microseconds, microsecondsPerFrame: microsecondsPerFrame)
            }
            // jack2's own times are CLOCK_MONOTONIC_RAW, Link's clock on Linux.
            let host = Double(times.microseconds - context.pointee.rawClockOffset.microseconds)
            // Quitting, the one switch: no source owns anything or gives a
            // position, so the Stop pushed with the flag is the engine's own.
            let quitting = _unsafePerformance { shared.pointee.quitting.load(ordering: .acquiring) }
            let mode = TransportCycleMode.current(shared)
            let owner = quitting ? _unsafePerformance { SourceOwnership.none } : context.pointee.sourceOwnership(mode)
            let position = quitting ? nil : readTransport(context, client: client, frames: frames, jackFrame: UInt32(truncatingIfNeeded: times.frame))
            let wasRunning = _unsafePerformance { context.pointee.control.pointee.status.running.load(ordering: .relaxed) }
            render(context, frames: Int(frames), at: start, host: host, microsecondsPerFrame: microsecondsPerFrame,
                   click: click, feedback: feedback, owner: owner, position: position)
            // Tactus started or stopped: the control thread hands it on to JACK
            // transport now; with Link the session started or stopped it, and the
            // control thread says so now, not at its next round.
            if mode.reads || context.pointee.link != nil, let wakeup = context.pointee.wakeup,
               _unsafePerformance({ context.pointee.control.pointee.status.running.load(ordering: .relaxed) }) != wasRunning {
                _ = _unsafePerformance { sem_post(wakeup) }
            }
            if let clockBuffer {
                sendClock(context, into: clockBuffer, blockStart: start, frames: frames)
            }
            context.pointee.endFrame = start + Int64(frames)
        }
        _unsafePerformance {
            shared.pointee.period.store(Int(frames), ordering: .relaxed)
            shared.pointee.cycles.add(1, ordering: .relaxed)
        }
    }

    /// Renders the block in the engine's two steps, as every host does: the
    /// commands under what the source owns (`Engine.beginBlock`), whose requests
    /// go to the source that owns them, then the block at the source's
    /// position: JACK transport's (`transport`, in follow mode: Start/Stop are
    /// handed to the control thread for `jack_transport_start`/`_stop`, the
    /// tempo is refused), or, with Link, the session's, the requests committed
    /// to it first.
    @_noLocks @_noAllocation
    static func render(_ context: UnsafeMutablePointer<ProcessContext>, frames: Int, at start: Int64, host: Double,
                       microsecondsPerFrame: Double, click: UnsafeMutablePointer<Float>?, feedback: UnsafeMutablePointer<Float>?,
                       owner: SourceOwnership, position transport: TimelinePosition?) {
        _unsafePerformance {
            let shared = context.pointee.shared
            let requests = context.pointee.engine.beginBlock(at: start, owner: owner, control: context.pointee.control.pointee)
            let take = context.pointee.take
            context.pointee.take = nil
            if case .started(let frame)? = take {
                context.pointee.engine.transportStarted(atBar: ownBars(context).bar(atFrame: frame), blockStart: start,
                                                        control: context.pointee.control.pointee)
            }
            var position = transport
            if var link = context.pointee.link, owner.transport {
                let peerChanges = link.peerTempoChanges
                position = link.position(frame: start, frames: frames, hostMicroseconds: host, microsecondsPerFrame: microsecondsPerFrame,
                                         latencyFrames: shared.pointee.clickLatency.load(ordering: .relaxed),
                                         pulsesPerBeat: context.pointee.engine.pulsesPerBeat,
                                         alone: shared.pointee.linkPeers.load(ordering: .relaxed) == 0,
                                         requests: requests)
                context.pointee.link = link
                shared.pointee.linkPhaseMillionths.store(Int(link.phase * 1_000_000), ordering: .relaxed)
                shared.pointee.linkTempoHundredths.store(Int(link.tempo * 100 + 0.5), ordering: .relaxed)
                shared.pointee.linkPeerTempoChanges.store(link.peerTempoChanges, ordering: .releasing)
                // A peer's tempo: the control thread takes it into the pressure controller now.
                if link.peerTempoChanges != peerChanges, let wakeup = context.pointee.wakeup { _ = sem_post(wakeup) }
            } else if owner.transport {
                if let running = requests.running {
                    shared.pointee.lastTransportRequest.store(running, ordering: .relaxed)
                    shared.pointee.transportRequests.add(1, ordering: .releasing)
                    if let wakeup = context.pointee.wakeup { _ = sem_post(wakeup) }
                }
                // The player's tempi the control session sees itself; the engine's own it hears of
                // here, woken to say so now (once a run: the trainer steps at bar lines at the most).
                if requests.enginesOwnTempo {
                    shared.pointee.refusedEngineTempi.add(1, ordering: .relaxed)
                    if let wakeup = context.pointee.wakeup { _ = sem_post(wakeup) }
                }
            }
            context.pointee.engine.render(frames: frames, at: start, control: context.pointee.control.pointee,
                                          click: click, feedback: feedback, events: &context.pointee.events, position: position)
            // Held at its new frame for this cycle: the next one starts there, and the timebase callback publishes it next.
            if case .located(let frame)? = take {
                context.pointee.engine.transportLocated(toBar: ownBars(context).bar(atFrame: frame), atFrame: start + Int64(frames),
                                                        control: context.pointee.control.pointee)
            }
        }
    }

    /// Transport frames and bars at Tactus's tempo and meter as the last render left them (the control thread's `BarFrames`).
    static func ownBars(_ context: UnsafeMutablePointer<ProcessContext>) -> BarFrames {
        let status = context.pointee.control
        return BarFrames(sampleRate: context.pointee.engine.sampleRate,
                         tempo: BPM(hundredths: status.pointee.status.tempoHundredths.load(ordering: .relaxed)),
                         beatsPerBar: status.pointee.status.beatsPerBar.load(ordering: .relaxed))
    }

    /// JACK transport, once a cycle (`jack_transport_query`), in every mode (about
    /// 150 instructions a cycle in `off`, docs/DESIGN.md §13.5), so
    /// that a mode a preset switches to starts from the transport as it is: what
    /// it does goes to the control thread (`JackTransportLink`: start, stop,
    /// locate), woken when it changed and the mode is not `off`; in follow mode
    /// the cycle's position for the engine's time-source seam: the master's BBT
    /// (`BBTFollower`), or without a master the transport frame at Tactus's own tempo.
    @_noLocks @_noAllocation
    static func readTransport(_ context: UnsafeMutablePointer<ProcessContext>, client: OpaquePointer, frames: jack_nframes_t,
                              jackFrame: UInt32) -> TimelinePosition? {
        let shared = context.pointee.shared
        let mode = TransportCycleMode.current(shared)
        var position = jack_position_t()
        let state = RealtimeJack.transportQuery(client, &position)
        let seen = context.pointee.transport.observe(state, frame: position.frame, frames: frames, cycleFrame: jackFrame)
        let rolling = context.pointee.transport.rolling
        let hasBBT = position.valid.rawValue & JackPositionBBT.rawValue != 0
        let wakeup = context.pointee.wakeup
        // join and master (not with Link, whose session owns start and stop): a
        // start, and a locate while rolling, are the engine's in this cycle.
        let takes = mode.reads && !mode.follows && context.pointee.link == nil && !context.pointee.dry
        var take: TransportTake?
        var echo = false
        if takes && seen.changed && rolling {
            take = .started(frame: position.frame)
        } else if takes && seen.located && context.pointee.transport.relocating {
            echo = isEcho(shared, frame: position.frame)
            if !echo { take = .located(frame: position.frame) }
        }
        context.pointee.take = take
        let leftToControl = seen.located && take == nil && !echo
        _unsafePerformance {
            shared.pointee.transportRolling.store(rolling, ordering: .relaxed)
            shared.pointee.transportFrame.store(position.frame, ordering: .relaxed)
            shared.pointee.timebasePresent.store(hasBBT, ordering: .relaxed)
            if leftToControl { shared.pointee.transportLocates.add(1, ordering: .relaxed) }
            if case .located? = take { shared.pointee.transportLocatesTaken.add(1, ordering: .relaxed) }
            if seen.changed || seen.located {
                shared.pointee.transportChangeFrame.store(position.frame, ordering: .relaxed)
                shared.pointee.transportChanges.add(1, ordering: .releasing)
                if mode.reads, let wakeup { _ = sem_post(wakeup) }
            }
        }
        // Not following: a follow a preset switches to later starts its phase afresh.
        guard mode.follows else { context.pointee.follower.reset(); return nil }
        // A new roll starts the phase again; a locate keeps it (a master's map
        // is one of the frame: the line is the same unless the BBT says not,
        // and PipeWire's missed cycles look like locates, docs/DESIGN.md §13.6).
        if seen.changed { context.pointee.follower.reset() }
        if seen.changed || seen.located { context.pointee.follower.lostCount() }
        guard rolling && !context.pointee.dry else {
            return _unsafePerformance { TimelinePosition(rolling: false, songPulse: 0, framesPerPulse: 0) }
        }
        // PipeWire's shim (docs/DESIGN.md §13.6) gives a rolling cycle a transport
        // frame whole periods off the one JACK's frame time puts it at, and the
        // right one again the cycle after: the song goes on from the frame time.
        if let byClock = context.pointee.transport.clockFrame { position.frame = byClock }
        var timeline: TimelinePosition
        if let bbt = context.pointee.follower.position(position, frames: frames, located: seen.located) {
            timeline = bbt
        } else {
            let framesPerPulse = context.pointee.ownFramesPerPulse
            timeline = _unsafePerformance {
                TimelinePosition(rolling: true, songPulse: Double(position.frame) / framesPerPulse, framesPerPulse: framesPerPulse)
            }
        }
        // Held at a locate's new frame for this cycle: that frame is the next cycle's first.
        if context.pointee.transport.relocating && !context.pointee.follower.heldOver { timeline.songPulse -= Double(frames) / timeline.framesPerPulse }
        return timeline
    }

    /// A locate that is no one's to follow: the echo of Tactus's own (the
    /// frame it located the transport to before starting it), or jack2's
    /// reposition after this client released the timebase while rolling (a
    /// period or so back from where it rolled, `JackTransportLink.releaseRepositionFrames`).
    /// Either is taken (cleared) when seen.
    @_noLocks @_noAllocation
    static func isEcho(_ shared: UnsafeMutablePointer<JackShared>, frame: UInt32) -> Bool {
        _unsafePerformance {
            if shared.pointee.ownLocateFrame.compareExchange(expected: Int(frame), desired: -1, ordering: .relaxed).exchanged { return true }
            let released = shared.pointee.releasedAtFrame.exchange(-1, ordering: .relaxed)
            return released >= 0 && abs(Int64(frame) - Int64(released)) <= JackTransportLink.releaseRepositionFrames
        }
    }

    /// The timebase callback's work (`--transport master`): the BBT of the next
    /// cycle's first frame, which this cycle's render ended at, from the engine's
    /// own grid (`Engine.barBeatTick`): the position followers get is the one
    /// Tactus plays, through no second timing path. jack2 calls it right after
    /// this client's process callback, on the same thread, for the next cycle.
    @_noLocks @_noAllocation
    static func publishBarBeatTick(_ context: UnsafeMutablePointer<ProcessContext>, into position: UnsafeMutablePointer<jack_position_t>) {
        let bbt = _unsafePerformance { context.pointee.engine.barBeatTick(atFrame: context.pointee.endFrame) }
        position.pointee.valid = jack_position_bits_t(rawValue: JackPositionBBT.rawValue | JackTickDouble.rawValue)
        position.pointee.bar = bbt.bar
        position.pointee.beat = bbt.beat
        position.pointee.tick = Int32(bbt.tick)
        position.pointee.tick_double = bbt.tick
        position.pointee.bar_start_tick = bbt.barStartTick
        position.pointee.beats_per_bar = Float(bbt.beatsPerBar)
        position.pointee.beat_type = Float(bbt.beatType)
        position.pointee.ticks_per_beat = _unsafePerformance { BarBeatTick.ticksPerBeat }
        position.pointee.beats_per_minute = bbt.beatsPerMinute
        _ = _unsafePerformance { context.pointee.shared.pointee.timebaseCallbacks.add(1, ordering: .relaxed) }
    }

    /// The dry cycle, before `jack_activate`: the whole cycle once on the real
    /// context, into the port buffers of the not yet active client (scratch
    /// memory nobody reads), so the first real cycle runs through code and data
    /// already touched. The engine is stopped, so nothing is lost; the first real
    /// cycle then continues where this one ended.
    static func dryRun(_ context: UnsafeMutablePointer<ProcessContext>, frames: Int) {
        context.pointee.timeline.resume(at: context.pointee.endFrame)
        context.pointee.dry = true
        run(context, frames: jack_nframes_t(frames))
        context.pointee.dry = false
        context.pointee.timeline.resume(at: context.pointee.endFrame)
    }

    /// Each `control` event → typed messages → the control thread's ring,
    /// stamped with the monotonic time of its frame (`jack_frames_to_time`
    /// arithmetic on this cycle's times, without the call). A full ring drops
    /// the event and counts it (`SPSCRing.dropped`): the callback never waits.
    /// What passes is `ControlInputEvent.accepts`, the rule the ALSA input
    /// follows too. Returns how many messages were handed on (or dropped).
    @_noLocks @_noAllocation @discardableResult
    static func receiveControlInput(_ context: UnsafeMutablePointer<ProcessContext>, buffer: UnsafeMutableRawPointer,
                                    cycleMicroseconds: Int64, microsecondsPerFrame: Double) -> Int {
        let shared = context.pointee.shared
        let count = RealtimeJack.midiEventCount(buffer)
        var received = 0
        var index: UInt32 = 0
        while index < count {
            if let event = RealtimeJack.midiEvent(buffer, index), let bytes = event.buffer {
                let microseconds = cycleMicroseconds + Int64(Double(event.time) * microsecondsPerFrame)
                var i = 0
                while i < event.size {
                    let byte = bytes[i]
                    // TactusCore's parser and rule: another module, out of the checker's sight.
                    if let message = _unsafePerformance({ context.pointee.parser.parse(byte) }),
                       _unsafePerformance({ ControlInputEvent.accepts(message) }) {
                        _unsafePerformance {
                            shared.pointee.controlInputReceived.add(1, ordering: .relaxed)
                            shared.pointee.controlInput.push(ControlInputEvent(message: message, microseconds: microseconds))
                        }
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
    @_noLocks @_noAllocation
    static func sendClock(_ context: UnsafeMutablePointer<ProcessContext>, into buffer: UnsafeMutableRawPointer,
                          blockStart: Int64, frames: jack_nframes_t) {
        let shared = context.pointee.shared
        RealtimeJack.clear(buffer)
        let count = _unsafePerformance { context.pointee.events.count }
        var i = 0
        while i < count {
            let event = _unsafePerformance { context.pointee.events[i] }
            let offset = jack_nframes_t(clamping: min(max(0, event.frame - blockStart), Int64(frames) - 1))
            let size = Int(event.bytes.count)
            if let data = RealtimeJack.reserve(buffer, offset, size) {
                data[0] = event.bytes.byte0
                if size > 1 { data[1] = event.bytes.byte1 }
                if size > 2 { data[2] = event.bytes.byte2 }
            } else {
                _ = _unsafePerformance { shared.pointee.clockEventsLost.add(1, ordering: .relaxed) }
            }
            _ = _unsafePerformance { shared.pointee.clockStream?.push(event) }
            i += 1
        }
    }
}
