/// `tactus clock-meter`'s reading of an incoming MIDI beat clock (docs/DESIGN.md
/// §9.1, "The meter"): the arrival times of its ticks and its transport
/// messages in, the meter's lines out. The figures are `ClockJitter`'s over the
/// last `windowIntervals` intervals of a `TickTimes` of the meter's own; this
/// type only chooses the window and the expected period, keeps the totals and
/// writes the lines.
///
/// Times are integers at `rate` a second: JACK frames at the sample rate (the
/// sender's ticks as it placed them, sample-accurate), or the ALSA sequencer's
/// arrival stamps in µs (rate 1 000 000). Fed on the printing thread, never on
/// the real-time one: the JACK cycle only decodes and hands over
/// (`TimedClockInput`).
///
/// **The expected period** (what drift and missing ticks are measured
/// against): the `--bpm` tempo when given; else the tempo of the first beat of
/// ticks (24 intervals) after the meter started or after each Start or
/// Continue, rounded to 0.01 BPM (the resolution a tempo is set to in Tactus and
/// most DAWs), so the drift says how far the clock is from the tempo it was set
/// to and how it wanders from there. A tempo changed by the sender shows as
/// drift until the next Start.
///
/// **Stop, Start and Continue** begin a new measurement: the pause between a
/// Stop and the next Start is no gap of lost ticks.
public struct ClockMeter: ~Copyable {
    /// The window of every figure but the totals: the last 4 beats (96 intervals
    /// of 24 a quarter note, MIDI 1.0), 2 s at 120 BPM, so a line each second
    /// looks back over more than a second of ticks and the tempo's mean over 96
    /// intervals of a frame-placed clock is good to a hundredth of a frame.
    public static let windowIntervals = 96
    /// Intervals that fix the expected period when `--bpm` is not given: one beat.
    public static let nominalIntervals = 24
    /// MIDI 1.0: 24 Timing Clocks a quarter note.
    static let ticksPerQuarterNote = 24.0

    /// Time units a second (the sample rate, or 1 000 000 for µs).
    public let rate: Int
    /// The time the meter started at (the lines count seconds from it).
    public let origin: Int64
    /// `--bpm`: the tempo drift is measured against, for the whole run.
    public let givenTempo: BPM?
    /// The tempo drift is measured against now (nil: not fixed yet).
    public private(set) var nominalTempo: BPM?
    private var ticks: TickTimes
    /// Ticks received since the meter started.
    public private(set) var ticksReceived = 0
    /// Ticks missing since the meter started (each gap counted once, when its
    /// closing tick arrives, by `ClockJitter`'s rule against the expected period).
    public private(set) var ticksMissing = 0
    /// Malformed bytes and messages cut short, reported.
    public private(set) var errors = 0

    public init(rate: Int, origin: Int64, tempo: BPM? = nil) {
        precondition(rate > 0)
        self.rate = rate
        self.origin = origin
        givenTempo = tempo
        nominalTempo = tempo
        ticks = TickTimes(capacity: Self.windowIntervals + 1)
    }

    /// The expected interval between ticks at `tempo`, in time units.
    func period(_ tempo: BPM) -> Double { Double(rate) * 60 / (tempo.value * Self.ticksPerQuarterNote) }

    /// The lines that say what the meter measures, printed once before the rest.
    public func header(source: String) -> [String] {
        let against = givenTempo.map { "\(Self.twoDecimals($0)) BPM (--bpm)" }
            ?? "the first beat's tempo rounded to 0.01 BPM, fixed again at each Start and Continue (--bpm B sets it)"
        let unit = rate == 1_000_000 ? "arrival times in µs" : "frames at \(rate) Hz"
        return ["clock-meter: \(source), \(unit)",
                "each second: tempo and spread (σ) of the tick intervals, worst interval off the mean, over the last \(Self.windowIntervals / 24) beats (\(Self.windowIntervals) intervals);",
                "drift in ppm (+: faster) against \(against); ticks missing in the window, and in all"]
    }

    /// One decoded byte's result at `time`: a line for a transport message or an
    /// error, nil for a tick (counted, and measured in the next `secondLine`).
    public mutating func receive(_ output: ClockInputDecoder.Output, at time: Int64) -> String? {
        switch output {
        case .error(let error):
            errors += 1
            return stamp(time) + error.description
        case .event(.tick):
            receiveTick(at: time)
            return nil
        case .event(let message):
            if !Self.isSongPosition(message) {
                ticks.removeAll()
                if givenTempo == nil && message != .stop { nominalTempo = nil }
            }
            return stamp(time) + Self.name(message)
        }
    }

    private mutating func receiveTick(at time: Int64) {
        ticksReceived += 1
        ticks.append(time)
        guard ticks.count >= 2 else { return }
        if nominalTempo == nil {
            guard ticks.count > Self.nominalIntervals else { return }
            let beat = Double(ticks[age: 0] - ticks[age: Self.nominalIntervals])
            nominalTempo = BPM((Double(rate) * 60 / beat * 100).rounded() / 100)
            // The beat that fixed it is measured against it from now on: its gaps too.
            ticksMissing += missing(lastIntervals: Self.nominalIntervals)
            return
        }
        ticksMissing += missing(lastIntervals: 1)
    }

    /// Ticks missing in the last intervals, by `ClockJitter`'s rule against the expected period.
    private func missing(lastIntervals count: Int) -> Int {
        guard let nominalTempo else { return 0 }
        return ClockJitter(ticks: ticks, lastIntervals: count, expectedFramesPerTick: period(nominalTempo), sampleRate: rate).missingTicks
    }

    /// The figures now: nil until there is an expected period and two ticks in the window.
    public var jitter: ClockJitter? {
        guard let nominalTempo, ticks.count >= 2 else { return nil }
        return ClockJitter(ticks: ticks, lastIntervals: Self.windowIntervals, expectedFramesPerTick: period(nominalTempo), sampleRate: rate)
    }

    /// The tempo of the window's mean interval (0.01 BPM), nil without intervals.
    public var tempo: BPM? {
        guard let jitter, jitter.intervals > 0 else { return nil }
        return BPM((Double(rate) * 60 / (jitter.meanInterval * Self.ticksPerQuarterNote) * 100).rounded() / 100)
    }

    /// The line printed each second, `second` seconds after the start:
    /// `   3 s  120.00 BPM  σ 0.01 ms, worst 0.02 ms, +0 ppm, 0 missing (96 intervals, drift vs 120.00 BPM, 0 missing in all)`.
    public func secondLine(second: Int) -> String {
        let head = Self.padded(String(second), 4) + " s  "
        guard let jitter, let tempo, let nominalTempo else {
            guard ticks.count > 0, nominalTempo == nil else { return head + "no clock (\(ticksReceived) ticks in all)" }
            return head + "measuring the first beat: \(ticks.count) of \(Self.nominalIntervals + 1) ticks (\(ticksReceived) in all)"
        }
        return head + Self.padded(Self.twoDecimals(tempo), 6) + " BPM  \(jitter) (\(jitter.intervals) intervals, drift vs \(Self.twoDecimals(nominalTempo)) BPM, \(ticksMissing) missing in all)"
    }

    /// `  2.513 s  ` before a line of an event at `time`.
    func stamp(_ time: Int64) -> String {
        let thousandths = Int((Double(time - origin) * 1_000 / Double(rate)).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let t = abs(thousandths)
        let fraction = String(t % 1_000)
        return Self.padded(sign + "\(t / 1_000)", 4) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + " s  "
    }

    static func isSongPosition(_ event: ClockInputEvent) -> Bool {
        if case .songPosition = event { return true }
        return false
    }

    /// "120.00": a tempo with its two decimals always (`BPM.description` drops them when whole).
    public static func twoDecimals(_ tempo: BPM) -> String {
        let cents = tempo.hundredths % 100
        return "\(tempo.hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// `text` with spaces before it up to `width`.
    static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// As the MIDI 1.0 specification names the message.
    static func name(_ event: ClockInputEvent) -> String {
        switch event {
        case .tick: "Timing Clock (0xF8)"
        case .start: "Start (0xFA)"
        case .continue: "Continue (0xFB)"
        case .stop: "Stop (0xFC)"
        case .songPosition(let sixteenths):
            "Song Position Pointer (0xF2): sixteenth \(sixteenths) (quarter note \(sixteenths / 4)\(sixteenths % 4 == 0 ? "" : " + \(sixteenths % 4)/4"))"
        }
    }
}
