import CSndfile
import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// A render a RIFF WAV cannot describe (its sizes are 32-bit)
/// is written as RF64; the decision is made from the length before the file is opened.
@Suite("tactus render: RF64 past 4 GiB")
struct RenderRF64Tests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-rf64-\(UUID().uuidString)-\(name)"
    }

    /// libsndfile's container type of the file at `path`.
    func containerType(_ path: String) -> Int32 {
        var info = SF_INFO()
        guard let f = sf_open(path, Int32(SFM_READ), &info) else { return -1 }
        sf_close(f)
        return info.format & Int32(SF_FORMAT_TYPEMASK)
    }

    @Test func item13_rendersPast4GiBAreRF64() throws {
        // The largest RIFF size is 2³² − 1 = 4 294 967 295: header − 8 + data (+ a pad byte when odd).
        // 16-bit mono: 36 + 2 × 2 147 483 629 = 4 294 967 294 fits; one frame more does not.
        #expect(WAVContainer.needed(frames: 2_147_483_629, channels: 1, format: .pcm16) == .wav)
        #expect(WAVContainer.needed(frames: 2_147_483_630, channels: 1, format: .pcm16) == .rf64)
        // 24-bit: 36 + 3 × 1 431 655 752 = 4 294 967 292 fits; 1 431 655 753 frames are 4 294 967 259 bytes, padded to 4 294 967 260.
        #expect(WAVContainer.needed(frames: 1_431_655_752, channels: 1, format: .pcm24) == .wav)
        #expect(WAVContainer.needed(frames: 1_431_655_753, channels: 1, format: .pcm24) == .rf64)
        // float: 72 + 4 × 1 073 741 805 = 4 294 967 292 fits.
        #expect(WAVContainer.needed(frames: 1_073_741_805, channels: 1, format: .float) == .wav)
        #expect(WAVContainer.needed(frames: 1_073_741_806, channels: 1, format: .float) == .rf64)
        // The render: 6000 s of float at 192 kHz, 4 608 000 080 bytes.
        #expect(WAVContainer.riffSize(frames: 6000 * 192_000, channels: 1, format: .float) == 4_608_000_072)
        #expect(WAVContainer.needed(frames: 6000 * 192_000, channels: 1, format: .float) == .rf64)
        #expect(WAVContainer.needed(frames: Int64.max / 2, channels: 2, format: .float) == .rf64)

        // The arithmetic is libsndfile's: the file's length and its RIFF size field, for odd and even data.
        for format in Options.WAVFormat.allCases {
            for frames in [1, 48_000] {
                let path = temporary("header-\(format.rawValue).wav")
                defer { try? FileManager.default.removeItem(atPath: path) }
                do {
                    let writer = try WAVWriter(path: path, sampleRate: 48_000, format: format)
                    try writer.write([Float](repeating: 0.25, count: frames), frames: frames)
                }
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let riffSize = Int64(bytes[4]) | Int64(bytes[5]) << 8 | Int64(bytes[6]) << 16 | Int64(bytes[7]) << 24
                #expect(riffSize == WAVContainer.riffSize(frames: Int64(frames), channels: 1, format: format), "\(format) \(frames)")
                #expect(Int64(bytes.count) == riffSize + 8, "\(format) \(frames)")
            }
        }

        // A render forced to RF64 reads back through libsndfile with the same samples as the WAV one.
        let wav = temporary("click.wav"), rf64 = temporary("click.rf64.wav")
        defer { try? FileManager.default.removeItem(atPath: wav); try? FileManager.default.removeItem(atPath: rf64) }
        #expect(try RenderCommand.render(try OptionParser.parse(["render", wav, "--seconds", "2", "--format", "float", "-b", "133"])).container == .wav)
        #expect(try RenderCommand.render(try OptionParser.parse(["render", rf64, "--seconds", "2", "--format", "float", "-b", "133"]), container: .rf64).container == .rf64)
        #expect(containerType(wav) == Int32(SF_FORMAT_WAV))
        #expect(containerType(rf64) == Int32(SF_FORMAT_RF64))
        #expect(try Data(contentsOf: URL(fileURLWithPath: rf64)).prefix(4) == Data("RF64".utf8))
        let a = try WAVReader.read(path: wav), b = try WAVReader.read(path: rf64)
        #expect(b.sampleRate == 48_000 && b.samples.count == 96_000)
        #expect(a.samples == b.samples)
    }
}
