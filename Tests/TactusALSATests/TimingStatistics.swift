/// Percentiles and spread of a set of timing measurements, in milliseconds, the
/// way the benchmark and the issue report them.
struct TimingStatistics: CustomStringConvertible {
    var count: Int
    var p50: Double
    var p95: Double
    var maximum: Double
    var mean: Double
    var standardDeviation: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        guard !sorted.isEmpty else { p50 = 0; p95 = 0; maximum = 0; mean = 0; standardDeviation = 0; return }
        p50 = sorted[sorted.count / 2]
        p95 = sorted[Int(0.95 * Double(sorted.count - 1))]
        maximum = sorted.last!
        mean = sorted.reduce(0, +) / Double(sorted.count)
        let m = mean
        standardDeviation = (sorted.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(sorted.count)).squareRoot()
    }

    var description: String {
        "n=\(count) p50=\(Self.format(p50)) p95=\(Self.format(p95)) max=\(Self.format(maximum)) mean=\(Self.format(mean)) sd=\(Self.format(standardDeviation)) ms"
    }

    static func format(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
