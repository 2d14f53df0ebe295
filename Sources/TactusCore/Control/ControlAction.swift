/// What a button or pedal on the controller can do, mapped in `controller.json`
/// (README "Controller", docs/DESIGN.md §12.4): the terminal's keys, for a foot.
public enum ControlAction: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// Tap tempo, at the time the message reached the input port.
    case tap
    case startStop
    case start
    case stop
    case nextPreset
    case previousPreset
    /// Mute or unmute the clicks (the clock runs on).
    case mute
    /// ±1 BPM, as the terminal's arrow keys.
    case tempoUp
    case tempoDown
    /// Start from the top, through the count-in when one is set (`--count-in`).
    case countIn
}

/// One button or pedal bound to an action: a Note or a Control Change number on
/// the control channel (`PressureConfiguration.channel`).
public struct ActionBinding: Sendable, Hashable {
    public enum Trigger: Sendable, Hashable, CustomStringConvertible {
        case note(UInt7)
        case controlChange(UInt7)

        /// `note 60`, `CC 64`.
        public var description: String {
            switch self {
            case .note(let n): "note \(n)"
            case .controlChange(let c): "CC \(c)"
            }
        }
    }

    public var trigger: Trigger
    public var action: ControlAction
    /// A pedal that sends low values when pressed (some sustain pedals): pressed below 64.
    public var invert: Bool

    public init(_ trigger: Trigger, _ action: ControlAction, invert: Bool = false) {
        self.trigger = trigger
        self.action = action
        self.invert = invert
    }
}

/// The bindings and whether each is held, so an action fires once a press.
///
/// A Control Change counts as pressed at 64 or above and released below (the
/// MIDI 1.0 convention for switch controllers such as the sustain pedal, CC 64:
/// 0–63 off, 64–127 on), the other way round with `invert`. A Note On with a
/// velocity above 0 presses, a Note Off (or Note On at velocity 0) releases.
/// The action fires on the press; a pedal whose position sends a stream of CC
/// values fires once until it is released again.
public struct ActionMap: Sendable {
    public private(set) var bindings: [ActionBinding]
    private var held: [Bool]

    public init(_ bindings: [ActionBinding] = []) {
        self.bindings = bindings
        held = Array(repeating: false, count: bindings.count)
    }

    public var isEmpty: Bool { bindings.isEmpty }

    /// What `message` does to the bindings: nil when it belongs to none (it goes
    /// on to the pressure controller); else the action it pressed, if it pressed one.
    public mutating func handle(_ message: MIDIMessage) -> ActionEdge? {
        let trigger: ActionBinding.Trigger
        let on: Bool
        switch message {
        case .noteOn(_, let note, let velocity):
            trigger = .note(note)
            on = velocity.value > 0
        case .noteOff(_, let note, _):
            trigger = .note(note)
            on = false
        case .controlChange(_, let controller, let value):
            trigger = .controlChange(controller)
            on = value.value >= 64
        default:
            return nil
        }
        guard let index = bindings.firstIndex(where: { $0.trigger == trigger }) else { return nil }
        let pressed = bindings[index].invert && !trigger.isNote ? !on : on
        defer { held[index] = pressed }
        return ActionEdge(binding: bindings[index], pressed: pressed && !held[index])
    }
}

/// A message that belongs to a binding: whether it pressed it now.
public struct ActionEdge: Sendable, Hashable {
    public var binding: ActionBinding
    /// True only on the message that pressed it (not its release, not a repeat).
    public var pressed: Bool
}

extension ActionBinding.Trigger {
    var isNote: Bool {
        if case .note = self { return true }
        return false
    }
}

extension ActionBinding {
    /// What `tactus learn --action` makes of the first message of a press: a Note
    /// On is that note; a Control Change is that controller, inverted when its
    /// first value is below 64 (the pedal sends low values when pressed). Nil for
    /// anything else (a Note Off, a release, pressure), which learn waits past.
    public static func learned(from message: MIDIMessage, action: ControlAction) -> ActionBinding? {
        switch message {
        case .noteOn(_, let note, let velocity) where velocity.value > 0:
            return ActionBinding(.note(note), action)
        case .controlChange(_, let controller, let value):
            return ActionBinding(.controlChange(controller), action, invert: value.value < 64)
        default:
            return nil
        }
    }
}
