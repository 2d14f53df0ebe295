/// Aftertouch as a force sensor for the tempo: the rules of docs/DESIGN.md §5 on an exact
/// timeline, driven by explicit time so every rule can be tested in virtual time.
///
/// Feed it MIDI with `handle(_:at:)` and let time pass with `advance(to:)`; both
/// return what should happen (`TimedPressureEffect`s, in time order). It owns the
/// tempo it steers; when something else changes the tempo (a preset, the
/// terminal keys), tell it with `setTempo(_:)`. Used by one thread only (the
/// control thread); it does no I/O and reads no clock.
///
/// The timeline of an up/down hold (t = 0 at the Note On, defaults; docs/DESIGN.md §5.11):
/// * t = 0: tap, tempo ±1.
/// * Force mode, as soon as pressure at *light* or above arrives: steps at
///   t = 0.32, 0.48, 0.64 … (hold delay, then every second 80 ms timer tick),
///   each applying the level of that moment: ±1 light, ±10 strong, none at rest.
/// * Long-press mode while no such pressure has arrived: steps at t = 0.5, 0.6,
///   0.7 …; step k moves ±1 for k < 20, ±2 for k < 65, ±5 after. Pressure during
///   a long press hands over to force mode from the next force-step time.
/// * Note Off: nothing after it; the tempo reached is the last tempo.
///
/// When a MIDI message and a step fall on the same microsecond, the message
/// comes first: pressure arriving exactly at a step time is the level "at that
/// moment", and a Note Off at a step time leaves no step after it.
public struct PressureController: Sendable {
    public private(set) var configuration: PressureConfiguration
    /// The tempo the controller steers: the control thread's one copy of the
    /// tempo (`ControlLoop.tempo` reads it; the engine hears it as `.setTempo`).
    public var tempo: BPM { BPM(exactTempo) }
    /// The control clock's reading the controller has reached.
    public private(set) var now: ControlTime

    /// The tempo with the fractions below 0.01 BPM that continuous mode moves it
    /// by per update; `tempo` is this rounded, never stored apart.
    private var exactTempo: Double
    var timing: PressureTiming
    private var hold: TempoHold?
    private var deepPress: DeepPress?
    var reading = PressureReading()
    private var pending: [TimedPressureEffect] = []

    public init(configuration: PressureConfiguration = PressureConfiguration(), tempo: BPM, at time: ControlTime = .zero) {
        self.configuration = configuration
        exactTempo = tempo.value
        now = time
        timing = PressureTiming(configuration)
    }

    // MARK: - Inputs

    /// Applies one MIDI message received at `time` (after letting time run up to it).
    /// A time earlier than `now` counts as `now`.
    @discardableResult
    public mutating func handle(_ message: MIDIMessage, at time: ControlTime) -> [TimedPressureEffect] {
        apply(message, at: time)
        return takeEffects()
    }

    /// Lets the control clock run to `time`: steps, deep-press and stuck-key
    /// deadlines up to and including `time` take place.
    @discardableResult
    public mutating func advance(to time: ControlTime) -> [TimedPressureEffect] {
        run(until: max(time, now), includingDeadlinesAt: true)
        return takeEffects()
    }

    // MARK: - Inputs on a real-time thread

    /// Room for `count` effects between two calls, so that the entry points
    /// below allocate nothing (an LV2 plugin runs the controller inside run()).
    public mutating func reserveEffects(_ count: Int) {
        pending.reserveCapacity(count)
    }

    /// `handle(_:at:)` handing each effect to `body` instead of returning a new
    /// array: with `reserveEffects` made large enough, nothing is allocated.
    public mutating func handle(_ message: MIDIMessage, at time: ControlTime, effects body: (TimedPressureEffect) -> Void) {
        apply(message, at: time)
        takeEffects(body)
    }

    /// `advance(to:)` handing each effect to `body`, allocation-free like `handle(_:at:effects:)`.
    public mutating func advance(to time: ControlTime, effects body: (TimedPressureEffect) -> Void) {
        run(until: max(time, now), includingDeadlinesAt: true)
        takeEffects(body)
    }

    private mutating func apply(_ message: MIDIMessage, at time: ControlTime) {
        let time = max(time, now)
        run(until: time, includingDeadlinesAt: false)
        switch message {
        case .noteOn(let channel, let note, let velocity) where velocity.value > 0:
            press(note, channel: channel)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            // Note On with velocity 0 is a Note Off (MIDI 1.0, for running status).
            release(note, channel: channel)
        case .channelPressure(let channel, let pressure):
            receive(pressure: pressure, channel: channel, note: nil)
        case .polyPressure(let channel, let note, let pressure):
            receive(pressure: pressure, channel: channel, note: note)
        default:
            break
        }
        run(until: time, includingDeadlinesAt: true)
    }

    /// The tempo was changed by something else (a preset, the terminal keys): a
    /// hold in progress goes on from there.
    public mutating func setTempo(_ tempo: BPM) {
        exactTempo = tempo.value
    }

    /// New settings (a preset switch). A hold in progress keeps its start and
    /// goes on under the new timings.
    public mutating func setConfiguration(_ configuration: PressureConfiguration) {
        self.configuration = configuration
        timing = PressureTiming(configuration)
    }

    // MARK: - Outputs

    /// The next moment something will happen without new MIDI: the control
    /// thread may sleep until then (or until input arrives). Nil when idle.
    /// In continuous mode the tempo also glides between deadlines, so a runner
    /// should poll at a short interval while `isGliding`.
    public var nextDeadline: ControlTime? { nextScheduled()?.time }

    /// Continuous mode is moving the tempo smoothly right now.
    public var isGliding: Bool {
        guard configuration.mode == .continuous, let hold, hold.mode == .force else { return false }
        return reading.level != .rest && now >= hold.start + timing.holdDelay
    }

    public var status: PressureStatus {
        var status = PressureStatus(tempo: tempo)
        if let hold {
            status.key = hold.key
            status.force = reading.force
            status.level = reading.level
            status.mode = hold.mode
            status.acceleration = acceleration(of: hold)
        } else if let deepPress {
            status.key = .preset
            status.force = reading.force
            status.level = reading.level
            status.deepPressProgress = deepPress.committed
                ? 1 : min(max(reading.force / configuration.deepPressThreshold, 0), 1)
        }
        return status
    }

    // MARK: - Keys

    private mutating func press(_ note: UInt7, channel: MIDIChannel) {
        guard configuration.listens(to: channel), let key = configuration.controlKey(for: note) else { return }
        // One control key is in charge at a time: the one pressed last wins. The
        // key it replaces falls silent until pressed again; the tempo it reached
        // is kept as the last tempo all the same.
        if hold != nil { endHold() }
        deepPress = nil
        reading = PressureReading()
        switch key {
        case .up, .down:
            hold = TempoHold(key: key, note: note, channel: channel, start: now)
            // Tap: the phone metronome's touch-down handler, ±1 at once (docs/DESIGN.md §5.3).
            let tapped = tempo.adding(key.direction * configuration.tapStep)
            write(tapped)
        case .preset:
            deepPress = DeepPress(note: note, channel: channel, start: now, lastActivity: now)
        }
    }

    private mutating func release(_ note: UInt7, channel: MIDIChannel) {
        if let hold, hold.note == note, hold.channel == channel {
            endHold()
        } else if let deepPress, deepPress.note == note, deepPress.channel == channel {
            // Released before the threshold: the gesture is cancelled (docs/DESIGN.md §5.8: `.Failed`).
            self.deepPress = nil
            reading = PressureReading()
        }
    }

    private mutating func endHold() {
        hold = nil
        reading = PressureReading()
        emit(.holdEnded(lastTempo: tempo))
    }

    // MARK: - Pressure

    /// Channel pressure (any note) or poly pressure on the held key, on the held
    /// key's channel: the aftertouch of the keyboard that sent the Note On.
    private mutating func receive(pressure: UInt7, channel: MIDIChannel, note: UInt7?) {
        let raw = Int(pressure.value)
        let force = configuration.calibration.force(raw: raw)
        if var hold, hold.channel == channel, note == nil || note == hold.note {
            let before = reading.level
            let after = before.next(force: force, configuration: configuration)
            reading.raw = raw
            reading.force = force
            reading.level = after
            hold.lastActivity = now
            // Impact: the phone metronome's UIImpactFeedbackGenerator fires on entering
            // strong and on leaving it (docs/DESIGN.md §5.6; Tactus also when leaving straight to rest).
            if after == .strong && before != .strong { emit(.cue(.impact)) }
            if before == .strong && after != .strong { emit(.cue(.impact)) }
            // The max cue of the scales article: once at the maximum, re-armed only below it (docs/DESIGN.md §5.6).
            if raw >= configuration.calibration.maximum {
                if reading.maximumArmed { emit(.cue(.maximum)) }
                reading.maximumArmed = false
            } else {
                reading.maximumArmed = true
            }
            if hold.mode == .longPress && after >= .light {
                // Force mode takes over from the next force-step time.
                hold.mode = .force
                hold.nextForceStep = firstForceStep(of: hold, notBefore: now)
                hold.integratedUntil = forceStepTime(of: hold, hold.nextForceStep)
            }
            self.hold = hold
        } else if var deepPress, deepPress.channel == channel, note == nil || note == deepPress.note {
            reading.raw = raw
            reading.force = force
            reading.level = reading.level.next(force: force, configuration: configuration)
            deepPress.lastActivity = now
            self.deepPress = deepPress
            commitDeepPressIfReady()
        }
    }

    /// The deep press (docs/DESIGN.md §5.8): held at least `deepPressMinimumHold`, then
    /// pressed past the threshold (strictly: `percentage > threshold`).
    private mutating func commitDeepPressIfReady() {
        guard var deepPress, !deepPress.committed,
              now >= deepPress.start + timing.deepPressMinimumHold,
              reading.force > configuration.deepPressThreshold else { return }
        deepPress.committed = true
        self.deepPress = deepPress
        emit(.nextPreset)
        emit(.cue(.commit))
    }

    // MARK: - Time

    private enum Deadline: Int, Comparable {
        // At equal times, in this order: a step before the stuck-key release.
        case forceStep, longPressStep, deepPressHold, stuckKey
        static func < (a: Deadline, b: Deadline) -> Bool { a.rawValue < b.rawValue }
    }

    private func nextScheduled() -> (time: ControlTime, deadline: Deadline)? {
        var best: (time: ControlTime, deadline: Deadline)?
        if let hold {
            switch hold.mode {
            case .force: Self.consider(forceStepTime(of: hold, hold.nextForceStep), .forceStep, &best)
            case .longPress: Self.consider(longPressStepTime(of: hold, hold.nextLongPressStep), .longPressStep, &best)
            }
            if let timeout = timing.stuckKeyTimeout { Self.consider(hold.lastActivity + timeout, .stuckKey, &best) }
        }
        if let deepPress {
            let reached = deepPress.start + timing.deepPressMinimumHold
            if !deepPress.committed && !deepPress.holdReached { Self.consider(reached, .deepPressHold, &best) }
            if let timeout = timing.stuckKeyTimeout { Self.consider(deepPress.lastActivity + timeout, .stuckKey, &best) }
        }
        return best
    }

    /// Keeps the earlier of `best` and (time, deadline). A static function, not a
    /// closure over `best`: a debug build boxes a captured variable on the heap,
    /// and an LV2 plugin asks for the next deadline inside run().
    private static func consider(_ time: ControlTime, _ deadline: Deadline, _ best: inout (time: ControlTime, deadline: Deadline)?) {
        if let b = best, !(time < b.time || (time == b.time && deadline < b.deadline)) { return }
        best = (time, deadline)
    }

    private mutating func run(until time: ControlTime, includingDeadlinesAt inclusive: Bool) {
        while let next = nextScheduled(), next.time < time || (inclusive && next.time == time) {
            glide(to: next.time)
            now = max(now, next.time)
            fire(next.deadline)
        }
        glide(to: time)
        now = max(now, time)
    }

    private mutating func fire(_ deadline: Deadline) {
        switch deadline {
        case .forceStep:
            guard var hold else { return }
            forceStep(hold)
            hold.nextForceStep += 1
            self.hold = hold
        case .longPressStep:
            guard var hold else { return }
            let k = hold.nextLongPressStep
            let amount = k < configuration.longPressSlowSteps ? configuration.longPressSlowAmount
                : k < configuration.longPressMediumSteps ? configuration.longPressMediumAmount
                : configuration.longPressFastAmount
            write(stepped(by: amount, direction: hold.key.direction))
            hold.nextLongPressStep += 1
            self.hold = hold
        case .deepPressHold:
            deepPress?.holdReached = true
            commitDeepPressIfReady()
        case .stuckKey:
            let seconds = configuration.stuckKeyTimeout
            if let hold {
                emit(.stuckKeyReleased(hold.key, note: hold.note, after: seconds))
                endHold()
            } else if let deepPress {
                emit(.stuckKeyReleased(.preset, note: deepPress.note, after: seconds))
                self.deepPress = nil
                reading = PressureReading()
            }
        }
    }

    /// One force step: the level at this moment decides (docs/DESIGN.md §5.4:
    /// ±1 light, ±10 strong, with a selection tick on every strong step). In continuous mode the tempo glides instead; the step
    /// clock only paces the selection ticks.
    private mutating func forceStep(_ hold: TempoHold) {
        let level = reading.level
        guard level != .rest else { return }
        if configuration.mode == .continuous {
            if level == .strong && tempo != limit(of: hold) { emit(.cue(.selection)) }
            return
        }
        let amount = level == .strong ? configuration.strongStep : configuration.lightStep
        let before = tempo
        let after = stepped(by: amount, direction: hold.key.direction)
        write(after)
        if level == .strong && isFullStep(from: before, by: amount, direction: hold.key.direction) {
            emit(.cue(.selection))
        }
    }

    /// Continuous mode: the force sets a rate in BPM per second; the tempo moves
    /// by rate × elapsed time, from the end of the hold delay (or the force-step
    /// time force mode began at), clamped to 1–999.
    private mutating func glide(to time: ControlTime) {
        guard configuration.mode == .continuous, var hold, hold.mode == .force else { return }
        let from = max(hold.integratedUntil, hold.start + timing.holdDelay)
        guard time > from else { return }
        hold.integratedUntil = time
        self.hold = hold
        guard reading.level != .rest else { return }
        let rate = configuration.continuousRate(force: reading.force)
        let seconds = Double(time - from) / 1_000_000
        let before = tempo
        exactTempo = min(max(exactTempo + hold.key.direction * rate * seconds, BPM.minimum.value), BPM.maximum.value)
        let glided = tempo
        if glided != before {
            pending.append(TimedPressureEffect(.tempo(glided), at: time))
        }
    }

    // MARK: - Steps

    /// A full step when it stays strictly inside 1–999, else 1 BPM toward the
    /// limit, so the limit itself is always reached (docs/DESIGN.md §5.4).
    private func stepped(by amount: Double, direction: Double) -> BPM {
        if isFullStep(from: tempo, by: amount, direction: direction) {
            return tempo.adding(direction * amount)
        }
        return tempo.adding(direction * min(amount, 1))
    }

    private func isFullStep(from tempo: BPM, by amount: Double, direction: Double) -> Bool {
        let target = tempo.value + direction * amount
        return target > BPM.minimum.value && target < BPM.maximum.value
    }

    private func limit(of hold: TempoHold) -> BPM {
        hold.key == .down ? BPM.minimum : BPM.maximum
    }

    private mutating func write(_ tempo: BPM) {
        let before = self.tempo
        exactTempo = tempo.value
        guard tempo != before else { return }
        emit(.tempo(tempo))
    }

    private mutating func emit(_ effect: PressureEffect) {
        pending.append(TimedPressureEffect(effect, at: now))
    }

    private mutating func takeEffects() -> [TimedPressureEffect] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// The effects in order, the storage kept (never shared, so never copied).
    private mutating func takeEffects(_ body: (TimedPressureEffect) -> Void) {
        var i = 0
        while i < pending.count { body(pending[i]); i += 1 }
        pending.removeAll(keepingCapacity: true)
    }
}
