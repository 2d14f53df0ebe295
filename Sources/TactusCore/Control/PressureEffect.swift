/// What the pressure controller asks of the rest of Tactus. The controller only
/// decides; the control loop carries the effects out (tempo and cues as commands
/// on the engine's ring, gestures to the application).
public enum PressureEffect: Hashable, Sendable {
    /// The tempo to play from now on.
    case tempo(BPM)
    /// A feedback sound on the `feedback` output (the phone metronome's haptics, docs/DESIGN.md §5.6).
    case cue(ClickSound)
    /// The deep press on the preset key was committed: switch to the next preset.
    case nextPreset
    /// A tempo hold ended: the tempo it reached, to be saved as the last tempo
    /// (docs/DESIGN.md §5.7: kept, and restored at the next start unless a preset is given).
    case holdEnded(lastTempo: BPM)
    /// A control key sent no Note Off (nor pressure) for `stuckKeyTimeout` and was
    /// released by Tactus.
    case stuckKeyReleased(ControlKey, note: UInt7, after: Double)

    /// One line for the player, for the effects that need saying.
    public var message: String? {
        switch self {
        case .stuckKeyReleased(let key, let note, let seconds):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "tactus: control key \(key.rawValue) (note \(note)) had no Note Off for \(shown) s: released it (stuck key or lost MIDI message?)"
        default:
            return nil
        }
    }
}

/// An effect and the moment on the control clock it belongs to.
public struct TimedPressureEffect: Hashable, Sendable, CustomStringConvertible {
    public var time: ControlTime
    public var effect: PressureEffect

    public init(_ effect: PressureEffect, at time: ControlTime) {
        self.time = time
        self.effect = effect
    }

    public var description: String { "\(time): \(effect)" }
}
