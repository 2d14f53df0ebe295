/// The `pressure` object of a preset: one key per property of
/// `PressureConfiguration`, named exactly as the property. A new setting there is
/// one line here (a test compares this table with the struct's properties).
enum PressureSchema {
    static var pressure: PresetObject<PressureConfiguration> {
        PresetObject(fields: [
            .value("mode", \.mode, .choice),
            .value("channel", \.channel, .channel),
            .value("upKey", \.upKey, .midiValue("a MIDI note number")),
            .value("downKey", \.downKey, .midiValue("a MIDI note number")),
            .value("presetKey", \.presetKey, .midiValue("a MIDI note number")),
            .value("tapStep", \.tapStep, .number(0...100, "BPM")),
            .value("lightThreshold", \.lightThreshold, .fraction),
            .value("lightRelease", \.lightRelease, .fraction),
            .value("strongThreshold", \.strongThreshold, .fraction),
            .value("strongRelease", \.strongRelease, .fraction),
            .value("holdDelay", \.holdDelay, .seconds(0...10)),
            .value("stepTimer", \.stepTimer, .seconds(0.001...10)),
            .value("ticksPerStep", \.ticksPerStep, .integer(1...100, "timer ticks")),
            .value("lightStep", \.lightStep, .number(0...998, "BPM")),
            .value("strongStep", \.strongStep, .number(0...998, "BPM")),
            .value("longPressDelay", \.longPressDelay, .seconds(0...10)),
            .value("longPressInterval", \.longPressInterval, .seconds(0.001...10)),
            .value("longPressSlowSteps", \.longPressSlowSteps, .integer(0...10_000, "steps")),
            .value("longPressMediumSteps", \.longPressMediumSteps, .integer(0...10_000, "steps")),
            .value("longPressSlowAmount", \.longPressSlowAmount, .number(0...998, "BPM")),
            .value("longPressMediumAmount", \.longPressMediumAmount, .number(0...998, "BPM")),
            .value("longPressFastAmount", \.longPressFastAmount, .number(0...998, "BPM")),
            .value("continuousMinimumRate", \.continuousMinimumRate, .number(0...1000, "BPM per second")),
            .value("continuousMaximumRate", \.continuousMaximumRate, .number(0...1000, "BPM per second")),
            .value("continuousCurve", \.continuousCurve, .choice),
            .value("deepPressMinimumHold", \.deepPressMinimumHold, .seconds(0...10)),
            .value("deepPressThreshold", \.deepPressThreshold, .fraction),
            .object("calibration", \.calibration, calibration),
            .value("stuckKeyTimeout", \.stuckKeyTimeout, .seconds(0.1...3600)),
        ], rules: [
            // Hysteresis only works when the way back lies below the way in (docs/DESIGN.md §5.2).
            atMost("lightRelease", \.lightRelease, "lightThreshold", \.lightThreshold),
            atMost("strongRelease", \.strongRelease, "strongThreshold", \.strongThreshold),
            below("lightThreshold", \.lightThreshold, "strongThreshold", \.strongThreshold),
            atMost("longPressSlowSteps", \.longPressSlowSteps, "longPressMediumSteps", \.longPressMediumSteps),
            atMost("continuousMinimumRate", \.continuousMinimumRate, "continuousMaximumRate", \.continuousMaximumRate),
        ])
    }

    static var calibration: PresetObject<PressureConfiguration.Calibration> {
        PresetObject(fields: [
            .value("deadZone", \.deadZone, .integer(0...126, "(raw pressure values that read as zero force)")),
            .value("maximum", \.maximum, .integer(1...127, "(the highest raw pressure the controller sends)")),
            .value("curve", \.curve, .choice),
        ], rules: [
            below("deadZone", \.deadZone, "maximum", \.maximum),
        ])
    }

    private static func atMost<Root, T: Comparable>(_ key: String, _ value: KeyPath<Root, T>, _ limitKey: String, _ limit: KeyPath<Root, T>) -> PresetRule<Root> {
        PresetRule(key: key) { root in
            root[keyPath: value] <= root[keyPath: limit] ? nil
                : ("\(root[keyPath: value]) is above \(limitKey) (\(root[keyPath: limit]))", "at most \(limitKey)")
        }
    }

    private static func below<Root, T: Comparable>(_ key: String, _ value: KeyPath<Root, T>, _ limitKey: String, _ limit: KeyPath<Root, T>) -> PresetRule<Root> {
        PresetRule(key: key) { root in
            root[keyPath: value] < root[keyPath: limit] ? nil
                : ("\(root[keyPath: value]) is not below \(limitKey) (\(root[keyPath: limit]))", "less than \(limitKey)")
        }
    }
}
