/// The conversation of `tactus learn`, without the I/O: it is told each MIDI
/// message from the controller and says what to print and what to ask next.
///
/// 1. press the UP key, 2. the DOWN key, 3. the PRESET key (three different
/// notes; the channel is kept when all three agree, else omni);
/// 4. rest a finger on the up key without pressing, then let go: the highest
///    pressure of that touch becomes the dead zone (sensors that never quite
///    read zero);
/// 5. press the up key as hard as possible, then let go: the highest pressure
///    becomes the calibration maximum (many controllers never send 127). No
///    pressure at all: the controller has no aftertouch, which is fine (long
///    press).
public struct MIDILearn: Sendable {
    public enum Step: Sendable, Hashable {
        case upKey, downKey, presetKey, restingTouch, hardPress, done
    }

    public private(set) var step: Step = .upKey
    /// The curve to store (learn does not change it).
    public var curve: PressureConfiguration.Curve

    private var up: (note: UInt7, channel: MIDIChannel)?
    private var down: (note: UInt7, channel: MIDIChannel)?
    private var preset: (note: UInt7, channel: MIDIChannel)?
    private var deadZone = 0
    private var maximum = 0
    /// The up key is down during steps 4 and 5, and the highest pressure seen in that hold.
    private var measuring = false
    private var highest = 0

    /// A resting touch that reads above this was a press: ask again.
    public static let largestDeadZone = 31
    /// A hard press must reach at least this far above the dead zone.
    public static let smallestUsefulRange = 16

    public init(curve: PressureConfiguration.Curve = .linear) {
        self.curve = curve
    }

    /// What to ask the player now.
    public var prompt: String {
        switch step {
        case .upKey: "Press the key for UP (faster)."
        case .downKey: "Press the key for DOWN (slower)."
        case .presetKey: "Press the key for PRESET (next preset)."
        case .restingTouch: "Rest a finger on the UP key without pressing, then let go."
        case .hardPress: "Press the UP key as hard as you can, then let go."
        case .done: "Done."
        }
    }

    /// The learned settings, once `step == .done`.
    public var result: ControllerSettings? {
        guard step == .done, let up, let down, let preset else { return nil }
        let sameChannel = up.channel == down.channel && up.channel == preset.channel
        let hasAftertouch = maximum > 0
        let calibration = hasAftertouch
            ? PressureConfiguration.Calibration(deadZone: deadZone, maximum: maximum, curve: curve)
            : PressureConfiguration.Calibration(deadZone: 0, maximum: 127, curve: curve)
        return ControllerSettings(channel: sameChannel ? up.channel : nil, upKey: up.note, downKey: down.note,
                                  presetKey: preset.note, calibration: calibration, hasAftertouch: hasAftertouch)
    }

    /// Takes one message; returns the lines to print (what was understood, then
    /// the next prompt when the step changed).
    public mutating func handle(_ message: MIDIMessage) -> [String] {
        switch message {
        case .noteOn(let channel, let note, let velocity) where velocity.value > 0:
            return pressed(note, channel: channel)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            return released(note, channel: channel)
        case .channelPressure(let channel, let pressure):
            measure(Int(pressure.value), channel: channel, note: nil)
        case .polyPressure(let channel, let note, let pressure):
            measure(Int(pressure.value), channel: channel, note: note)
        default:
            break
        }
        return []
    }

    private mutating func pressed(_ note: UInt7, channel: MIDIChannel) -> [String] {
        let heard = "\(note) (\(NoteName.of(note))) on channel \(channel.number)"
        switch step {
        case .upKey:
            up = (note, channel)
            return advance(to: .downKey, saying: "up: \(heard)")
        case .downKey:
            if note == up?.note { return ["That is the up key; press another key for DOWN."] }
            down = (note, channel)
            return advance(to: .presetKey, saying: "down: \(heard)")
        case .presetKey:
            if note == up?.note || note == down?.note {
                return ["That key is taken (up \(up!.note), down \(down!.note)); press another key for PRESET."]
            }
            preset = (note, channel)
            return advance(to: .restingTouch, saying: "preset: \(heard)")
        case .restingTouch, .hardPress:
            guard let up, note == up.note, channel == up.channel else {
                return ["Use the UP key (\(up.map { String($0.note.value) } ?? "?")) for this step."]
            }
            measuring = true
            highest = 0
            return []
        case .done:
            return []
        }
    }

    private mutating func measure(_ value: Int, channel: MIDIChannel, note: UInt7?) {
        guard measuring, let up, channel == up.channel, note == nil || note == up.note else { return }
        highest = max(highest, value)
    }

    private mutating func released(_ note: UInt7, channel: MIDIChannel) -> [String] {
        guard measuring, let up, note == up.note, channel == up.channel else { return [] }
        measuring = false
        switch step {
        case .restingTouch:
            if highest > Self.largestDeadZone {
                return ["That touch read \(highest): too hard for a resting finger. Try again, lighter."]
            }
            deadZone = highest
            return advance(to: .hardPress, saying: "resting touch: \(highest) (dead zone)")
        case .hardPress:
            if highest == 0 {
                maximum = 0
                return advance(to: .done, saying: "no pressure received: this controller sends no aftertouch on this key; holding a control key will work as a long press")
            }
            if highest < deadZone + Self.smallestUsefulRange {
                return ["The hardest press read only \(highest) (dead zone \(deadZone)). Press harder and try again."]
            }
            maximum = highest
            return advance(to: .done, saying: "hardest press: \(highest) (maximum)")
        default:
            return []
        }
    }

    private mutating func advance(to next: Step, saying line: String) -> [String] {
        step = next
        return next == .done ? [line] : [line, prompt]
    }
}
