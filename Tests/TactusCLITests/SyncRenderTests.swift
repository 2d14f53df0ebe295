import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus render --sync-out KIND`: the sync track in the channels after the
/// click, read back from the file (docs/DESIGN.md §14).
@Suite("tactus render --sync-out")
struct SyncRenderTests {
    func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "tactus-sync-\(UUID().uuidString)-\(name)"
    }

    func risingEdges(_ line: [Float]) -> [Int] {
        line.indices.filter { line[$0] != 0 && ($0 == 0 || line[$0 - 1] == 0) }
    }

    @Test("po at 133 BPM: channel 2 pulses every 8th note for 15 ms at full scale, each beat's on the click's onset")
    func pocketOperatorTrack() throws {
        let wav = temporary("po.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "10", "--bpm", "133", "--sync-out", "po", "--format", "float"])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardOutput.contains("; sync po on channel 2"))
        let (channels, rate) = try WAVReader.readChannels(path: wav)
        #expect(rate == 48_000 && channels.count == 2 && channels[0].count == 480_000)
        let edges = risingEdges(channels[1])
        // An 8th note at 133 BPM is 48 000 × 60 / 266 = 10 827.07 frames: the n-th pulse at that, rounded.
        #expect(edges == (0..<45).map { Int((Double($0) * 48_000 * 60 / 266).rounded()) })
        let onsets = clickOnsets(channels[0])
        #expect(onsets.count == 23)
        #expect(onsets == stride(from: 0, to: edges.count, by: 2).map { edges[$0] })
        for e in edges.dropLast() {
            #expect(channels[1][e..<(e + 720)].allSatisfy { $0 == 1 } && channels[1][e + 720] == 0)
        }
    }

    @Test("din24: channel 2 the clock, 24 a beat, channel 3 the run line high while the song plays")
    func dinSyncTrack() throws {
        let wav = temporary("din.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "2", "--bpm", "120", "--sync-out", "din24", "--format", "24"])
        #expect(r.status == 0, "\(r.standardError)")
        let (channels, _) = try WAVReader.readChannels(path: wav)
        #expect(channels.count == 3)
        // 120 BPM: a 24th of a beat is 1000 frames, the clock high for its first half.
        // 24-bit PCM's full scale is 1 − 2⁻²³ (+1.0 clipped to it).
        let top: Float = 1 - 1.0 / 8_388_608
        #expect(risingEdges(channels[1]) == (0..<96).map { $0 * 1000 })
        #expect(channels[1][0..<500].allSatisfy { $0 == top } && channels[1][500..<1000].allSatisfy { $0 == 0 })
        #expect(channels[2].allSatisfy { $0 == top })
    }

    @Test("ppqn:4 with --sync-width 2 and --sync-reset bar: 96-frame pulses every 16th, a reset on each bar line")
    func modularTrack() throws {
        let wav = temporary("modular.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "5", "--bpm", "120", "--sync-out", "ppqn:4", "--sync-width", "2ms", "--sync-reset", "bar", "--block", "37"])
        #expect(r.status == 0, "\(r.standardError)")
        let (channels, _) = try WAVReader.readChannels(path: wav)
        #expect(channels.count == 3)
        #expect(risingEdges(channels[1]) == (0..<40).map { $0 * 6000 })
        #expect(risingEdges(channels[2]) == [0, 96_000, 192_000])
        #expect(channels[1][0..<96].allSatisfy { $0 != 0 } && channels[1][96] == 0)
        #expect(channels[2][0..<96].allSatisfy { $0 != 0 } && channels[2][96] == 0)
    }

    @Test func withoutSyncOutTheFileIsMono() throws {
        let wav = temporary("mono.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--seconds", "1"])
        #expect(r.status == 0)
        #expect(try WAVReader.readChannels(path: wav).channels.count == 1)
        #expect(!r.standardOutput.contains("; sync"))
    }

    @Test("A bad kind, width or reset: one line naming the option and what it takes")
    func badValuesAreOneClearLine() throws {
        let wav = temporary("bad.wav")
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let cases: [([String], String)] = [
            (["--sync-out", "din96"], "tactus: --sync-out 'din96' is not valid: one of po, volca, din24, din48, ppqn:1, ppqn:2, ppqn:4, ppqn:8, ppqn:24, ppqn:48"),
            (["--sync-out", "ppqn:3"], "tactus: --sync-out 'ppqn:3' is not valid: one of po, volca, din24, din48, ppqn:1, ppqn:2, ppqn:4, ppqn:8, ppqn:24, ppqn:48"),
            (["--sync-out", "po", "--sync-width", "0"], "tactus: --sync-width '0' is not valid: a pulse width in milliseconds from 0.1 to 100"),
            (["--sync-out", "ppqn:24", "--sync-reset", "beat"], "tactus: --sync-reset 'beat' is not valid: bar or off"),
            (["--sync-width", "5"], "tactus: --sync-width and --sync-reset shape a sync track: give --sync-out KIND too (one of po, volca, din24, din48, ppqn:1, ppqn:2, ppqn:4, ppqn:8, ppqn:24, ppqn:48)"),
            (["--sync-out", "volca", "--sync-reset", "bar"], "tactus: --sync-reset bar is for ppqn:N (a modular clock and reset); volca has no reset line"),
        ]
        for (arguments, message) in cases {
            let r = try TactusProcess.run(["render", wav, "--seconds", "1"] + arguments)
            #expect(r.status == 2, "\(arguments)")
            // One line: the message, and for a word near one of the choices, that choice named after it.
            #expect(r.standardError.hasPrefix(message) && r.standardError.filter { $0 == "\n" }.count == 1, "\(arguments): \(r.standardError)")
            #expect(!FileManager.default.fileExists(atPath: wav), "\(arguments)")
        }
        // A near miss is named, as for the other options with choices.
        let near = try TactusProcess.run(["render", wav, "--seconds", "1", "--sync-out", "volka"])
        #expect(near.status == 2 && near.standardError.hasSuffix("(did you mean volca?)\n"))
    }
}

extension SyncRenderTests {
    @Test("A preset's \"sync\" gives render its sync track; --sync-out on the command line wins")
    func presetSync() throws {
        let folder = temporary("presets")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let preset = folder + "/din.json", wav = folder + "/out.wav"
        try #"{ "format": 1, "name": "Din", "tempo": 120, "sync": { "kind": "din24" } }"#.write(toFile: preset, atomically: true, encoding: .utf8)
        let fromPreset = try TactusProcess.run(["render", wav, "--seconds", "1", "--preset", preset])
        #expect(fromPreset.status == 0, "\(fromPreset.standardError)")
        var channels = try WAVReader.readChannels(path: wav).channels
        #expect(channels.count == 3)
        #expect(risingEdges(channels[1]) == (0..<48).map { $0 * 1000 })
        let overridden = try TactusProcess.run(["render", wav, "--seconds", "1", "--preset", preset, "--sync-out", "volca"])
        #expect(overridden.status == 0, "\(overridden.standardError)")
        channels = try WAVReader.readChannels(path: wav).channels
        #expect(channels.count == 2)
        #expect(risingEdges(channels[1]) == (0..<4).map { $0 * 12_000 })
    }
}
