import CLV2
import TactusCore

/// run(), as functions of the context's address (the LV2_Handle), so nothing
/// on the real-time path copies or retains.
///
/// One cycle: the control ports become engine commands; the `control` input's
/// events are taken in frame order, and the block is rendered in pieces split
/// at every one of them (a `time:Position` mid-block moves the grid from its
/// own frame) and at every pressure-control deadline (a force step lands on its
/// frame, as the JACK client's control thread lands it on its microsecond).
enum PluginCycle {
    static func run(_ context: UnsafeMutablePointer<PluginContext>, frames: Int) {
        let ports = context.pointee.ports
        applySettings(context, PluginSettings(ports))
        beginOutput(context)

        var offset = 0
        if let input = ports.control {
            var event = tactus_lv2_sequence_begin(input)
            while let e = event, !tactus_lv2_sequence_is_end(input, e) {
                let at = min(max(Int(e.pointee.time.frames), offset), frames)
                render(context, from: offset, to: at)
                offset = at
                receive(context, e, atFrame: context.pointee.frame + Int64(at))
                event = tactus_lv2_sequence_next(e)
            }
        }
        render(context, from: offset, to: frames)
        context.pointee.frame += Int64(frames)
        publish(context)
    }

    // MARK: - Rendering

    /// Renders block frames `from..<to`, split at the pressure controller's deadlines.
    static func render(_ context: UnsafeMutablePointer<PluginContext>, from: Int, to: Int) {
        var offset = from
        while offset < to {
            var end = to
            if let deadline = context.pointee.pressure.nextDeadline {
                let at = Int(max(context.pointee.firstFrame(at: deadline) - context.pointee.frame, Int64(offset)))
                if at <= offset {
                    advancePressure(context, to: deadline)
                    continue
                }
                end = min(end, at)
            }
            renderPiece(context, from: offset, frames: end - offset)
            offset = end
        }
    }

    static func renderPiece(_ context: UnsafeMutablePointer<PluginContext>, from offset: Int, frames: Int) {
        let ports = context.pointee.ports
        let start = context.pointee.frame + Int64(offset)
        let followsHost = context.pointee.applied?.followsHost ?? true
        let position: TimelinePosition? = followsHost ? context.pointee.host.position(at: start) : nil
        // In host sync the host owns the tempo: the player's is refused (the host
        // takes no requests); start and stop are the host's rolling.
        var source = GivenPosition(position)
        let input = CycleInput(start: start, frames: frames, owner: SourceOwnership(tempo: followsHost))
        context.pointee.engine.cycle(input, source: &source, control: context.pointee.control.pointee,
                                     click: ports.click.map { $0 + offset }, feedback: ports.feedback.map { $0 + offset },
                                     events: &context.pointee.events)
        let blockStart = context.pointee.frame
        let count = context.pointee.events.count
        var i = 0
        while i < count {
            let event = context.pointee.events[i]
            write(context, event.bytes, atFrame: event.frame - blockStart)
            i += 1
        }
    }

    // MARK: - Input

    static func receive(_ context: UnsafeMutablePointer<PluginContext>, _ event: UnsafePointer<LV2_Atom_Event>, atFrame frame: Int64) {
        let urids = context.pointee.urids
        let type = event.pointee.body.type
        if type == urids.midi_MidiEvent {
            let bytes = tactus_lv2_event_body(event)!
            let size = Int(event.pointee.body.size)
            let time = context.pointee.controlTime(atFrame: frame)
            var i = 0
            while i < size {
                // Only the controller's channel messages; a clock or Start/Stop here is not for it.
                if let message = context.pointee.parser.parse(bytes[i]), let channel = message.channel {
                    if case .programChange(_, let program) = message {
                        // Program Change on the control channel picks a preset (docs/DESIGN.md §6).
                        if context.pointee.pressure.configuration.listens(to: channel) {
                            advancePressure(context, to: time)
                            switchPreset(context, to: context.pointee.presets.index(forProgram: program))
                        }
                    } else {
                        context.pointee.pressure.handle(message, at: time) { take($0.effect, context) }
                    }
                }
                i += 1
            }
        } else {
            var update = TactusHostTime()
            let isPosition = tactus_lv2_read_position(tactus_lv2_event_atom(event), &context.pointee.urids, &update)
            if isPosition { receivePosition(context, update, atFrame: frame) }
        }
    }

    static func receivePosition(_ context: UnsafeMutablePointer<PluginContext>, _ update: TactusHostTime, atFrame frame: Int64) {
        context.pointee.host.receive(update, atFrame: frame)
        guard let settings = context.pointee.applied, settings.followsHost,
              let meter = context.pointee.host.meter(context.pointee.meters) else { return }
        let bar = playing(context, meter: meter)
        guard let line = context.pointee.host.barLine else {
            // A host that gives no bar: its meter from the next bar line.
            guard meter != context.pointee.hostMeter else { return }
            context.pointee.hostMeter = meter
            push(context, .changeBar(bar, tempo: nil, at: .nextBar))
            return
        }
        if meter == context.pointee.hostMeter, let last = context.pointee.hostBarLine,
           last.continues(to: line, pulsesPerBar: context.pointee.host.pulsesPerBar) { return }
        // A new meter, or bars the engine does not count: beat 1 where the host's
        // bar starts, which may be behind us (a meter change is told in the cycle
        // after its bar line, docs/DESIGN.md §8.5).
        context.pointee.hostMeter = meter
        context.pointee.hostBarLine = line
        let number = Int32(clamping: line.bar + 1)
        push(context, .anchorBar(bar, atSongPulse: Int64(line.songPulse.rounded()), bar: number))
    }

    static func advancePressure(_ context: UnsafeMutablePointer<PluginContext>, to time: ControlTime) {
        context.pointee.pressure.advance(to: time) { take($0.effect, context) }
    }

    /// What pressure control decided: a tempo (the engine's in free mode; the
    /// host owns it in host sync and the engine drops it), a feedback cue, the
    /// deep press's next preset.
    static func take(_ effect: PressureEffect, _ context: UnsafeMutablePointer<PluginContext>) {
        switch effect {
        case .tempo(let tempo):
            push(context, .setTempo(tempo))
            if !(context.pointee.applied?.followsHost ?? true) {
                context.pointee.tempoReached.store(tempo.hundredths, ordering: .relaxed)
            }
        case .cue(let sound):
            push(context, .cue(sound))
        case .nextPreset:
            switchPreset(context, to: context.pointee.presets.index(after: Int(context.pointee.presetIndex.load(ordering: .relaxed))))
        case .holdEnded, .stuckKeyReleased:
            break
        }
    }

    static func push(_ context: UnsafeMutablePointer<PluginContext>, _ command: EngineCommand) {
        context.pointee.control.pointee.commands.push(command)
    }

    // MARK: - Presets

    /// The preset at list position `index` (-1 or past the list: none), as the
    /// command line switches: its bar, tempo and gains at the next bar line in
    /// one bar change (docs/DESIGN.md §3.4), its pressure settings at once under
    /// the ports' keys and mode. In host sync the host keeps its tempo and meter.
    static func switchPreset(_ context: UnsafeMutablePointer<PluginContext>, to index: Int) {
        guard index >= 0, index < context.pointee.presets.count, let settings = context.pointee.applied else { return }
        let preset = context.pointee.presets.entries[index]
        context.pointee.presetIndex.store(Int32(index), ordering: .relaxed)
        context.pointee.playing = preset.bar
        context.pointee.playingGains = preset.gains
        context.pointee.pressureBase = preset.pressure
        context.pointee.pressure.setConfiguration(settings.pressure(over: preset.pressure))
        let gains = gains(context, settings)
        if settings.followsHost {
            push(context, .changeBar(playing(context, meter: context.pointee.hostMeter), tempo: nil, at: .nextBar, gains: gains))
        } else {
            setFreeTempo(context, preset.tempo, push: false)
            push(context, .changeBar(preset.bar, tempo: preset.tempo, at: .nextBar, gains: gains))
        }
    }

    /// The bar playing, under `meter` (the host's) when given: its accents on
    /// the first beat as the bar has it, its subdivision and pulse kept.
    static func playing(_ context: UnsafeMutablePointer<PluginContext>, meter: Meter?) -> BarSettings {
        let bar = context.pointee.playing
        guard let meter, meter != bar.meter else { return bar }
        var accents = AccentPattern.standard(beats: meter.beatsPerBar)
        accents[0] = bar.accents[0]
        var hosted = BarSettings(meter: meter, accents: accents, subdivision: bar.subdivision, pulse: bar.pulse)
        hosted.swingRatio = bar.swingRatio
        return hosted
    }

    /// The gains playing (the preset's, or the defaults) under the `gain` port's level.
    static func gains(_ context: UnsafeMutablePointer<PluginContext>, _ settings: PluginSettings) -> SoundGains {
        var gains = context.pointee.playingGains
        gains.master = settings.gains.master
        return gains
    }

    // MARK: - Settings

    /// Turns what changed on the control ports into engine commands (in order,
    /// through the engine's command ring, as the control thread does).
    static func applySettings(_ context: UnsafeMutablePointer<PluginContext>, _ new: PluginSettings) {
        let old = context.pointee.applied
        context.pointee.applied = new
        let restored = context.pointee.restoredTempo.exchange(0, ordering: .relaxed)
        let restoredPreset = Int(context.pointee.restoredPreset.exchange(-1, ordering: .relaxed))
        guard let old else {
            // First cycle: the ports as they are; the state's preset over them, and its tempo over both.
            context.pointee.playing = new.bar(context.pointee.meters)
            push(context, .changeBar(context.pointee.playing, tempo: new.tempo, at: .nextBar))
            push(context, .setGains(new.gains))
            context.pointee.pressure.setConfiguration(new.pressure(over: context.pointee.pressureBase))
            setFreeTempo(context, new.tempo, push: false)
            switchPreset(context, to: restoredPreset)
            if restored > 0 { setFreeTempo(context, BPM(hundredths: restored), push: true) }
            if !new.followsHost { push(context, .start) }
            return
        }
        switchPreset(context, to: restoredPreset)
        if restored > 0 { setFreeTempo(context, BPM(hundredths: restored), push: true) }
        if new.tempo != old.tempo { setFreeTempo(context, new.tempo, push: true) }
        if new.followsHost != old.followsHost {
            context.pointee.hostMeter = nil
            context.pointee.hostBarLine = nil
            if !new.followsHost {
                // Own time again: on at the tempo reached, from where the host left the song.
                setFreeTempo(context, BPM(hundredths: context.pointee.tempoReached.load(ordering: .relaxed)), push: true)
                push(context, .changeBar(context.pointee.playing, tempo: nil, at: .nextBar))
                push(context, .continue)
            }
        }
        if new.barDiffers(from: old) {
            // The ports' bar again, over a preset's.
            context.pointee.playing = new.bar(context.pointee.meters)
            push(context, .changeBar(playing(context, meter: new.followsHost ? context.pointee.hostMeter : nil), tempo: nil, at: .nextBar))
        }
        if new.gainDecibels != old.gainDecibels { push(context, .setGains(gains(context, new))) }
        if new.pressureDiffers(from: old) {
            context.pointee.pressure.setConfiguration(new.pressure(over: context.pointee.pressureBase))
        }
    }

    static func setFreeTempo(_ context: UnsafeMutablePointer<PluginContext>, _ tempo: BPM, push pushing: Bool) {
        context.pointee.pressure.setTempo(tempo)
        context.pointee.tempoReached.store(tempo.hundredths, ordering: .relaxed)
        if pushing { push(context, .setTempo(tempo)) }
    }

    // MARK: - Output

    static func beginOutput(_ context: UnsafeMutablePointer<PluginContext>) {
        guard let out = context.pointee.ports.midiOut else { return }
        // The host gives the buffer's capacity in the sequence's size (LV2 atom: output ports).
        context.pointee.outputCapacity = out.pointee.atom.size
        context.pointee.lastOutputFrame = 0
        tactus_lv2_sequence_clear(out, context.pointee.outputCapacity, context.pointee.urids.atom_Sequence)
    }

    static func write(_ context: UnsafeMutablePointer<PluginContext>, _ bytes: MIDIBytes, atFrame offset: Int64) {
        guard let out = context.pointee.ports.midiOut else { return }
        // Events in time order, none before the block (a late one goes at its first frame).
        let at = max(offset, context.pointee.lastOutputFrame)
        context.pointee.lastOutputFrame = at
        var data = (bytes.byte0, bytes.byte1, bytes.byte2)
        let size = UInt32(bytes.count)
        let capacity = context.pointee.outputCapacity
        let type = context.pointee.urids.midi_MidiEvent
        _ = withUnsafeBytes(of: &data) { tactus_lv2_sequence_append(out, capacity, at, type, $0.baseAddress, size) }
    }

    static func publish(_ context: UnsafeMutablePointer<PluginContext>) {
        let ports = context.pointee.ports
        let status = context.pointee.control
        ports.write(.tempoOut, Float(status.pointee.status.tempoHundredths.load(ordering: .relaxed)) / 100)
        ports.write(.bar, Float(status.pointee.status.bar.load(ordering: .relaxed)))
        ports.write(.beat, Float(status.pointee.status.beat.load(ordering: .relaxed)))
        ports.write(.force, Float(context.pointee.pressure.status.force))
    }
}
