import CSndfile
import TactusCore

/// A sound file (`SoundFileType`) written, or any sound file read, through libsndfile, which does the format work
/// (headers, sample conversion with clipping) so we do not.
public final class WAVWriter {
    private let file: OpaquePointer
    public let path: String

    public init(path: String, sampleRate: Int, format: Options.WAVFormat, channels: Int = 1, container: WAVContainer = .wav,
                type: SoundFileType = .wav) throws(OptionError) {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = type.libsndfileFormat(format, container: container)
        guard let f = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw OptionError(WritableCheck.message(path, library: "libsndfile", String(cString: sf_strerror(nil))), status: OptionError.failureStatus)
        }
        // Clip instead of wrapping around when a float exceeds ±1 (overlapping clicks at high gain).
        sf_command(f, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        file = f
        self.path = path
    }

    public func write(_ samples: UnsafePointer<Float>, frames: Int) throws(OptionError) {
        let written = sf_writef_float(file, samples, sf_count_t(frames))
        guard written == frames else {
            throw OptionError("tactus: writing '\(path)' stopped (the disk full, or the file gone?) (libsndfile: \(String(cString: sf_strerror(file))))",
                              status: OptionError.failureStatus)
        }
    }

    deinit { sf_close(file) }
}

/// Reads a sound file into mono floats at a given rate.
public enum WAVReader {
    public struct Audio {
        public var samples: [Float]
        public var sampleRate: Int
    }

    /// All frames of each channel apart (a render's click and sync tracks, docs/DESIGN.md §14).
    public static func readChannels(path: String) throws(OptionError) -> (channels: [[Float]], sampleRate: Int) {
        var info = SF_INFO()
        guard let f = sf_open(path, Int32(SFM_READ), &info) else {
            throw OptionError("tactus: cannot read '\(path)': \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(f) }
        let count = Int(info.channels), frames = Int(info.frames)
        guard count > 0, frames >= 0, frames <= 10 * 60 * 192_000 else {
            throw OptionError("tactus: '\(path)' is not a usable sound file (channels \(count), frames \(frames))")
        }
        var interleaved = [Float](repeating: 0, count: max(1, frames * count))
        let got = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(f, $0.baseAddress, sf_count_t(frames)) })
        let channels = (0..<count).map { c in (0..<got).map { interleaved[$0 * count + c] } }
        return (channels, Int(info.samplerate))
    }

    /// All frames, channels averaged to mono.
    public static func read(path: String) throws(OptionError) -> Audio {
        var info = SF_INFO()
        guard let f = sf_open(path, Int32(SFM_READ), &info) else {
            throw OptionError("tactus: cannot read '\(path)': \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(f) }
        let channels = Int(info.channels)
        let frames = Int(info.frames)
        guard channels > 0, frames >= 0, frames <= 10 * 60 * 192_000 else {
            throw OptionError("tactus: '\(path)' is not a usable sound file (channels \(channels), frames \(frames))")
        }
        var interleaved = [Float](repeating: 0, count: max(1, frames * channels))
        let got = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(f, $0.baseAddress, sf_count_t(frames)) })
        var mono = [Float](repeating: 0, count: got)
        for i in 0..<got {
            var s: Float = 0
            for c in 0..<channels { s += interleaved[i * channels + c] }
            mono[i] = s / Float(channels)
        }
        return Audio(samples: mono, sampleRate: Int(info.samplerate))
    }

    /// A user's click sample at `sampleRate` (linear interpolation when the rates
    /// differ; a click is short and percussive, so nothing finer is needed).
    public static func clickSample(path: String, sampleRate: Int) throws(OptionError) -> [Float] {
        let audio = try read(path: path)
        guard !audio.samples.isEmpty else { throw OptionError("tactus: '\(path)' has no audio frames") }
        guard audio.sampleRate != sampleRate else { return audio.samples }
        let ratio = Double(audio.sampleRate) / Double(sampleRate)
        let count = max(1, Int(Double(audio.samples.count) / ratio))
        return (0..<count).map { i in
            let x = Double(i) * ratio
            let j = Int(x)
            let t = Float(x - Double(j))
            let a = audio.samples[min(j, audio.samples.count - 1)]
            let b = audio.samples[min(j + 1, audio.samples.count - 1)]
            return a + (b - a) * t
        }
    }
}
