import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// `tactus render OUT.wav --seconds N`: a practice click track (WAV, AIFF, FLAC
/// or Ogg Vorbis by the extension, `SoundFileType`), rendered offline by
/// the same `Engine.render` the JACK callback calls, block by block.
public enum RenderCommand {
    public struct Summary: Sendable {
        public var frames: Int64
        public var midiEvents: Int
        public var clicks: Int
        public var seconds: Double
        /// RF64 past a WAV file's 4 GiB.
        public var container: WAVContainer
        /// The sync track's settings, in the channels after the click (docs/DESIGN.md §14); nil: none.
        public var sync: SyncSettings? = nil
    }

    public static func run(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil) -> Int32 {
        do {
            let summary = try render(options, tempo: tempo, bar: bar)
            let realtime = summary.seconds > 0 ? Double(summary.frames) / Double(options.sampleRate) / summary.seconds : 0
            let line = "tactus: rendered \(summary.frames) frames (\(format(Double(summary.frames) / Double(options.sampleRate))) s at \(options.sampleRate) Hz) to \(options.arguments[0])\(summary.container == .rf64 ? " (RF64: more than a WAV file's 4 GiB)" : "") in \(format(summary.seconds)) s (\(Int(realtime))x realtime), \(counted(summary.clicks, "click")), \(counted(summary.midiEvents, "MIDI event"))\(syncNote(summary.sync))"
            // Standard output is the MIDI log's with `--midi-log -`: the summary goes beside it.
            if options.midiLog == "-" { printError(line) } else { print(line) }
            return 0
        } catch {
            printError(error.message)
            return error.status
        }
    }

    /// `; sync po on channel 2`, `; sync din24 on channel 2, run line on 3`.
    static func syncNote(_ sync: SyncSettings?) -> String {
        guard let sync else { return "" }
        let second = sync.kind.hasRunLine ? ", run line on 3" : sync.hasSecondLine ? ", reset on 3" : ""
        return "; sync \(sync.kind.spelling) on channel 2\(second)"
    }

    /// Renders to the file `options.arguments[0]`, RF64 when a WAV file cannot
    /// hold it (`WAVContainer`; `container` forces one); throws a one-line error.
    /// With `--sync-out` the file has a channel a sync line after the click's:
    /// channel 1 the click, 2 the sync pulses, 3 the run or reset line when the
    /// kind has one (docs/DESIGN.md §14).
    public static func render(_ options: Options, tempo: BPM? = nil, bar: BarSettings? = nil,
                              container: WAVContainer? = nil) throws(OptionError) -> Summary {
        guard options.arguments.count == 1 else {
            // A second word is named: a port left over from run, a value whose option was forgotten.
            let stray = options.arguments.dropFirst().map { "'\($0)'" }.joined(separator: ", ")
            throw OptionError("tactus: render needs exactly one output file: tactus render OUT.wav --seconds N"
                              + (options.arguments.isEmpty ? "" : " (\(stray) is one word too many\(options.arguments.dropFirst().contains { $0.contains(":") } ? "; JACK ports belong to run" : ""))"))
        }
        let type = try SoundFileType.of(options.arguments[0])
        if let refusal = type.refusal(options.wavFormat, formatGiven: options.wavFormatGiven) { throw refusal }
        let sampleRate = options.sampleRate
        let map = options.tempoMap.map { MapTimeline($0, loops: options.mapLoop, subdivision: options.subdivision ?? .none, pulse: options.pulse ?? .beat) }
        defer { map?.deallocate() }
        let totalFrames: Int64
        if let seconds = options.seconds {
            totalFrames = Int64((seconds * Double(sampleRate)).rounded())
        } else if let map, !map.loops {
            // The whole map, and the frame of its last bar line, where the Stop goes out.
            totalFrames = Int64((map.seconds * Double(sampleRate)).rounded()) + 1
        } else {
            throw OptionError("tactus: render needs --seconds N: the length of the click track" + (map == nil ? "" : " (a looping map never ends)"))
        }
        let settings: BarSettings
        if let bar { settings = bar } else { settings = try options.barSettings() }
        let sync = try options.syncSettings()
        let channels = 1 + (sync?.channels ?? 0)
        let sounds = try options.soundSet(sampleRate: sampleRate)
        defer { sounds.deallocate() }
        var gains = options.soundGains
        gains.master = options.linearGain
        let configuration = EngineConfiguration(
            sampleRate: sampleRate, tempo: tempo ?? options.tempo ?? BPM(120), bar: settings, gains: gains,
            clockOffsetFrames: options.clock.offsetFrames(sampleRate: sampleRate),
            clockWhileStopped: options.clock.sendWhileStopped, sendSongPosition: options.clock.sendSongPosition, muted: options.mute,
            map: map, countIn: options.countIn, trainer: options.trainer, gap: options.gapTrainer, sync: sync)

        let container = container ?? WAVContainer.needed(frames: totalFrames, channels: channels, format: options.wavFormat)
        // The log first: when it cannot be written, no sound file is left behind.
        var log: UnsafeMutablePointer<FILE>?
        if let path = options.midiLog {
            // `-`: standard output, through a descriptor of its own so closing the log leaves it open.
            guard let f = path == "-" ? fdopen(dup(1), "w") : fopen(path, "w") else {
                let why = String(cString: strerror(errno))
                throw OptionError("tactus: --midi-log: " + WritableCheck.message(path, library: "system", why).dropFirst("tactus: ".count),
                                  status: OptionError.failureStatus)
            }
            log = f
        }
        defer { if let log { fclose(log) } }
        let writer = try WAVWriter(path: options.arguments[0], sampleRate: sampleRate, format: options.wavFormat, channels: channels,
                                   container: container, type: type)

        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        var engine = Engine(configuration: configuration, sounds: sounds)
        var events = MIDIEventBuffer(capacity: 4096)
        // No time source: the engine's own anchor.
        var ownTime = GivenPosition()
        control.pointee.commands.push(.start)

        // Blocks are rendered into one larger chunk so libsndfile is called rarely.
        let block = options.blockSize
        let chunkFrames = max(block, (65_536 / block) * block)
        let chunk = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames)
        defer { chunk.deallocate() }
        // The sync lines (clock, then run or reset), and the frames interleaved for the file.
        let lines = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * 2)
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: channels > 1 ? chunkFrames * channels : 1)
        defer { lines.deallocate(); interleaved.deallocate() }
        var eventCount = 0
        var frame: Int64 = 0
        let started = monotonicSeconds()
        while frame < totalFrames {
            var filled = 0
            while filled < chunkFrames && frame < totalFrames {
                let n = Int(min(Int64(block), totalFrames - frame))
                engine.cycle(CycleInput(start: frame, frames: n), source: &ownTime, control: control.pointee,
                             click: chunk + filled, feedback: nil, events: &events,
                             sync: SyncBuffers(clock: lines + filled, second: lines + chunkFrames + filled))
                eventCount += events.count
                if let log { writeLog(events, to: log) }
                filled += n
                frame += Int64(n)
            }
            if channels == 1 {
                try writer.write(chunk, frames: filled)
            } else {
                for i in 0..<filled {
                    interleaved[i * channels] = chunk[i]
                    interleaved[i * channels + 1] = lines[i]
                    if channels > 2 { interleaved[i * channels + 2] = lines[chunkFrames + i] }
                }
                try writer.write(interleaved, frames: filled)
            }
        }
        // Stop after the last frame: the log ends with Stop and the Song Position.
        control.pointee.commands.push(.stop)
        // One more frame (not written to the file) carries them out of the engine.
        engine.cycle(CycleInput(start: frame, frames: 1), source: &ownTime, control: control.pointee, click: nil, feedback: nil, events: &events)
        if let log { writeLog(events, to: log) }
        eventCount += events.count
        return Summary(frames: totalFrames, midiEvents: eventCount,
                       clicks: control.pointee.status.clicksPlayed.load(ordering: .relaxed), seconds: monotonicSeconds() - started,
                       container: container, sync: sync)
    }

    private static func writeLog(_ events: borrowing MIDIEventBuffer, to file: UnsafeMutablePointer<FILE>) {
        for i in 0..<events.count { fputs(MIDILog.line(events[i]) + "\n", file) }
    }
}

/// `1 click`, `2 clicks`.
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func format(_ x: Double) -> String {
    let r = (x * 100).rounded() / 100
    return String(r)
}

/// One line on standard error.
public func printError(_ message: String) {
    // Unbuffered write(2): safe from any thread, and no shared FILE* state.
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
