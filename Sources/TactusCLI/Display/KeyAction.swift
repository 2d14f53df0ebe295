import TactusCore

/// What a key of the computer keyboard asks for in the interactive mode.
/// Carried out on the control thread, beside the MIDI input: as a
/// `PlayerIntent` (`intent`), or as the terminal's own editing.
public enum KeyAction: Hashable, Sendable, BitwiseCopyable {
    /// Space: start when stopped, stop when running.
    case startStop
    /// ← → ±1 BPM, ↑ ↓ ±10 BPM.
    case tempoStep(Int)
    /// `t`: one tap of tap tempo.
    case tap
    /// `[`: the previous preset of the list or set list.
    case previousPreset
    /// `]`: the next preset.
    case nextPreset
    /// `m`: clicks off or on again; the MIDI clock keeps running.
    case toggleMute
    /// `1`–`9`: that many beats a bar; `0`: ten (the key after 9 on the digit row).
    case beatsPerBar(Int)
    /// `q` or Ctrl-C.
    case quit
    /// `=`: type a tempo; the digits that follow are its characters, not beats a bar.
    case beginTempoEntry
    /// `w`: type a name to save the settings as a user preset.
    case beginNameEntry
    /// A character of what is typed (the ASCII byte): a tempo's digit or `.`, a name's letter.
    case entryCharacter(UInt8)
    /// Backspace while typing.
    case entryBackspace
    /// Enter: the typed tempo is set, the named preset saved.
    case entryDone
    /// Any other key while typing: the entry is dropped, the key itself too.
    case entryCancel
    /// `s`: the next subdivision (none, eighths, triplets, sixteenths, swing).
    case cycleSubdivision
    /// `+` `-`: the volume up or down by that many dB.
    case volumeStep(Int)
    /// `<` `>` (or `,` `.`, the same keys unshifted): the beat cursor that many beats along the bar (wrapping).
    case moveBeatCursor(Int)
    /// `a`: the next accent of the beat under the cursor, X → x → o → . → X, from the next bar line.
    case cycleAccent
}

/// A key action and when its byte arrived (CLOCK_MONOTONIC µs, like
/// `ControlInputEvent`), on its way from the key reader to the control thread.
public struct TimedKeyAction: Hashable, Sendable, BitwiseCopyable {
    public var action: KeyAction
    public var microseconds: Int64

    public init(_ action: KeyAction, microseconds: Int64) {
        self.action = action
        self.microseconds = microseconds
    }
}

extension KeyAction {
    /// The wish this key makes, as a pedal or OSC would make it; nil for the
    /// terminal's own editing (typing, the beat cursor), which the keys' front
    /// handles (`ControlSession.perform(_:)`), a typed tempo becoming `.tempo` at Enter.
    var intent: PlayerIntent? {
        switch self {
        case .startStop: .startStop
        case .tempoStep(let step): .tempoStep(hundredths: Int32(clamping: step * 100))
        case .tap: .tap
        case .previousPreset: .previousPreset
        case .nextPreset: .nextPreset
        case .toggleMute: .toggleMute
        case .beatsPerBar(let beats): .beatsPerBar(beats)
        case .quit: .quit
        case .cycleSubdivision: .cycleSubdivision
        case .volumeStep(let step): .volumeStep(decibels: step)
        case .cycleAccent: .cycleAccent
        case .beginTempoEntry, .beginNameEntry, .entryCharacter, .entryBackspace, .entryDone, .entryCancel, .moveBeatCursor: nil
        }
    }
}
