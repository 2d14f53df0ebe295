import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// The control thread of the run mode: the pressure controller's loop, the
/// preset list, and the computer keyboard, all on one thread with one tempo
/// writer (docs/DESIGN.md §2.3).
///
/// MIDI from the controller reaches the `ControlLoop` through its input rings;
/// keys from the terminal reach `perform(_:)` through the key reader's ring
/// (`KeyReader`), OSC through `RemoteControl`, all drained by the same thread in
/// the same round, so a key and a MIDI message can never write the tempo at the
/// same time. Whatever the player asks for, from a key, a button, a pedal, OSC
/// or a deep press, is one `PlayerIntent` carried out by `carryOut`, so a tempo
/// goes through `ControlLoop.setTempo` (a pressure hold in progress goes on
/// from it) and the last tempo is kept by one rule (`LastTempo`). This object
/// pushes the engine commands of keys, presets and transport, on the thread
/// that owns the command ring's producer end.
///
/// No I/O and no clock of its own: the caller passes the time, so tests run it
/// in virtual time with a `VirtualClock`.
public final class ControlSession<Clock: ControlClock> {
    public let loop: ControlLoop<Clock>
    let engine: UnsafeMutablePointer<EngineControl>
    public internal(set) var presets: PresetSwitcher?
    public let isSetlist: Bool
    /// The bar last asked of the engine (start, a preset, a beats key).
    public private(set) var bar: BarSettings
    /// The bar before it, still heard until the engine applies the change at its bar line.
    private var previousBar: BarSettings
    /// The number of the bar change that asked for `bar` (`EngineControl.pushBarChange`), 0: none.
    private var barRequest = 0
    /// The tempo heard before the last bar change was asked for: the engine folds
    /// any tempo asked for meanwhile into the pending change, so this is what
    /// plays until its bar line.
    private var previousTempo: BPM
    public internal(set) var muted: Bool
    public private(set) var clockOffsetMilliseconds: Double
    /// The last thing said to the player; gone after `messageSeconds`, at the
    /// next key or the next preset, so an old warning does not read as news.
    public private(set) var message: String?
    /// When `message` goes (nil: no message).
    public private(set) var messageExpires: ControlTime?
    /// How long a message stays on the display.
    public static var messageSeconds: Double { 5 }
    /// Whether a MIDI controller has sent anything yet: until then the display
    /// says "no controller" where the force would be.
    public private(set) var controllerHeard = false
    private let clock: Clock
    /// The beat (from 0) whose accent `a` edits, shown under the beat row once
    /// `<` `>` or `a` was pressed; nil before. Kept within the bar asked for.
    public var beatCursor: Int? { editing.cursor.map { min($0, bar.meter.beatsPerBar - 1) } }
    /// What is typed after `=` (a tempo) or `w` (a preset's name); nil: nothing.
    public var entry: String? { editing.text }
    /// The terminal's own editing: what is typed, the beat cursor.
    var editing = KeyEditing()
    /// Writes a user preset (the caller's I/O); returns what to say: where it went, or why not.
    public var savePreset: (Preset) -> String = { _ in "cannot save presets in this mode" }
    /// The gains the engine plays with; `+` `-` move the master by 1 dB.
    public internal(set) var gains: SoundGains
    /// `q` or Ctrl-C was pressed.
    public internal(set) var quitRequested = false
    var tapTempo = TapTempo()
    /// Called for a preset that was switched to (samples to load: not the engine's job).
    public var presetSwitched: (PresetEntry) -> Void = { _ in }
    /// The run's count-in (`--count-in`, a preset's `countIn`), for the `countIn` action to say.
    public var countIn: CountIn?
    /// The practice tools the display's practice row shows (nil: none), kept up
    /// to date when OSC switches a trainer or gap on or off.
    public var practice: PracticeTools?
    /// `controller.json`'s buttons and pedals, bound while a preset without `actions` plays.
    public var controllerActions: [ActionBinding] = []
    /// Writes the last tempo: called when `LastTempo`'s rule says (a tempo of the
    /// player's that has stood 2 s, and on the way out), never once per press.
    public var saveLastTempo: (BPM) -> Void = { _ in }
    private var lastTempo = LastTempo()
    /// Who owns the tempo when it is not Tactus (`--transport follow`: the JACK
    /// timebase master): the engine drops the player's tempo changes, and the
    /// player is told so once a hold (or a key), the cues going on as ever; the
    /// engine's own tempi refused (`refusedEngineTempi`) are said once a run
    /// (docs/DESIGN.md §13.4).
    public var tempoOwner: String?
    private var ownerTempoSeen: BPM?
    private var saidOwner = false
    /// How many of the engine's own tempi (the trainer's steps, a tempo map's
    /// segments) the time source refused so far (`JackMetronome.refusedEngineTempi`):
    /// they change no key's tempo, so this count is how the session hears of them.
    public var refusedEngineTempi: () -> Int = { 0 }
    private var refusedEngineTempiSeen = 0
    private var saidEngineTempo = false

    /// - Parameters:
    ///   - tempo: the tempo the engine starts with.
    ///   - inputs: the consumer ends of the MIDI input rings (JACK `control`, ALSA `control`).
    ///   - presets: the preset list (nil: no presets, `[` `]` say so).
    public init(configuration: PressureConfiguration, tempo: BPM, engine: UnsafeMutablePointer<EngineControl>,
                inputs: [() -> ControlInputEvent?], clock: Clock, bar: BarSettings, muted: Bool = false,
                clockOffsetMilliseconds: Double = 0, presets: PresetSwitcher? = nil, isSetlist: Bool = false,
                gains: SoundGains = SoundGains()) {
        self.engine = engine
        self.clock = clock
        self.gains = gains
        self.bar = bar
        previousBar = bar
        previousTempo = tempo
        self.muted = muted
        self.clockOffsetMilliseconds = clockOffsetMilliseconds
        self.presets = presets
        self.isSetlist = isSetlist
        var deliver: (ControlReport) -> Void = { _ in }
        loop = ControlLoop(configuration: configuration, tempo: tempo, engine: engine, sources: inputs, clock: clock) { deliver($0) }
        deliver = { [unowned self] report in self.handle(report) }
    }

    /// One round of the control thread: the keys that arrived, then the MIDI
    /// inputs and the controller's timeline. Returns the controller's next deadline.
    @discardableResult
    public func poll(keys: [TimedKeyAction] = []) -> ControlTime? {
        for key in keys { perform(key) }
        if let expires = messageExpires, clock.now() >= expires { clearMessage() }
        // A preset whose samples were being read switches once they are.
        if let outcome = presets?.poll(control: engine.pointee) { apply(outcome) }
        let next = loop.poll()
        if loop.lastPollInputs > 0 { controllerHeard = true }
        sayTempoRefused()
        if let tempo = lastTempo.due(at: clock.now()) { saveLastTempo(tempo) }
        return ControlTime.earliest(next, lastTempo.deadline)
    }

    /// While another owns the tempo (`tempoOwner`): a tempo the player's keys or
    /// pressure moved is said once a hold (or a key), one the engine itself set
    /// and the source refused once a run.
    private func sayTempoRefused() {
        let refused = refusedEngineTempi()
        defer {
            ownerTempoSeen = loop.tempo
            refusedEngineTempiSeen = refused
        }
        guard let owner = tempoOwner else { return }
        if let seen = ownerTempoSeen, seen != loop.tempo, !saidOwner {
            say("the tempo is \(owner)'s: keys and pressure do not change it while following")
            saidOwner = true
        } else if refused != refusedEngineTempiSeen, !saidEngineTempo {
            say("the tempo is \(owner)'s: the trainer's and a tempo map's steps do not change it while following")
            saidEngineTempo = true
        }
    }

    /// On the way out: the last tempo written if it has not settled yet.
    public func finish() {
        if let tempo = lastTempo.flush() { saveLastTempo(tempo) }
    }

    /// Every tempo the player asks for (`carryOut`): to the one tempo writer, and
    /// to the last tempo's rule (docs/DESIGN.md §5.7). While another owns the
    /// tempo, the player is told so again.
    func setTempo(_ tempo: BPM, by intent: PlayerIntent, from source: IntentSource) {
        saidOwner = false
        loop.setTempo(tempo)
        lastTempo.set(tempo, by: intent, from: source, at: clock.now())
    }

    // MARK: - Reports of the control loop

    private func handle(_ report: ControlReport) {
        switch report {
        case .nextPreset:
            // The deep press (docs/DESIGN.md §5.8).
            if let refusal = carryOut(.nextPreset, from: .controller, at: clock.now().microseconds) { say(refusal) }
        case .programChange(_, let program):
            guard var switcher = presets else { break }
            let outcome = switcher.programChange(program, control: engine.pointee)
            presets = switcher
            apply(outcome)
        case .transport(let transport):
            let intent: PlayerIntent = switch transport {
            case .start: .start
            case .stop: .stop
            case .continue: .continue
            }
            if let refusal = carryOut(intent, from: .controller, at: clock.now().microseconds) { say(refusal) }
        case .lastTempo(let tempo):
            saidOwner = false
            lastTempo.holdEnded(at: tempo, time: clock.now())
        case .message(let text):
            say(text)
        case .action(let action, let time, let trigger):
            if let refusal = carryOut(action.intent, from: .action(trigger), at: time.microseconds) { say(refusal) }
        case .cue, .status:
            break
        }
    }

    func apply(_ outcome: PresetSwitcher.Outcome) {
        switch outcome {
        case .switched(let entry):
            clearMessage()
            requested(entry.preset.bar, point: presets?.switchPoint ?? .nextBar)
            loop.setTempo(entry.preset.tempo, alreadySent: true)
            clockOffsetMilliseconds = entry.preset.clock.offsetMilliseconds
            gains = entry.preset.sounds.gains
            gains.master = presets?.masterGain ?? 1
            loop.setConfiguration(entry.preset.pressure)
            bindActions(of: entry.preset)
            presetSwitched(entry)
        case .refused(let error):
            say("preset refused, \(presets?.current?.preset.name ?? "the current setting") keeps playing: \(error.messages.first ?? "\(error)")")
        case .ignored(let reason):
            say(reason)
        case .loading(let entry):
            say("reading the samples of \(entry.preset.name); \(presets?.current?.preset.name ?? "the current setting") plays until they are read")
        }
    }

    /// Call before the tempo of the change is set: the tempo heard is kept until its bar line.
    func requested(_ settings: BarSettings, point: SwitchPoint = .nextBar) {
        previousBar = heardBar
        previousTempo = heardTempo
        bar = settings
        barRequest = engine.pointee.barRequestsPushed.load(ordering: .relaxed)
        requestPoint = point
    }

    private var requestPoint = SwitchPoint.nextBar

    /// Whether a bar change asked for still waits for its bar line (or beat).
    public var changePending: Bool {
        barRequest > 0 && engine.pointee.status.running.load(ordering: .acquiring)
            && engine.pointee.status.barRequestApplied.load(ordering: .acquiring) < barRequest
    }

    /// The bar the engine plays now: a change asked for while running lands at
    /// the next bar line (or beat), and the display follows the ear, not the key.
    public var heardBar: BarSettings {
        changePending ? previousBar : bar
    }

    /// The tempo the engine plays now: a preset's tempo comes with its bar
    /// change, at its bar line (`EngineCommand.changeBar`); until then the old one.
    public var heardTempo: BPM {
        changePending ? previousTempo : loop.tempo
    }

    /// The change asked for and not yet heard, with the bar it lands on (the
    /// engine's bar of the last beat + 1; nil bar: the next beat, `--switch now`).
    public var pending: PendingChange? {
        guard changePending else { return nil }
        let tempo = loop.tempo != previousTempo ? loop.tempo : nil
        let meter = bar.meter != previousBar.meter ? bar.meter : nil
        let accents = meter == nil && bar.accents != previousBar.accents ? bar.accents : nil
        guard tempo != nil || meter != nil || accents != nil else { return nil }
        let at: Int? = switch requestPoint {
        case .nextBar: engine.pointee.status.bar.load(ordering: .acquiring) + 1
        case .nextBeat: nil
        }
        return PendingChange(tempo: tempo, meter: meter, accents: accents, bar: at)
    }

    /// Replaces the message line.
    public func say(_ text: String) {
        message = text
        messageExpires = clock.now() + Int64(Self.messageSeconds * 1_000_000)
    }

    func clearMessage() {
        message = nil
        messageExpires = nil
    }

    /// Where the current preset stands in the list, for the display.
    public var presetPosition: PresetPosition? {
        guard let presets, let current = presets.current else { return nil }
        return PresetPosition(name: current.preset.name, index: presets.currentIndex,
                              count: presets.library.entries.count, isSetlist: isSetlist)
    }
}
