import TactusCore

/// What the display's clock-in row shows (`--clock-in`, docs/DESIGN.md §9.1):
/// the follower's state, the incoming tempo with two decimals, and the
/// meter's jitter over the last two beats of raw arrivals (the spread of the
/// tick intervals and the worst one's distance from their mean), with the
/// ticks missing and lost in transit when there are any.
public struct ClockInView: Hashable, Sendable {
    public var state: ClockFollowerState
    /// The filtered tempo, hundredths of a BPM (0: none yet).
    public var tempoHundredths: Int
    /// Spread and worst deviation in microseconds; nil before the meter has measured a beat.
    public var spreadMicroseconds: Int?
    public var worstMicroseconds: Int?
    public var missingTicks: Int
    public var lostTicks: Int

    public init(state: ClockFollowerState, tempoHundredths: Int, spreadMicroseconds: Int? = nil, worstMicroseconds: Int? = nil,
                missingTicks: Int = 0, lostTicks: Int = 0) {
        self.state = state
        self.tempoHundredths = tempoHundredths
        self.spreadMicroseconds = spreadMicroseconds
        self.worstMicroseconds = worstMicroseconds
        self.missingTicks = missingTicks
        self.lostTicks = lostTicks
    }

    /// `locked 120.00 BPM  jitter σ 0.42 ms, worst 1.10 ms`.
    public var text: String {
        var out = stateText
        if state == .locked || state == .holding, let spread = spreadMicroseconds, let worst = worstMicroseconds {
            out += "  jitter σ \(Self.milliseconds(spread)), worst \(Self.milliseconds(worst))"
        }
        if missingTicks > 0 { out += ", \(missingTicks) missing" }
        if lostTicks > 0 { out += ", \(lostTicks) lost in transit" }
        return out
    }

    /// The state in words, with the tempo where there is one: also the change
    /// log's `clock in …` line.
    public var stateText: String {
        switch state {
        case .idle: "waiting for ticks"
        case .acquiring: "locking"
        case .locked: "locked \(Self.tempo(tempoHundredths)) BPM"
        case .holding: "holding \(Self.tempo(tempoHundredths)) BPM (no ticks)"
        case .droppedOut: "dropped out (no ticks): stopped"
        }
    }

    /// "120.00": two decimals always (§9.1: the incoming tempo's resolution).
    static func tempo(_ hundredths: Int) -> String {
        "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }

    /// "0.42 ms" from microseconds.
    static func milliseconds(_ microseconds: Int) -> String {
        let hundredths = (microseconds + 5) / 10
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms"
    }
}
