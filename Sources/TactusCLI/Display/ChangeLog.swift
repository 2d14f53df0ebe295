import TactusCore

/// The non-interactive mode's output (a service, a pipe, a log file): no screen,
/// one line per meaningful change, each with a timestamp.
///
/// It compares each `DisplayModel` with the previous one and says what changed
/// in words a musician reads and a script can `grep`:
///
///     2025-06-01T18:30:00.000Z jack connected default: tactus 48000 Hz 256 frames
///     2025-06-01T18:30:00.000Z connected JACK clock -> rec:midi_1
///     2025-06-01T18:30:00.000Z preset 3/16 Andante
///     2025-06-01T18:30:00.000Z meter 4/4 Xxxx
///     2025-06-01T18:30:00.000Z tempo 76 BPM
///     2025-06-01T18:30:00.000Z running
///     2025-06-01T18:30:02.480Z tempo 98 BPM
///     2025-06-01T18:30:05.000Z xruns 1 (+1)
///
/// Timestamps are UTC, ISO 8601 with milliseconds. A tempo line comes when the
/// tempo has settled: not for every step of a hold on the up or down key, only
/// once the key is released (and at once for a terminal key, a tap tempo or a
/// preset). A preset's tempo and meter are logged when its bar line plays
/// them; at the switch, `pending 208 BPM at bar 13` says what is coming. The
/// beat and the force are not logged: they change many times a second.
///
/// Line words, in the order they come within one moment: `jack connected …`,
/// `jack lost …`, `jack rate …`, `jack period …`, `connected …`, `disconnected …`,
/// `preset …`, `pending …`, `meter …`, `tempo …` (`… (Link)`: a peer's), `link peers N`, `clock in …`, `running`, `stopped`, `muted`, `unmuted`,
/// `clock offset …`, `xruns N (+K)`, `section …`, `trainer …`, `gap on|off`, `message …`.
public struct ChangeLog: Sendable {
    private var previous: DisplayModel?
    private var loggedTempo: BPM?

    public init() {}

    /// The lines for `model`, seen at `time` (µs since the Unix epoch, UTC).
    public mutating func lines(for model: DisplayModel, at time: Int64) -> [String] {
        let changed = changes(to: model)
        // Most rounds change nothing: no timestamp to format then.
        guard !changed.isEmpty else { return [] }
        let stamp = Timestamp.iso8601(microsecondsSinceEpoch: time)
        return changed.map { "\(stamp) \($0)" }
    }

    /// What changed since the previous model, without timestamps.
    mutating func changes(to m: DisplayModel) -> [String] {
        let old = previous
        previous = m
        var out: [String] = []

        switch (old?.jack, m.jack) {
        case (.connected(let a)?, .connected(let b)):
            if a.server != b.server || a.client != b.client { out.append("jack connected \(Self.describe(b))") } else {
                if a.sampleRate != b.sampleRate { out.append("jack rate \(b.sampleRate) Hz") }
                if a.period != b.period { out.append("jack period \(b.period) frames") }
            }
        case (_, .connected(let b)):
            out.append("jack connected \(Self.describe(b))")
        case (.connected(let a)?, .waiting):
            out.append("jack lost \(a.server): waiting for it to come back")
        case (nil, .waiting(let server)):
            out.append("jack waiting for server \(server ?? "default")")
        case (.waiting?, .waiting):
            break
        }

        let before = Set(old?.connections ?? [])
        let after = Set(m.connections)
        for c in m.connections.sorted() where !before.contains(c) { out.append("connected \(c.system.rawValue) \(c)") }
        for c in (old?.connections ?? []).sorted() where !after.contains(c) { out.append("disconnected \(c.system.rawValue) \(c)") }

        if let preset = m.preset, preset != old?.preset {
            let list = preset.isSetlist ? " (set list)" : ""
            let place = preset.index.map { "\($0 + 1)/\(preset.count)" } ?? "file"
            out.append("preset \(place)\(list) \(preset.name)")
        }
        if let pending = m.pending, pending != old?.pending { out.append("pending \(pending.text)") }
        if old?.meter != m.meter || old?.accents != m.accents {
            out.append("meter \(m.meter) \(m.accents)")
        }
        let holding = m.pressure.key == .up || m.pressure.key == .down
        if !holding && m.tempo != loggedTempo {
            out.append("tempo \(m.tempo) BPM" + (m.link?.tempoFromPeer == true ? " (Link)" : ""))
            loggedTempo = m.tempo
        }
        if let link = m.link, link.peers != old?.link?.peers { out.append("link peers \(link.peers)") }
        // The incoming clock's state, not its jitter (which moves every beat).
        if let clockIn = m.clockIn, clockIn.state != old?.clockIn?.state { out.append("clock in \(clockIn.stateText)") }
        // Stopped is where every run begins: only a start is news at first.
        if old?.running != m.running, old != nil || m.running { out.append(m.running ? "running" : "stopped") }
        if old?.muted != m.muted, old != nil || m.muted { out.append(m.muted ? "muted" : "unmuted") }
        if old?.clockOffsetMilliseconds != m.clockOffsetMilliseconds, old != nil || m.clockOffsetMilliseconds != 0 {
            out.append("clock offset \(Format.signedMilliseconds(m.clockOffsetMilliseconds))")
        }
        if case .connected(let b) = m.jack {
            var earlier = 0
            if case .connected(let a)? = old?.jack, a.server == b.server { earlier = a.xruns }
            if b.xruns > earlier { out.append("xruns \(b.xruns) (+\(b.xruns - earlier))") }
            var earlierTransport: String?
            if case .connected(let a)? = old?.jack { earlierTransport = a.transport }
            if let transport = b.transport, transport != earlierTransport { out.append(transport) }
        }
        out += Self.practiceChanges(from: old?.practice, to: m.practice)
        if let message = m.message, message != old?.message { out.append("message \(message)") }
        return out
    }

    /// `section LABEL` when a map entry begins, `trainer TEMPO` when the
    /// trainer's tempo moves, `gap on` / `gap off` when a gap bar begins and ends.
    static func practiceChanges(from old: PracticeView?, to new: PracticeView?) -> [String] {
        guard let new else { return [] }
        var out: [String] = []
        if let section = new.section, section != old?.section || new.sectionBar < (old?.sectionBar ?? 0) { out.append("section \(section)") }
        if let tempo = new.trainerTempo, tempo != old?.trainerTempo { out.append("trainer \(tempo) BPM") }
        if new.gapMuted != (old?.gapMuted ?? false) { out.append(new.gapMuted ? "gap on" : "gap off") }
        return out
    }

    static func describe(_ j: JackFigures) -> String {
        "\(j.server): \(j.client) \(j.sampleRate) Hz \(j.period) frames"
    }
}

/// UTC timestamps for log lines, without Foundation's formatters.
enum Timestamp {
    /// "2025-06-01T18:30:02.480Z": ISO 8601, UTC, milliseconds (truncated, so a
    /// line never shows a later time than the event).
    static func iso8601(microsecondsSinceEpoch: Int64) -> String {
        let milliseconds = floorDivide(microsecondsSinceEpoch, 1000)
        let seconds = floorDivide(milliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let ms = milliseconds - seconds * 1000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(msText)Z"
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Year, month, day of the proleptic Gregorian calendar for days since
    /// 1970-01-01 (H. Hinnant's `civil_from_days`: 400-year eras of 146 097 days).
    static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
