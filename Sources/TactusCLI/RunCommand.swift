import TactusALSA
import TactusCore
import TactusJACK

/// `tactus [run] [PORT...]`: Tactus as a JACK client, until SIGINT or SIGTERM.
///
/// The main thread is the control thread: it created the metronome (which
/// blocks SIGINT/SIGTERM before JACK starts its threads), it alone pushes engine
/// commands, and it waits for the signals between its ticks.
public enum RunCommand {
    /// `tempo` and `bar` come from a preset when one was given (they win over the defaults).
    public static func run(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil) -> Int32 {
        var jack: JackRunOptions
        do {
            jack = try jackOptions(options, tempo: tempo, bar: bar)
            _ = try ALSAWiring.options(from: options)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        // The ALSA clock thread reads a copy of every clock event.
        if options.useALSA { jack.clockStreamCapacity = 4096 }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl(tempo: jack.engine.tempo))
        let metronome: JackMetronome
        do {
            metronome = try JackMetronome(options: jack, control: control)
        } catch {
            printError("tactus: \(error)")
            return OptionError.exitStatus
        }
        let shared = SharedPointer(metronome.shared)
        let alsaInput = UnsafeMutablePointer<SPSCRing<ControlInputEvent>>.allocate(capacity: 1)
        alsaInput.initialize(to: SPSCRing(capacity: 4096))
        let clockStream = ClockStreamSource(
            peek: { shared.pointer.pointee.clockStream?.peek() }, pop: { _ = shared.pointer.pointee.clockStream?.pop() },
            isEmpty: { shared.pointer.pointee.clockStream?.peek() == nil }, frameClock: { shared.pointer.pointee.frameClock.read() })
        let alsa: ALSAClient?
        do {
            alsa = try ALSAWiring.start(options, clockStream: clockStream, controlInput: alsaInput)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        let bar = jack.engine.bar
        printError("tactus: \(jack.engine.tempo) BPM, \(bar.meter) \(bar.accents), \(bar.subdivision == .none ? "no subdivision" : bar.subdivision.rawValue)"
                   + (jack.startStopped ? "; stopped, waiting for start" : "") + "; Ctrl-C to quit")
        let status = metronome.run { m in
            // Until the pressure controller is wired in, the control input (JACK
            // `control` and ALSA `control`, one ring each) is drained here so
            // neither ring fills.
            while m.shared.pointee.controlInput.pop() != nil {}
            while alsaInput.pointee.pop() != nil {}
        }
        // The last JACK cycle has pushed its Stop; the ALSA queue delivers it, then stops.
        alsa?.stop()
        return status
    }

    /// The JACK client's settings from the command line.
    static func jackOptions(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil) throws(OptionError) -> JackRunOptions {
        var jack = JackRunOptions()
        jack.clientName = options.clientName
        jack.serverName = options.serverName
        jack.clickConnections = options.arguments
        jack.feedbackConnections = options.connectFeedback.isEmpty ? nil : options.connectFeedback
        jack.clockConnections = options.connectClock
        jack.controlConnections = options.connectControl
        jack.startStopped = options.startStopped
        jack.clockOffsetMilliseconds = options.clockOffsetMilliseconds
        var gains = SoundGains()
        gains.master = options.linearGain
        let settings: BarSettings
        if let bar { settings = bar } else { settings = try options.barSettings() }
        jack.engine = EngineConfiguration(sampleRate: 48_000, tempo: tempo ?? options.tempo ?? BPM(120), bar: settings, gains: gains,
                                          clockWhileStopped: options.clockWhileStopped, sendSongPosition: options.sendSongPosition,
                                          muted: options.mute)
        // User samples: read once now so a bad file is an error at start, and
        // again (resampled) whenever the server's sample rate changes.
        let check = try options.soundSet(sampleRate: 48_000)
        check.deallocate()
        jack.sounds = { rate in
            do { return try options.soundSet(sampleRate: rate) } catch {
                printError("\(error); using the synthesised sounds")
                return SoundSet.synthesized(sampleRate: rate)
            }
        }
        do {
            _ = try jack.clockOffsetFrames(sampleRate: 48_000)
        } catch {
            throw OptionError("tactus: \(error)")
        }
        return jack
    }
}
