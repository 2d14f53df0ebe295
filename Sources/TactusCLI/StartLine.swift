import TactusCore

/// The line `tactus run` prints at start: the tempo, where it came from when
/// the player did not choose it (so a tempo left by last night's pressure hold
/// is no surprise), the bar, and how to quit.
enum StartLine {
    enum TempoSource: Equatable {
        /// `--bpm`.
        case commandLine
        /// klick's form: its tempo counts quarter notes.
        case klick(quarterNotes: BPM)
        case preset(name: String)
        /// Saved by the last run (`LastTempoStore`).
        case lastTempo
        /// 120, nothing else said.
        case standard
    }

    /// Where the run's tempo came from: the same order `RunCommand` follows
    /// (`--bpm`, the preset, the last tempo, 120).
    static func source(_ options: Options, preset: PresetEntry?, lastTempo: LastTempoStore) -> TempoSource {
        if let quarter = options.quarterNoteTempo { return .klick(quarterNotes: quarter) }
        if options.tempo != nil { return .commandLine }
        if let preset { return .preset(name: preset.preset.name) }
        // A damaged file was reported when it was read; the run then starts at 120.
        if (try? lastTempo.load()) != nil { return .lastTempo }
        return .standard
    }

    static func text(tempo: BPM, source: TempoSource, bar: BarSettings, startStopped: Bool) -> String {
        let origin: String
        switch source {
        case .commandLine: origin = ""
        case .klick(let quarter): origin = bar.meter.beatUnit == 4 ? "" : " (\(unitName(bar.meter.beatUnit)): \(quarter) quarter notes a minute, as klick counts)"
        case .preset(let name): origin = " (preset \(name))"
        case .lastTempo: origin = " (the last tempo; --bpm or a preset to choose another)"
        case .standard: origin = " (the default; --bpm or a preset to choose another)"
        }
        return "tactus: \(tempo) BPM\(origin), \(bar.meter) \(bar.accents), \(bar.subdivision == .none ? "no subdivision" : bar.subdivision.rawValue)"
            + (startStopped ? "; stopped, waiting for start" : "") + "; Ctrl-C to quit"
    }

    static func text(_ options: Options, tempo: BPM, bar: BarSettings, preset: PresetEntry?, lastTempo: LastTempoStore, startStopped: Bool) -> String {
        text(tempo: tempo, source: source(options, preset: preset, lastTempo: lastTempo), bar: bar, startStopped: startStopped)
    }

    /// The note a beat of `beatUnit` is, in words.
    static func unitName(_ beatUnit: Int) -> String {
        switch beatUnit {
        case 1: "whole notes"
        case 2: "half notes"
        case 4: "quarter notes"
        case 8: "eighths"
        case 16: "sixteenths"
        default: "thirty-second notes"
        }
    }
}
