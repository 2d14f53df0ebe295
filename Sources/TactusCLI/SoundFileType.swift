import CSndfile

/// The file types `tactus render` writes, chosen by the output file's
/// extension as klick's `-W` does, all through libsndfile: WAV (RF64 past
/// 4 GiB), AIFF, FLAC (lossless, 16 or 24 bit) and Ogg Vorbis (lossy, its own
/// sample coding). A name without an extension is a WAV file.
public enum SoundFileType: String, CaseIterable, Sendable {
    case wav, aiff, flac, ogg

    /// Every extension taken, lower case, as the refusal lists them.
    static let extensions: [(String, SoundFileType)] = [("wav", .wav), ("aiff", .aiff), ("aif", .aiff), ("flac", .flac), ("ogg", .ogg)]

    static let list = ".wav, .aiff (.aif), .flac or .ogg"

    /// The type `path` names; a usage error for `-` (a WAV, AIFF or FLAC header
    /// holds the length, written after the audio: libsndfile cannot stream them)
    /// and for an extension not in the list.
    static func of(_ path: String) throws(OptionError) -> SoundFileType {
        if path == "-" {
            throw OptionError("tactus: render writes a file, not standard output ('-'): the file's header is written after the audio; name a file (e.g. click.wav)")
        }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .wav }
        let ext = name[name.index(after: dot)...].lowercased()
        guard let type = extensions.first(where: { $0.0 == ext })?.1 else {
            throw OptionError("tactus: render cannot write '.\(ext)' files (\(path)): it writes \(list), chosen by the extension")
        }
        return type
    }

    /// The `--format` a type cannot hold, as a refusal; nil when it takes it.
    /// `formatGiven`: Ogg Vorbis codes its samples itself, so a `--format` given says nothing.
    func refusal(_ format: Options.WAVFormat, formatGiven: Bool) -> OptionError? {
        switch self {
        case .flac where format == .float:
            OptionError("tactus: --format float and a .flac file: FLAC holds 16 or 24 bit samples (--format 16 or 24), or write .wav or .aiff")
        case .ogg where formatGiven:
            OptionError("tactus: --format and a .ogg file: Ogg Vorbis is lossy and codes its samples itself; leave --format out, or write .wav, .aiff or .flac")
        default: nil
        }
    }

    /// libsndfile's `SF_INFO.format` for this type, `format` and (WAV only) `container`.
    func libsndfileFormat(_ format: Options.WAVFormat, container: WAVContainer) -> Int32 {
        let sub: Int32
        switch format {
        case .pcm16: sub = Int32(SF_FORMAT_PCM_16)
        case .pcm24: sub = Int32(SF_FORMAT_PCM_24)
        case .float: sub = Int32(SF_FORMAT_FLOAT)
        }
        switch self {
        case .wav: return Int32(container == .wav ? SF_FORMAT_WAV : SF_FORMAT_RF64) | sub
        case .aiff: return Int32(SF_FORMAT_AIFF) | sub
        case .flac: return Int32(SF_FORMAT_FLAC) | sub
        case .ogg: return Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        }
    }
}
