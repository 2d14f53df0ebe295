import TactusCore

/// A bar change asked for (a preset, a beats key) that the engine has not
/// played yet: it lands at the next bar line, so the display shows it as
/// coming (`→ 208 BPM at bar 13`) and the tempo row keeps what is heard.
public struct PendingChange: Hashable, Sendable {
    /// The tempo it brings; nil: the tempo stays.
    public var tempo: BPM?
    /// The meter it brings; nil: the meter stays.
    public var meter: Meter?
    /// The accents it brings in the same meter (an accent edited with `a`, a
    /// preset of the same meter); nil: they stay, or come with a new meter.
    public var accents: AccentPattern?
    /// The bar it lands on; nil: the next beat (`--switch now`).
    public var bar: Int?

    public init(tempo: BPM?, meter: Meter?, accents: AccentPattern? = nil, bar: Int?) {
        self.tempo = tempo
        self.meter = meter
        self.accents = accents
        self.bar = bar
    }

    /// "208 BPM 3/4 at bar 13", "7/8 at the next beat", "accents XxoX at bar 5".
    public var text: String {
        var parts: [String] = []
        if let tempo { parts.append("\(tempo) BPM") }
        if let meter { parts.append("\(meter)") }
        if let accents { parts.append("accents \(accents)") }
        parts.append(bar.map { "at bar \($0)" } ?? "at the next beat")
        return parts.joined(separator: " ")
    }
}
