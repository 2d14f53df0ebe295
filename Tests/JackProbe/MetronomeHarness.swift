#if canImport(Glibc)
import Glibc
#endif
import TactusCore
import TactusJACK

/// Runs `JackMetronome`, the same client `tactus` runs, with a scripted control
/// thread (`JackControlThread`, on a `ControlLoop`, as `tactus run`): tempo
/// changes on a schedule through the loop, transport commands, and a consumer
/// that drains the control input (counting it) as the pressure controller
/// would; with `--pressure`, the pressure controller itself (`ControlLoop`,
/// default settings, woken by the input and its own deadlines) reads it.
enum MetronomeHarness {
    static func main(_ args: inout Arguments) -> Int32 {
        var options = JackRunOptions()
        options.clientName = args.value("-n", "--name") ?? "tactus"
        options.serverName = args.value("-s", "--server")
        let bpm = BPM(Double(args.value("--bpm") ?? "120") ?? 120)
        var bar = BarSettings()
        if let m = args.value("--meter") { guard let meter = Meter(m) else { fail("bad meter \(m)") }; bar = BarSettings(meter: meter) }
        if let s = args.value("--subdivision") { guard let sub = Subdivision(rawValue: s) else { fail("bad subdivision \(s)") }; bar.subdivision = sub }
        options.engine = EngineConfiguration(sampleRate: 48000, tempo: bpm, bar: bar)
        // `--sync-out KIND [--sync-reset bar]`: the sync ports, as `tactus run --sync-out` (docs/DESIGN.md §14).
        if let kind = args.value("--sync-out") {
            guard let k = SyncKind(parsing: kind) else { fail("bad --sync-out \(kind)") }
            options.engine.sync = SyncSettings(kind: k, reset: args.value("--sync-reset") == "bar" ? .bar : .off)
        }
        options.syncConnections = args.values("--connect-sync")
        options.syncRunConnections = args.values("--connect-sync-run")
        options.startStopped = args.flag("--start-stopped")
        if let t = args.value("--transport") {
            guard let mode = JackTransportMode(rawValue: t) else { fail("bad --transport \(t)") }
            options.transport = mode
        }
        options.clockOffsetMilliseconds = Double(args.value("--clock-offset") ?? "0") ?? 0
        // `--align`: the outputs aligned on their paths' playback latencies, as `tactus run`'s default (docs/DESIGN.md §3.8).
        options.align = args.flag("--align")
        options.clockConnections = args.values("--connect-clock")
        // The copy of the clock for the ALSA output thread (drained here, as that thread would).
        if args.flag("--clock-stream") { options.clockStreamCapacity = 4096 }
        options.controlConnections = args.values("--connect-control")
        let feedback = args.values("--connect-feedback")
        if !feedback.isEmpty { options.feedbackConnections = feedback }
        let pressure = args.flag("--pressure")
        let firstTime = args.flag("--first-time")
        let sweep = args.value("--tempo-sweep").map(parseSweep)
        let tempoAt = args.values("--tempo-at").map(parseAt).sorted { $0.0 < $1.0 }
        let transportAt = args.values("--transport-at").map(parseTransport).sorted { $0.time < $1.time }
        let eventsPath = args.value("--events")
        if args.flag("--link") { options.link = LinkRunOptions(sharesStartStop: args.flag("--link-start-stop")) }
        options.clockIn = args.flag("--clock-in")
        options.clickConnections = args.positionals

        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        let metronome: JackMetronome
        ProcessPolicy.apply()
        do { metronome = try JackMetronome(options: options, control: control) } catch { fail("\(error)") }

        let started = ProbeClient.monotonicMicroseconds()
        var log: [String] = []
        var nextSweep = started
        var sweepIndex = 0
        var tempoIndex = 0
        var transportIndex = 0
        var received = 0
        var firstTimeScript = FirstTimeStep.script
        let shared = metronome.shared
        // The one tempo writer, as in `tactus run`; it reads the control input only with --pressure.
        let loop = ControlLoop(configuration: PressureConfiguration(), tempo: bpm, engine: control,
                               sources: pressure ? [{ shared.pointee.controlInput.pop() }] : [], clock: MonotonicClock()) { report in
            if case .status = report { return }
            log.append("pressure \(report)")
        }
        let status = JackControlThread.run(loop, metronome: metronome) {
            let m = metronome
            let deadline = loop.poll()
            if !pressure {
                while m.shared.pointee.controlInput.pop() != nil { received += 1 }
            }
            while m.shared.pointee.clockStream?.pop() != nil {}
            let now = ProbeClient.monotonicMicroseconds()
            if let sweep, now >= nextSweep {
                nextSweep += Int64(sweep.milliseconds) * 1000
                loop.setTempo(sweep.tempos[sweepIndex % sweep.tempos.count])
                sweepIndex += 1
            }
            while tempoIndex < tempoAt.count, now - started >= Int64(tempoAt[tempoIndex].0 * 1e6) {
                let tempo = tempoAt[tempoIndex].1
                loop.setTempo(tempo)
                log.append("tempo \(tempo) jack-frame \(m.jackFrameTime.map(String.init) ?? "none")")
                tempoIndex += 1
            }
            if firstTime, let step = firstTimeScript.first, now - started >= step.microseconds {
                firstTimeScript.removeFirst()
                step.run(m, loop)
                log.append("first-time \(step.word) jack-frame \(m.jackFrameTime.map(String.init) ?? "none")")
            }
            while transportIndex < transportAt.count, now - started >= Int64(transportAt[transportIndex].time * 1e6) {
                m.control.pointee.commands.push(transportAt[transportIndex].command)
                log.append("transport \(transportAt[transportIndex].word) jack-frame \(m.jackFrameTime.map(String.init) ?? "none")")
                transportIndex += 1
            }
            // The scripted changes fall due by themselves; the clock copy is drained
            // at least every 50 ms (as the ALSA output thread would), so its ring never fills.
            var next = ControlTime.earliest(deadline, sweep == nil ? nil : ControlTime(microseconds: nextSweep))
            if tempoIndex < tempoAt.count { next = ControlTime.earliest(next, ControlTime(microseconds: started + Int64(tempoAt[tempoIndex].0 * 1e6))) }
            if transportIndex < transportAt.count {
                next = ControlTime.earliest(next, ControlTime(microseconds: started + Int64(transportAt[transportIndex].time * 1e6)))
            }
            if m.shared.pointee.clockStream != nil { next = ControlTime.earliest(next, ControlTime(microseconds: now + 50_000)) }
            if firstTime, let step = firstTimeScript.first { next = ControlTime.earliest(next, ControlTime(microseconds: started + step.microseconds)) }
            return next
        }
        log.append("control-input received \(received) dropped \(metronome.shared.pointee.controlInput.dropped.load(ordering: .relaxed))")
        log.append("tempo-changes \(sweepIndex + tempoIndex)")
        log.append("bar-requests-applied \(control.pointee.status.barRequestApplied.load(ordering: .relaxed)) tempo \(BPM(hundredths: control.pointee.status.tempoHundredths.load(ordering: .relaxed)))")
        log.append("clicks-played \(control.pointee.status.clicksPlayed.load(ordering: .relaxed)) clocks-sent \(control.pointee.status.clocksSent.load(ordering: .relaxed))")
        log.append("wakeups-posted \(metronome.shared.pointee.wakeupsPosted.load(ordering: .relaxed))")
        log.append("transport-locates-taken \(metronome.shared.pointee.transportLocatesTaken.load(ordering: .relaxed))")
        if let link = metronome.link {
            let counts = link.callbackCounts
            log.append("link peers \(link.peers) tempo-callbacks \(counts.tempo) peer-tempo-changes \(metronome.shared.pointee.linkPeerTempoChanges.load(ordering: .relaxed))")
            log.append("link-session-commits \(metronome.shared.pointee.linkSessionCommits.load(ordering: .relaxed))")
        }
        log.append("clock-events-lost \(metronome.shared.pointee.clockEventsLost.load(ordering: .relaxed))")
        if let eventsPath { writeFile(eventsPath, log.joined(separator: "\n") + "\n") }
        return status
    }

    static func parseSweep(_ text: String) -> (milliseconds: Int, tempos: [BPM]) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let ms = Int(parts[0]) else { fail("--tempo-sweep MS:BPM,BPM.. not \(text)") }
        return (ms, parts[1].split(separator: ",").map { BPM(Double($0) ?? 120) })
    }

    static func parseAt(_ text: String) -> (Double, BPM) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let t = Double(parts[0]), let b = Double(parts[1]) else { fail("--tempo-at SEC:BPM not \(text)") }
        return (t, BPM(b))
    }

    static func parseTransport(_ text: String) -> (time: Double, command: EngineCommand, word: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let t = Double(parts[0]) else { fail("--transport-at SEC:start|stop|continue|locate=BAR not \(text)") }
        let word = String(parts[1])
        switch word {
        case "start": return (t, .start, word)
        case "stop": return (t, .stop, word)
        case "continue": return (t, .continue, word)
        default:
            guard word.hasPrefix("locate="), let bar = Int32(word.dropFirst(7)) else { fail("bad transport command \(word)") }
            return (t, .locate(bar: bar), word)
        }
    }
}

/// `--first-time`: every path of the engine taken for the first time on the
/// running client (nothing warms the engine before activation but the one dry
/// cycle): a tempo ramp, a preset switch with its own sounds, gains and tempo on
/// the next bar line, a locate, a meter change on the next beat, then every
/// other kind of `EngineCommand` once.
struct FirstTimeStep {
    var microseconds: Int64
    var word: String
    var run: (JackMetronome, ControlLoop<MonotonicClock>) -> Void

    static var script: [FirstTimeStep] {
        var steps: [FirstTimeStep] = []
        // The ramp: 20 steps of 50 ms from 1 s, 120 → 310 BPM (across the 300 BPM subdivision rule).
        for k in 0..<20 {
            steps.append(FirstTimeStep(microseconds: 1_000_000 + Int64(k) * 50_000, word: "tempo \(120 + 10 * k)") { _, loop in
                loop.setTempo(BPM(Double(120 + 10 * k)))
            })
        }
        steps.append(FirstTimeStep(microseconds: 2_500_000, word: "preset 7/8 triplets 133 BPM with sounds and gains") { m, loop in
            var gains = SoundGains()
            gains.accent = 0.5
            let sounds = SoundSet.synthesized(sampleRate: m.sampleRate)
            let bar = BarSettings(meter: Meter(beatsPerBar: 7, beatUnit: 8)!, accents: AccentPattern("X.x.x..")!, subdivision: .triplets)
            if m.control.pointee.pushBarChange(bar, tempo: BPM(133), at: .nextBar, sounds: sounds, gains: gains) {
                loop.setTempo(BPM(133), alreadySent: true)
            } else {
                sounds.deallocate()
            }
        })
        steps.append(FirstTimeStep(microseconds: 4_500_000, word: "locate 3") { m, _ in
            m.control.pointee.commands.push(.locate(bar: 3))
        })
        steps.append(FirstTimeStep(microseconds: 5_500_000, word: "meter 5/4") { m, _ in
            _ = m.control.pointee.pushBarChange(BarSettings(meter: Meter(beatsPerBar: 5, beatUnit: 4)!), tempo: nil, at: .nextBeat)
        })
        // Every other kind of command, once each, while running and stopped.
        let others: [(Int64, String, EngineCommand)] = [
            (6_000_000, "feedback notes on", .setFeedbackNotes(.standard)), (6_100_000, "cue impact", .cue(.impact)),
            (6_200_000, "mute", .setMuted(true)), (6_300_000, "unmute", .setMuted(false)),
            (6_400_000, "gains", .setGains(SoundGains(accent: 0.8))), (6_500_000, "clock offset +480", .setClockOffset(frames: 480)),
            (6_600_000, "alignment", .setAlignment(OutputShifts(click: 0, clock: 384, sync: 512))),
            (6_700_000, "clock offset -360", .setClockOffset(frames: -360)), (7_000_000, "stop", .stop),
            (7_200_000, "clock while stopped", .setClockWhileStopped(true)), (7_400_000, "no song position", .setSongPositionEnabled(false)),
            (7_600_000, "continue", .continue), (8_000_000, "locate 2 running", .locate(bar: 2)),
        ]
        for (t, word, command) in others {
            steps.append(FirstTimeStep(microseconds: t, word: word) { m, _ in m.control.pointee.commands.push(command) })
        }
        steps.append(FirstTimeStep(microseconds: 8_200_000, word: "replace sounds") { m, _ in
            let sounds = SoundSet.synthesized(sampleRate: m.sampleRate)
            if !m.control.pointee.commands.push(.replaceSounds(sounds)) { sounds.deallocate() }
        })
        return steps
    }
}
