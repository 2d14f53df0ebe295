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
        let jack: JackRunOptions
        do {
            jack = try jackOptions(options, tempo: tempo, bar: bar)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl(tempo: jack.engine.tempo))
        let metronome: JackMetronome
        do {
            metronome = try JackMetronome(options: jack, control: control)
        } catch {
            printError("tactus: \(error)")
            return OptionError.exitStatus
        }
        let bar = jack.engine.bar
        printError("tactus: \(jack.engine.tempo) BPM, \(bar.meter) \(bar.accents), \(bar.subdivision == .none ? "no subdivision" : bar.subdivision.rawValue)"
                   + (jack.startStopped ? "; stopped, waiting for start" : "") + "; Ctrl-C to quit")
        return metronome.run { m in
            // Until the pressure controller is wired in, the control input is
            // drained here so the ring never fills.
            while m.shared.pointee.controlInput.pop() != nil {}
        }
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
        jack.engine = EngineConfiguration(sampleRate: 48_000, tempo: tempo ?? options.tempo ?? BPM(120), bar: try bar ?? options.barSettings(), gains: gains,
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
