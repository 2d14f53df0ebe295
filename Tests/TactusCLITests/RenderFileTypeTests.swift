import CSndfile
import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus render` writes the type the file's name promises (libsndfile, as
/// klick's -W), refuses what it cannot write in one line, and exits as the
/// manual's EXIT STATUS says: 1 for a file that cannot be written (our reason
/// first), 2 for usage.
@Suite("tactus render: file types and exit statuses")
struct RenderFileTypeTests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-render-type-\(UUID().uuidString)-\(name)"
    }

    /// The file's major format as libsndfile reads it, and its frames, mono.
    func readBack(_ path: String) throws -> (format: Int32, samples: [Float]) {
        var info = SF_INFO()
        let f = try #require(sf_open(path, Int32(SFM_READ), &info), "libsndfile reads \(path)")
        defer { sf_close(f) }
        var samples = [Float](repeating: 0, count: Int(info.frames))
        let got = samples.withUnsafeMutableBufferPointer { sf_readf_float(f, $0.baseAddress, info.frames) }
        #expect(got == info.frames && info.channels == 1 && info.samplerate == 48_000)
        return (info.format & Int32(SF_FORMAT_TYPEMASK), samples)
    }

    /// Onsets of a lossy file: the first sample past a third of full scale after
    /// 50 ms below it (Vorbis leaves no exact zeros in the silence).
    func loudOnsets(_ samples: [Float]) -> [Int] {
        var result: [Int] = []
        var quiet = 2400
        for (i, s) in samples.enumerated() {
            if abs(s) > 0.3 && quiet >= 2400 { result.append(i) }
            quiet = abs(s) > 0.3 ? 0 : quiet + 1
        }
        return result
    }

    @Test func aiffFlacAndOggAreWhatTheirNamesSayWithTheWAVsOnsets() throws {
        let wav = temporary("c.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let arguments = ["--seconds", "4", "--bpm", "97.3", "-d", "triplets"]
        #expect(try TactusProcess.run(["render", wav] + arguments).status == 0)
        let reference = try readBack(wav)
        #expect(reference.format == Int32(SF_FORMAT_WAV))
        let onsets = clickOnsets(reference.samples)
        #expect(onsets.count == 20, "7 beats and their triplets in 4 s at 97.3")
        for (ext, format, exact) in [("aiff", SF_FORMAT_AIFF, true), ("AIF", SF_FORMAT_AIFF, true), ("flac", SF_FORMAT_FLAC, true), ("ogg", SF_FORMAT_OGG, false)] {
            let path = temporary("c.\(ext)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let r = try TactusProcess.run(["render", path] + arguments)
            #expect(r.status == 0, "\(ext): \(r.standardError)")
            let file = try readBack(path)
            #expect(file.format == Int32(format), "\(ext)")
            #expect(file.samples.count == reference.samples.count, "\(ext)")
            if exact {
                // Lossless 16 bit: the same samples, so the same onsets.
                #expect(clickOnsets(file.samples) == onsets, "\(ext)")
                let worst = zip(file.samples, reference.samples).map { abs($0 - $1) }.max() ?? 1
                #expect(worst <= 1.0 / 32_768 + 1e-6, "\(ext): at most one 16-bit step apart, \(worst)")
            } else {
                // Vorbis is lossy: the same clicks, each within 1 ms (48 frames) of the WAV's.
                let lossy = loudOnsets(file.samples), exactLoud = loudOnsets(reference.samples)
                #expect(lossy.count == exactLoud.count && exactLoud.count >= 7, "\(lossy) \(exactLoud)")
                for (a, b) in zip(lossy, exactLoud) { #expect(abs(a - b) <= 48, "ogg onset \(a), WAV \(b)") }
            }
        }
        // 24 bit FLAC too.
        let flac24 = temporary("c24.flac")
        defer { try? FileManager.default.removeItem(atPath: flac24) }
        #expect(try TactusProcess.run(["render", flac24, "--format", "24"] + arguments).status == 0)
        var info = SF_INFO()
        if let f = sf_open(flac24, Int32(SFM_READ), &info) { sf_close(f) }
        #expect(info.format == Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_24))
    }

    @Test func whatCannotBeWrittenIsRefusedInOneLine() throws {
        let mp3 = temporary("x.mp3")
        let r = try TactusProcess.run(["render", mp3, "--seconds", "1"])
        #expect(r.status == 2)
        #expect(r.standardError == "tactus: render cannot write '.mp3' files (\(mp3)): it writes .wav, .aiff (.aif), .flac or .ogg, chosen by the extension\n")
        #expect(!FileManager.default.fileExists(atPath: mp3))
        let dash = try TactusProcess.run(["render", "-", "--seconds", "1"])
        #expect(dash.status == 2 && dash.standardOutput.isEmpty)
        #expect(dash.standardError == "tactus: render writes a file, not standard output ('-'): the file's header is written after the audio; name a file (e.g. click.wav)\n")
        let float = try TactusProcess.run(["render", temporary("x.flac"), "--seconds", "1", "--format", "float"])
        #expect(float.status == 2 && float.standardError.hasPrefix("tactus: --format float and a .flac file: "), "\(float.standardError)")
        let ogg = try TactusProcess.run(["render", temporary("x.ogg"), "--seconds", "1", "--format", "16"])
        #expect(ogg.status == 2 && ogg.standardError.hasPrefix("tactus: --format and a .ogg file: "), "\(ogg.standardError)")
    }

    /// EXIT STATUS: 1 for a file that cannot be written, with our reason before
    /// libsndfile's; 2 for a bad value and an unknown command.
    @Test func exitStatusesAreTheManualsOwn() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/x.wav"
        let r = try TactusProcess.run(["render", missing, "--seconds", "1"])
        #expect(r.status == 1)
        #expect(r.standardError.hasPrefix("tactus: cannot write '\(missing)': the folder \((missing as NSString).deletingLastPathComponent) does not exist (libsndfile: "),
                "\(r.standardError)")
        #expect(r.standardError.split(separator: "\n").count == 1)
        // A file nobody may write (root too: the kernel refuses writes to it).
        let readOnly = try TactusProcess.run(["render", "/proc/version", "--seconds", "1"])
        #expect(readOnly.status == 1)
        #expect(readOnly.standardError.hasPrefix("tactus: cannot write '/proc/version': "), "\(readOnly.standardError)")
        let folder = try TactusProcess.run(["render", NSTemporaryDirectory(), "--seconds", "1"])
        #expect(folder.status == 1 && folder.standardError.contains("': it is a folder (libsndfile: "), "\(folder.standardError)")
        let y = temporary("y.wav")
        let log = try TactusProcess.run(["render", y, "--seconds", "1", "--midi-log", "/nonexistent-folder/m.log"])
        #expect(!FileManager.default.fileExists(atPath: y), "the log is opened first: no sound file left")
        #expect(log.status == 1)
        #expect(log.standardError == "tactus: --midi-log: cannot write '/nonexistent-folder/m.log': the folder /nonexistent-folder does not exist (system: No such file or directory)\n")
        #expect(try TactusProcess.run(["render", temporary("z.wav"), "--seconds", "0"]).status == 2)
        #expect(try TactusProcess.run(["rendr", "z.wav"]).status == 2)
        #expect(try TactusProcess.run(["render", temporary("z.wav"), "--bogus"]).status == 2)
    }
}
