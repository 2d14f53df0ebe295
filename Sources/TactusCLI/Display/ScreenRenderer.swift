import TactusCore

/// Draws a `DisplayModel` as the lines of a terminal screen `width` × `height`.
///
/// ASCII, so it reads the same in any locale and any font, but for the note of
/// the beat unit (`♪ = 133`) when `unicode` (`GlyphPolicy`; `1/8 = 133` else);
/// colour is an extra (`ScreenStyle`), never the only carrier of meaning: the accented beat is
/// an `X`, the current beat is in brackets, the level is written out. Each line
/// fits the width (cut at the right); when the screen has fewer rows than the
/// layout, the least important rows go first (blank rows, then the key help,
/// then the connections), so an 80 × 24 terminal shows everything and a small
/// one still shows tempo, beat and force.
public struct ScreenRenderer: Sendable {
    public var width: Int
    public var height: Int
    public var color: Bool
    /// Whether the note glyphs ♪ and ♩ may be drawn.
    public var unicode: Bool

    /// Columns taken by the row labels ("tempo", "force", …).
    static let labelWidth = 8
    /// The force bar's width, when the screen is wide enough.
    static let maximumBarWidth = 40

    public init(width: Int, height: Int, color: Bool = false, unicode: Bool = false) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.color = color
        self.unicode = unicode
    }

    /// The screen's lines, top to bottom, at most `height` of them.
    public func render(_ model: DisplayModel) -> [String] {
        ScreenRenderer.keep(rows(model), height: height).map { $0.text(width: width, color: color) }
    }

    // MARK: - Rows

    /// Lower numbers are kept longer when rows must go.
    enum Importance: Int, Comparable {
        case essential, high, medium, low, help, spacing
        static func < (a: Importance, b: Importance) -> Bool { a.rawValue < b.rawValue }
    }

    struct Span {
        var text: String
        var style: ScreenStyle = .plain
    }

    struct Row {
        var importance: Importance
        var spans: [Span]

        init(_ importance: Importance, _ spans: [Span]) {
            self.importance = importance
            self.spans = spans
        }

        static let blank = Row(.spacing, [])

        /// The row cut to `width` columns, styled when `color`.
        func text(width: Int, color: Bool) -> String {
            var remaining = width
            var out = ""
            for span in spans where remaining > 0 {
                let shown = span.text.count <= remaining ? span.text : String(span.text.prefix(remaining))
                remaining -= shown.count
                out += span.style.apply(to: shown, color: color)
            }
            return out
        }
    }

    func rows(_ m: DisplayModel) -> [Row] {
        var rows: [Row] = [
            title(m),
            .blank,
            tempoRow(m),
            beatRow(m),
        ]
        if let cursor = cursorRow(m) { rows.append(cursor) }
        rows += [
            .blank,
            forceRow(m),
            deepPressRow(m),
        ]
        if let practice = m.practice { rows.append(Row(.high, [label("practice"), Span(text: practice.text)])) }
        rows += [
            .blank,
            presetRow(m),
            jackRow(m),
        ]
        // `--sync-out`: what its ports carry and where they go (docs/DESIGN.md §14).
        if case .connected(let j) = m.jack, let sync = j.sync { rows.append(Row(.medium, [label("sync"), Span(text: sync)])) }
        // Without `--link` the row says so (a musician looking for the session
        // sees it is not joined), and is the first to go on a small screen.
        rows.append(Row(m.link == nil ? .low : .medium, [label("Link"), Span(text: m.link?.text ?? "off")]))
        // `--clock-in`: the incoming clock's lock, tempo and jitter (docs/DESIGN.md §9.1).
        if let clockIn = m.clockIn { rows.append(Row(.medium, [label("clock in"), Span(text: clockIn.text)])) }
        rows += midiRows(m)
        rows.append(Row(.low, [label("clock"), Span(text: "offset " + Format.signedMilliseconds(m.clockOffsetMilliseconds))]))
        rows.append(.blank)
        rows += messageRows(m)
        rows += helpRows()
        // Blank rows fill the screen above the key help, so it sits at the bottom.
        if rows.count < height, let firstHelp = rows.firstIndex(where: { $0.importance == .help }) {
            rows.insert(contentsOf: Array(repeating: Row.blank, count: height - rows.count), at: firstHelp)
        }
        return rows
    }

    /// Drops the least important rows (the lowest of equals first) until `height` remain.
    static func keep(_ rows: [Row], height: Int) -> [Row] {
        var rows = rows
        while rows.count > height {
            let least = rows.map(\.importance).max() ?? .spacing
            guard let index = rows.lastIndex(where: { $0.importance == least }) else { break }
            rows.remove(at: index)
        }
        return rows
    }

    func label(_ text: String) -> Span {
        Span(text: Format.padded(text, ScreenRenderer.labelWidth))
    }

    func title(_ m: DisplayModel) -> Row {
        var spans = [Span(text: "Tactus", style: .bold), Span(text: "  ")]
        spans.append(m.running ? Span(text: "RUNNING", style: .running) : Span(text: "STOPPED", style: .dim))
        if m.muted { spans += [Span(text: "  "), Span(text: "MUTED (clock runs)", style: .warning)] }
        return Row(.high, spans)
    }

    /// In quarter-note meters `133 BPM`; else the beat's note (`♪ = 133`) and,
    /// at the end of the row when it fits, the tempo of the MIDI clock, which
    /// counts quarter notes (24 clocks a quarter note, MIDI 1.0), as a DAW
    /// following it shows it: `(MIDI clock ♩ = 66.5)`.
    func tempoRow(_ m: DisplayModel) -> Row {
        let position = m.bar > 0 && m.beat > 0 ? "\(m.bar):\(m.beat)" : "-:-"
        let unit = m.meter.beatUnit
        let tempo = unit == 4 ? "\(m.tempo) BPM" : "\(note(unit)) = \(m.tempo)"
        var spans = [label("tempo"), Span(text: tempo, style: .bold), Span(text: "   \(m.meter)   bar:beat \(position)")]
        if let pending = m.pending { spans.append(Span(text: "   \(unicode ? "\u{2192}" : "->") \(pending.text)", style: .warning)) }
        let clock = Span(text: "   (MIDI clock \(note(4)) = \(Format.decimal(m.tempo.value * 4 / Double(unit))))")
        if unit != 4, spans.map(\.text.count).reduce(clock.text.count, +) <= width { spans.append(clock) }
        return Row(.essential, spans)
    }

    /// The note of a beat unit: ♪ and ♩ when `unicode`, else the fraction `1/8`.
    func note(_ unit: Int) -> String {
        guard unicode else { return "1/\(unit)" }
        switch unit {
        case 4: return "\u{2669}"
        case 8: return "\u{266A}"
        default: return "1/\(unit)"
        }
    }

    /// One cell a beat: `X` accent, `x` beat, `.` silent; the beat just heard in
    /// brackets. Spaced out (`[X] x  x  x `) when it fits, else packed (`Xx[x]x`).
    func beatRow(_ m: DisplayModel) -> Row {
        var spans = beatCells(m).spans
        // The clicks between the beats, when any play and the row has room.
        let subdivision = Span(text: "   subdivision \(m.subdivision.rawValue)")
        if m.subdivision != .none, spans.map(\.text.count).reduce(subdivision.text.count, +) <= width { spans.append(subdivision) }
        return Row(.essential, spans)
    }

    /// The beat row's label and cells, and the column of each beat's symbol.
    func beatCells(_ m: DisplayModel) -> (spans: [Span], columns: [Int]) {
        let count = m.meter.beatsPerBar
        let current = m.beat >= 1 && m.beat <= count ? m.beat : nil
        var spans = [label("beat")]
        var columns: [Int] = []
        var column = ScreenRenderer.labelWidth
        let spaced = ScreenRenderer.labelWidth + 4 * count - 1 <= width
        for index in 0..<count {
            let isCurrent = current == index + 1
            let accent = isCurrent ? m.beatAccent : m.accents[index]
            let symbol = String(accent.symbol)
            let cell: Span
            if isCurrent {
                let style: ScreenStyle = !m.running ? .dim : accent == .accent ? .accentBeat : .beat
                cell = Span(text: "[\(symbol)]", style: style)
            } else {
                cell = Span(text: spaced ? " \(symbol) " : symbol)
            }
            columns.append(column + (cell.text.count == 3 ? 1 : 0))
            spans.append(cell)
            column += cell.text.count
            if spaced && index < count - 1 {
                spans.append(Span(text: " "))
                column += 1
            }
        }
        return (spans, columns)
    }

    /// Under the beat row, once `<` `>` or `a` was pressed: a caret under the
    /// beat whose accent `a` edits (`^ a: beat 3`).
    func cursorRow(_ m: DisplayModel) -> Row? {
        let columns = beatCells(m).columns
        guard let cursor = m.beatCursor, columns.indices.contains(cursor) else { return nil }
        let caret = String(repeating: " ", count: columns[cursor]) + "^"
        return Row(.medium, [Span(text: caret, style: .warning), Span(text: "  a: accent of beat \(cursor + 1)", style: .dim)])
    }

    /// The fixed-width tail after a bar: "  62%  light   up      +6.25 BPM/s".
    func forceTail(_ p: PressureStatus, full: Bool) -> [Span] {
        let levelStyle: ScreenStyle = switch p.level {
        case .rest: .dim
        case .light: .light
        case .strong: .strong
        }
        var spans = [Span(text: "  " + Format.percent(p.force)), Span(text: "  "),
                     Span(text: Format.padded(p.level.name, 6), style: levelStyle)]
        if full {
            let key = p.key.map { $0.rawValue } ?? "-"
            spans.append(Span(text: "  " + Format.padded(key, 6) + "  "
                              + Format.padded(Format.acceleration(p.acceleration), 7, left: true) + " BPM/s"))
        }
        return spans
    }

    /// Bar width and whether the key and acceleration fit beside it.
    func barLayout() -> (width: Int, full: Bool) {
        let fullTail = 37, shortTail = 14
        let fixed = ScreenRenderer.labelWidth + 2
        if width - fixed - fullTail >= 10 { return (min(ScreenRenderer.maximumBarWidth, width - fixed - fullTail), true) }
        return (max(4, min(ScreenRenderer.maximumBarWidth, width - fixed - shortTail)), false)
    }

    func bar(_ fraction: Double, width: Int, style: ScreenStyle) -> [Span] {
        let filled = min(width, max(0, Int((min(max(fraction, 0), 1) * Double(width)).rounded())))
        return [Span(text: "["), Span(text: String(repeating: "#", count: filled), style: style),
                Span(text: String(repeating: "-", count: width - filled)), Span(text: "]")]
    }

    /// The force bar once a controller has sent something; before, an empty
    /// bar would read as a controller at rest.
    func forceRow(_ m: DisplayModel) -> Row {
        guard m.controllerHeard else {
            return Row(.essential, [label("force"), Span(text: "no controller (nothing received on the control port yet)", style: .dim)])
        }
        let layout = barLayout()
        let p = m.pressure
        let style: ScreenStyle = p.level == .strong ? .strong : p.level == .light ? .light : .plain
        return Row(.essential, [label("force")] + bar(p.force, width: layout.width, style: style) + forceTail(p, full: layout.full))
    }

    /// Only while the preset key is held: how far the press is toward switching.
    func deepPressRow(_ m: DisplayModel) -> Row {
        guard m.pressure.key == .preset else { return .blank }
        let layout = barLayout()
        let progress = m.pressure.deepPressProgress
        return Row(.high, [label("deep")] + bar(progress, width: layout.width, style: progress >= 1 ? .strong : .light)
                   + [Span(text: "  " + Format.percent(progress) + (progress >= 1 ? "  next preset" : "  toward next preset"))])
    }

    func presetRow(_ m: DisplayModel) -> Row {
        guard let preset = m.preset else { return Row(.medium, [label("preset"), Span(text: "none", style: .dim)]) }
        let list = preset.isSetlist ? "set list" : "list"
        let place = preset.index.map { "\($0 + 1)/\(preset.count) of the \(list)" } ?? "from a file, not in the \(list) of \(preset.count)"
        return Row(.medium, [label("preset"), Span(text: preset.name, style: .bold), Span(text: "  (\(place))")])
    }

    func jackRow(_ m: DisplayModel) -> Row {
        switch m.jack {
        case .connected(let j):
            let xrunStyle: ScreenStyle = j.xruns > 0 ? .warning : .plain
            return Row(.medium, [label("JACK"), Span(text: "\(j.server): \(j.client)  \(j.sampleRate) Hz  \(j.period) frames  "),
                                 Span(text: "xruns \(j.xruns)", style: xrunStyle), Span(text: "  DSP \(j.dspLoadPercent)%")]
                       + (j.transport.map { [Span(text: "  \($0)")] } ?? []))
        case .waiting(let server):
            return Row(.medium, [label("JACK"), Span(text: "no server \(server ?? "default") yet; retrying every second", style: .error)])
        }
    }

    /// One row per system: "JACK clock -> rec:midi_1, control <- sender:out".
    func midiRows(_ m: DisplayModel) -> [Row] {
        var rows: [Row] = []
        for system in [MIDIConnection.System.jack, .alsa] {
            let connections = m.connections.filter { $0.system == system }.sorted()
            var text = connections.isEmpty ? "no connections" : connections.map(\.description).joined(separator: ", ")
            if system == .alsa && !m.alsaActive { text = "off" }
            rows.append(Row(.low, [label(rows.isEmpty ? "MIDI" : ""), Span(text: system.rawValue + " "),
                                   Span(text: text, style: connections.isEmpty ? .dim : .plain)]))
        }
        return rows
    }

    /// The last message, wrapped over up to three rows.
    func messageRows(_ m: DisplayModel) -> [Row] {
        guard let message = m.message else { return [Row(.high, [])] }
        let lines = Format.wrap("> " + message, width: width, indent: 2)
        return lines.prefix(3).map { Row(.high, [Span(text: $0, style: .warning)]) }
    }

    /// The keys, packed into as many rows as the width needs.
    func helpRows() -> [Row] {
        let items = ["space start/stop", "<- -> -1/+1", "up down +10/-10", "= type a tempo", "t tap", "[ ] preset", "m mute",
                     "+ - volume", "s subdivision", "1-9 0 beats a bar", "< > beat  a accent", "w save preset", "q quit"]
        let room = max(1, width - ScreenRenderer.labelWidth)
        var lines: [String] = []
        for item in items {
            if let last = lines.last, last.count + 2 + item.count <= room {
                lines[lines.count - 1] = last + "  " + item
            } else {
                lines.append(item)
            }
        }
        return lines.enumerated().map { index, line in
            Row(.help, [label(index == 0 ? "keys" : ""), Span(text: line, style: .dim)])
        }
    }
}

/// Number formats of the display and the log, without Foundation.
enum Format {
    /// `text` padded with spaces to `width` (on the left when `left`), never cut.
    static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }

    /// `text` broken at spaces into lines of at most `width` characters (a word
    /// longer than that is cut); lines after the first start with `indent` spaces.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var line = ""
        let prefix = String(repeating: " ", count: max(0, min(indent, width - 1)))
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.isEmpty ? (lines.isEmpty ? "" : prefix) + word : line + " " + word
            if candidate.count <= width || line.isEmpty || line == prefix {
                line = String(candidate.prefix(width))
            } else {
                lines.append(line)
                line = String((prefix + word).prefix(width))
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// A fraction 0…1 as a right-aligned whole percent: " 62%".
    static func percent(_ fraction: Double) -> String {
        padded("\(Int((min(max(fraction, 0), 1) * 100).rounded()))%", 4, left: true)
    }

    /// `value` with at most `decimals` decimals, trailing zeros dropped: 6.25, 62.5, 10.
    static func decimal(_ value: Double, decimals: Int = 2) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(scaled / scale) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// BPM per second with its sign: "+6.25", "-62.5", "0".
    static func acceleration(_ value: Double) -> String {
        let text = decimal(value)
        return text == "0" || text.hasPrefix("-") ? text : "+" + text
    }

    /// "+2.5 ms", "-10 ms", "0 ms".
    static func signedMilliseconds(_ value: Double) -> String {
        let text = decimal(value)
        return (text == "0" || text.hasPrefix("-") ? text : "+" + text) + " ms"
    }
}

extension ForceLevel {
    /// The level's name as shown and logged: rest, light, strong.
    var name: String {
        switch self {
        case .rest: "rest"
        case .light: "light"
        case .strong: "strong"
        }
    }
}
