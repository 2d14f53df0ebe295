/// RIFF WAV or RF64 for a file of a known length, decided before it is opened.
///
/// A RIFF file's sizes are 32-bit: the RIFF chunk's size (the file's length
/// less its first 8 bytes) and the data chunk's size cannot pass 2³² − 1, so
/// a longer render written as WAV has wrapped sizes and plays as garbage after
/// the wrap. RF64 (EBU Tech 3306) is WAV with 64-bit sizes in a `ds64` chunk,
/// written by libsndfile (`SF_FORMAT_RF64`) and read by sox, ffmpeg and DAWs;
/// files that fit stay plain WAV, which every program reads.
public enum WAVContainer: Sendable, Equatable {
    case wav
    case rf64

    /// The largest value of a 32-bit RIFF size field.
    static let riffSizeLimit = Int64(UInt32.max)

    /// The container a mono or multichannel file of `frames` frames needs.
    public static func needed(frames: Int64, channels: Int, format: Options.WAVFormat) -> WAVContainer {
        riffSize(frames: frames, channels: channels, format: format) <= riffSizeLimit ? .wav : .rf64
    }

    /// The RIFF chunk size libsndfile would write: the file less the 8 bytes of
    /// "RIFF" and the size itself; an odd data chunk is followed by a pad byte (RIFF rule).
    static func riffSize(frames: Int64, channels: Int, format: Options.WAVFormat) -> Int64 {
        let (data, overflow) = frames.multipliedReportingOverflow(by: Int64(channels * format.bytesPerSample))
        guard !overflow else { return Int64.max }
        return headerBytes(format, channels: channels) - 8 + data + data % 2
    }

    /// The bytes before the samples in libsndfile's WAV file: "RIFF", its size,
    /// "WAVE", the 24-byte `fmt ` chunk and the data chunk's name and size (44);
    /// float adds a `fact` chunk (12) and a `PEAK` chunk (16 + 8 a channel).
    /// Checked against files libsndfile writes by `WAVContainerTests`.
    static func headerBytes(_ format: Options.WAVFormat, channels: Int) -> Int64 {
        switch format {
        case .pcm16, .pcm24: 44
        case .float: 44 + 12 + 16 + 8 * Int64(channels)
        }
    }
}

extension Options.WAVFormat {
    public var bytesPerSample: Int {
        switch self {
        case .pcm16: 2
        case .pcm24: 3
        case .float: 4
        }
    }
}
