import TactusCore

extension Options {
    /// The bar the options describe: meter, accents (checked against the meter), subdivision.
    public func barSettings(base: BarSettings = BarSettings()) throws(OptionError) -> BarSettings {
        let meter = self.meter ?? base.meter
        let accents = self.accents ?? (self.meter == nil ? base.accents : .standard(beats: meter.beatsPerBar))
        guard accents.count == meter.beatsPerBar else {
            throw OptionError("tactus: --accents '\(accents)' has \(accents.count) beats but the meter \(meter) has \(meter.beatsPerBar): give one symbol a beat")
        }
        var bar = BarSettings(meter: meter, accents: accents, subdivision: subdivision ?? base.subdivision, pulse: pulse ?? base.pulse)
        // A preset's swing rides on its eighths (a --subdivision other than eighths drops it).
        if bar.subdivision == .eighths { bar.swingRatio = base.swingRatio }
        if let swingRatio {
            guard subdivision == nil || subdivision == .eighths else {
                throw OptionError("tactus: --swing swings eighths: it does not go with --subdivision \(bar.subdivision.rawValue)")
            }
            bar.subdivision = .eighths
            bar.swingRatio = swingRatio
        }
        return bar
    }

    /// `--gain` in dB as a linear factor.
    public var linearGain: Float { Float(pow10(gainDecibels / 20)) }
}

private func pow10(_ x: Double) -> Double {
    // 10^x by repeated squaring of e^(x ln 10) would need Foundation; Glibc is enough.
    exp(x * 2.302585092994046)
}

#if canImport(Glibc)
import Glibc
#endif
