import Foundation

/// A file written by `tactus-jack-probe record`: audio onsets and MIDI events,
/// each at its absolute JACK frame.
struct Recording {
    struct Onset { var port: Int; var frame: Int64; var value: Float }
    struct Event { var port: Int; var frame: Int64; var bytes: [UInt8] }

    var sampleRate = 0
    var period = 0
    var firstFrame: Int64 = 0
    var endFrame: Int64 = 0
    var onsets: [Onset] = []
    var events: [Event] = []

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            switch f.first {
            case "#":
                var i = 1
                while i + 1 < f.count {
                    switch f[i] {
                    case "rate": sampleRate = Int(f[i + 1]) ?? 0
                    case "period": period = Int(f[i + 1]) ?? 0
                    case "first-frame": firstFrame = Int64(f[i + 1]) ?? 0
                    case "end-frame": endFrame = Int64(f[i + 1]) ?? 0
                    default: break
                    }
                    i += 2
                }
            case "A":
                onsets.append(Onset(port: Int(f[1])!, frame: Int64(f[2])!, value: Float(f[3])!))
            case "M":
                events.append(Event(port: Int(f[1])!, frame: Int64(f[2])!, bytes: f.dropFirst(3).map { UInt8($0, radix: 16)! }))
            default:
                break
            }
        }
    }

    func clicks(port: Int = 1) -> [Int64] { onsets.filter { $0.port == port }.map(\.frame) }
    func ticks(port: Int = 1) -> [Int64] { events.filter { $0.port == port && $0.bytes == [0xF8] }.map(\.frame) }
    func midi(port: Int = 1) -> [Event] { events.filter { $0.port == port } }
}

/// How a series of frames sits on an ideal grid of `interval` frames anchored at
/// its first element: the worst error, the grid step of every element (to find
/// missing or extra ones) and the drift of a least-squares line.
struct GridFit: CustomStringConvertible {
    let count: Int
    let maxError: Double
    /// Worst error against the same grid with its phase chosen best: for a
    /// series whose first element is itself a rounded grid position.
    let fittedError: Double
    /// Elements whose grid index is not the previous one's + 1.
    let gaps: Int
    let driftPPM: Double

    init(_ frames: [Int64], interval: Double) {
        count = frames.count
        guard let first = frames.first else { maxError = .infinity; fittedError = .infinity; gaps = 0; driftPPM = 0; return }
        var worst = 0.0
        var lowest = 0.0, highest = 0.0
        var gaps = 0
        var previousIndex: Int64 = -1
        var indices: [Double] = []
        for f in frames {
            let index = Int64((Double(f - first) / interval).rounded())
            let error = Double(f - first) - Double(index) * interval
            worst = max(worst, abs(error))
            lowest = min(lowest, error)
            highest = max(highest, error)
            if index != previousIndex + 1 { gaps += 1 }
            previousIndex = index
            indices.append(Double(index))
        }
        maxError = worst
        fittedError = (highest - lowest) / 2
        self.gaps = gaps
        // Slope of frame against grid index, compared with the nominal interval.
        let n = Double(frames.count)
        let ys = frames.map { Double($0 - first) }
        let mx = indices.reduce(0, +) / n, my = ys.reduce(0, +) / n
        let sxy = zip(indices, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let sxx = indices.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        driftPPM = sxx > 0 ? (sxy / sxx / interval - 1) * 1e6 : 0
    }

    var description: String { "\(count) events, max error \(maxError) frames (best phase \(fittedError)), \(gaps) gaps, drift \(driftPPM) ppm" }
}
