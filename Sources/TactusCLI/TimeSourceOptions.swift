import TactusCore
import TactusJACK

extension Options {
    /// One time source drives the grid (docs/DESIGN.md §9). `--link` goes with
    /// `--transport master` (and `master-force`: the session published as JACK
    /// BBT), and with `follow` or `--clock-in` (the followed position published
    /// to the session, `LinkBridge`); with `join` it is no row of that table
    /// (both would own start and stop): refused at start, naming both options,
    /// rather than two sources fighting over start and stop.
    func checkTimeSources() throws(OptionError) {
        // `clock_in` exists only with --clock-in: a connection to a port never
        // registered would wait 10 s on every server and then be given up.
        // One clock in: JACK's clock_in or the sequencer's, never both ticking into one follower.
        if clockIn && alsaClockFrom != nil {
            throw OptionError("tactus: --clock-in and --alsa-clock-from cannot be used together: choose one clock input (JACK's clock_in or the ALSA sequencer's)")
        }
        if alsaClockFrom != nil && !useALSA {
            throw OptionError("tactus: --alsa-clock-from and --no-alsa cannot be used together: the clock comes in through the ALSA sequencer")
        }
        if alsaClockFrom != nil && !connectClockIn.isEmpty {
            throw OptionError("tactus: --connect-clock-in connects the JACK clock_in input, which --alsa-clock-from has none of: the clock comes in through the ALSA sequencer")
        }
        if !clockIn && !connectClockIn.isEmpty {
            throw OptionError("tactus: --connect-clock-in connects clock_in, the input --clock-in adds: give --clock-in too")
        }
        // The incoming MIDI clock owns tempo and transport (§9.1): no other source
        // may too. With --link it is published to the session, which owns nothing.
        let clockOption = clockIn ? "--clock-in" : "--alsa-clock-from"
        if followsClock && (transport == .follow || transport == .join) {
            throw OptionError("tactus: \(clockOption) and --transport \(transport.rawValue) cannot be used together: the incoming clock owns start and stop")
        }
        guard linkGiven else { return }
        switch transport {
        case .off, .master, .masterForce, .follow:
            return
        case .join:
            throw OptionError("tactus: --link and --transport join cannot be used together: both would own start and stop (--transport master publishes the Link session as JACK BBT)")
        }
    }

    /// `--link` or one of the options that mean it.
    var linkGiven: Bool { link || linkQuantum != nil || linkStartStop }

    /// The JACK transport mode a preset's `"transport"` switches to, while
    /// `playing` plays: nil when `--transport` pinned the mode, the preset
    /// leaves the key out, or asks for the mode playing. A musician who typed
    /// `--transport` set the studio up for it (a DAW following Tactus's
    /// tempo): a preset made elsewhere must not undo that mid-song. A preset
    /// that says nothing keeps the mode: it is about the song, not the wiring.
    public func transport(of preset: Preset, playing: JackTransportMode) -> JackTransportMode? {
        guard !transportPinned, let mode = preset.transport, mode != playing else { return nil }
        return mode
    }

    /// Why a preset's `"transport"` cannot play with this run, or nil: with
    /// Link only `master` and `master-force` are rows of docs/DESIGN.md §9 (as
    /// at start, `checkTimeSources`).
    public func transportRefusal(_ mode: JackTransportMode) -> String? {
        guard mode == .join || mode == .follow else { return nil }
        if followsClock {
            return "\"transport\": \"\(mode.rawValue)\" cannot be used with \(clockIn ? "--clock-in" : "--alsa-clock-from"): the transport mode stays as it is (the incoming clock owns start and stop)"
        }
        guard linkGiven else { return nil }
        return "\"transport\": \"\(mode.rawValue)\" cannot be used with Link: the transport mode stays as it is (Link goes with off, master or master-force)"
    }

    /// The mode of a run at start: `--transport` wins, then the starting
    /// preset's `"transport"` (`PresetStart.applySettings` has put it in
    /// `transport`), then `controller.json`'s: the studio's wiring, said once
    /// for every run, which a preset made for one song may change.
    public func startTransport(controller: ControllerSettings?, preset: Preset?) -> JackTransportMode {
        guard !transportPinned, preset?.transport == nil, let mode = controller?.transport else { return transport }
        return mode
    }

    /// `controller.json`'s `"transport"` into `transport` at the start of a run
    /// (`startTransport`); with Link, `join` or `follow` is said, naming the
    /// file and field, and the mode stays. A file that does not read is said by
    /// the control session, which reads it for the keys.
    mutating func applyControllerTransport(path: String, preset: Preset?) {
        let mode = startTransport(controller: try? ControllerFile.load(path: path), preset: preset)
        guard mode != transport else { return }
        if let refusal = transportRefusal(mode) { return printError("tactus: \(path): \(refusal)") }
        transport = mode
    }
}

extension Options {
    /// The clock input a file's `"clockIn"` asks for into these options, checked
    /// as at start (`checkTimeSources`): nil when it takes, else why not (the
    /// options are then as they were). `off` takes nothing: Tactus leads.
    mutating func takeClockIn(_ choice: ClockInChoice) -> String? {
        let before = self
        // A conflict of the command line's own is said by the check at start, not blamed on the file.
        var without = self
        without.connectClockIn = []
        guard (try? without.checkTimeSources()) != nil else { return nil }
        switch choice {
        case .off: return nil
        case .jack: clockIn = true
        case .alsa(let port): alsaClockFrom = port
        }
        do throws(OptionError) {
            try checkTimeSources()
            return nil
        } catch {
            self = before
            return "\"clockIn\": \"\(choice.spelling)\" cannot be used with this run: \(error.reason)"
        }
    }

    /// The clock input of a run at start: `--clock-in` or `--alsa-clock-from`
    /// wins, then the starting preset's `"clockIn"` (`off` included:
    /// `PresetStart.applySettings` has taken it), then `controller.json`'s: the
    /// studio's wiring (a drum machine that always leads), which a preset made
    /// for one song may change. Nil: nothing to take.
    public func startClockIn(controller: ControllerSettings?, preset: Preset?) -> ClockInChoice? {
        guard !followsClock, preset?.clockIn == nil, let choice = controller?.clockIn, choice != .off else { return nil }
        return choice
    }

    /// `controller.json`'s `"clockIn"` into these options at the start of a run
    /// (`startClockIn`); one that cannot play with the command line is said,
    /// naming the file and field, and the run starts without it. A file that
    /// does not read is said by the control session, which reads it for the keys.
    mutating func applyControllerClockIn(path: String, preset: Preset?) {
        guard let choice = startClockIn(controller: try? ControllerFile.load(path: path), preset: preset) else { return }
        if let refusal = takeClockIn(choice) { printError("tactus: \(path): clockIn: \(refusal)") }
    }
}

extension Options {
    /// The clock input this run follows, as a file spells it.
    var clockInPlaying: ClockInChoice {
        if clockIn { return .jack }
        return alsaClockFrom.map(ClockInChoice.alsa) ?? .off
    }

    /// What a switch to `preset` says when its `"clockIn"` names another input
    /// than the one playing, or nil: the inputs are made at start (the JACK
    /// port, the sequencer subscription), so a preset's `"clockIn"` is taken at
    /// start only, as `"link"` is, and the grid's source stays what it is.
    public func clockInSwitchRefusal(_ preset: Preset) -> String? {
        guard let choice = preset.clockIn, choice != clockInPlaying else { return nil }
        return "\"clockIn\": \"\(choice.spelling)\" is taken at start only: the clock input stays \"\(clockInPlaying.spelling)\""
    }
}
