/// What the player asks for, whichever way the request came: a key of the
/// terminal, a button or pedal bound in `controller.json` (`ControlAction`), an
/// OSC message (`RemoteCommand`), or the controller itself (a deep press on the
/// preset key, MIDI Start/Stop/Continue). One value for one wish, carried out
/// by one function on the control thread (`ControlSession.carryOut`), so a
/// wish does the same whatever asked for it (docs/DESIGN.md §12.2, §12.4) and
/// the last tempo is kept by one rule (`LastTempo`, docs/DESIGN.md §5.7).
public enum PlayerIntent: Sendable, Hashable, BitwiseCopyable {
    /// Start when stopped, stop when running.
    case startStop
    case start
    case stop
    case `continue`
    /// To the start of a bar (from 1).
    case locate(bar: Int32)
    /// Start from the top, through the count-in when one is set (docs/DESIGN.md §10.4).
    case countIn
    /// The tempo moved by this many hundredths of a BPM, clamped to 1–999.
    case tempoStep(hundredths: Int32)
    /// A tempo typed or sent.
    case tempo(BPM)
    /// One tap of tap tempo, at the time the request arrived.
    case tap
    case nextPreset
    case previousPreset
    /// A preset of the library by name: never a path.
    case presetNamed(RemoteText)
    /// A preset by number, as Program Change selects it (docs/DESIGN.md §6).
    case presetProgram(UInt7)
    /// Clicks off, or on again; the MIDI clock runs on.
    case toggleMute
    case mute(Bool)
    /// The master gain in dB, −60 to +12 (`--gain`'s range).
    case gain(decibels: Double)
    /// The master gain moved by whole dB, kept within −60…+12.
    case volumeStep(decibels: Int)
    /// That many beats a bar, the beat unit kept.
    case beatsPerBar(Int)
    case meter(Meter)
    case accents(AccentPattern)
    /// The next accent (X → x → o → . → X) of the beat under the display's cursor.
    case cycleAccent
    case subdivision(Subdivision)
    /// The next subdivision of `Subdivision.allCases`.
    case cycleSubdivision
    /// A practice tool from the next Start (count-in, trainer) or bar (gap); nil: off.
    case practice(PracticeChange)
    case quit
}

/// Where an intent came from: said beside a change the player did not make at
/// the terminal (`tempo 96 BPM (OSC 127.0.0.1)`, `start (pedal)`), and part of
/// the last tempo's rule (a tempo an OSC client sets is not the player's).
public enum IntentSource: Sendable, Hashable {
    /// The terminal's keys: the player sees what they pressed, nothing to name.
    case keys
    /// The controller's own messages: a deep press on the preset key, MIDI Start, Stop, Continue.
    case controller
    /// A button (a Note) or a pedal (a Control Change) bound to an action.
    case action(ActionBinding.Trigger)
    /// An OSC client, by the words that name it (`OSC 127.0.0.1`).
    case remote(String)

    /// How a change from here is named on the message line and in the change
    /// log; nil for the keys and the controller's own, as before any source was
    /// named. A Control Change is a `pedal` (the sustain pedal, CC 64, is the
    /// usual footswitch), a Note `note 60`.
    public var label: String? {
        switch self {
        case .keys, .controller: nil
        case .action(.controlChange): "pedal"
        case .action(let trigger): trigger.description
        case .remote(let name): name
        }
    }
}

extension ControlAction {
    /// The wish a button or pedal bound to this action makes.
    public var intent: PlayerIntent {
        switch self {
        case .tap: .tap
        case .startStop: .startStop
        case .start: .start
        case .stop: .stop
        case .nextPreset: .nextPreset
        case .previousPreset: .previousPreset
        case .mute: .toggleMute
        case .tempoUp: .tempoStep(hundredths: 100)
        case .tempoDown: .tempoStep(hundredths: -100)
        case .countIn: .countIn
        }
    }
}

extension RemoteCommand {
    /// The wish an OSC message makes; nil for the remote control's own business
    /// (`query`, `register`, `unregister`, `ping`), which changes nothing here.
    public var intent: PlayerIntent? {
        switch self {
        case .start: .start
        case .stop: .stop
        case .continue: .continue
        case .locate(let bar): .locate(bar: bar)
        case .tempo(let tempo): .tempo(tempo)
        case .nudge(let hundredths): .tempoStep(hundredths: hundredths)
        case .tap: .tap
        case .meter(let meter): .meter(meter)
        case .accents(let accents): .accents(accents)
        case .subdivision(let subdivision): .subdivision(subdivision)
        case .gain(let decibels): .gain(decibels: decibels)
        case .mute(let on): .mute(on)
        case .presetNamed(let name): .presetNamed(name)
        case .presetProgram(let program): .presetProgram(program)
        case .nextPreset: .nextPreset
        case .previousPreset: .previousPreset
        case .practice(let change): .practice(change)
        case .query, .register, .unregister, .ping: nil
        }
    }
}
