/// The three control keys (docs/DESIGN.md §5): two steer the tempo, one switches presets.
public enum ControlKey: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// Faster: tap +1, hold to accelerate.
    case up
    /// Slower: tap −1, hold to decelerate.
    case down
    /// Next preset, by a deep press (docs/DESIGN.md §5.8).
    case preset

    /// +1 for up, −1 for down, 0 for the preset key.
    public var direction: Double {
        switch self {
        case .up: 1
        case .down: -1
        case .preset: 0
        }
    }
}

extension PressureConfiguration {
    /// The control key a note number is mapped to, if any.
    public func controlKey(for note: UInt7) -> ControlKey? {
        if note == upKey { return .up }
        if note == downKey { return .down }
        if note == presetKey { return .preset }
        return nil
    }

    /// The note number of a control key.
    public func note(of key: ControlKey) -> UInt7 {
        switch key {
        case .up: upKey
        case .down: downKey
        case .preset: presetKey
        }
    }

    /// Whether a message on `channel` is for Tactus: every channel when omni.
    public func listens(to channel: MIDIChannel) -> Bool {
        self.channel == nil || self.channel == channel
    }
}
