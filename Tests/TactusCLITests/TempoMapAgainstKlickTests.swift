import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus render --map F` against `klick -W out.wav -f F` (Debian's klick
/// 0.12): the same tempo map files, the same click onsets. klick truncates a
/// click's position to a frame and Tactus rounds it, so on a constant tempo
/// they agree within 1 frame; on a gradual change klick steps its tempo per
/// beat, so Tactus is held to the exact integral (within 1 frame) and klick's
/// distance from it is printed.
@Suite("Tempo maps against klick", .serialized)
struct TempoMapAgainstKlickTests {
    static let maps: [(name: String, text: String)] = [
        ("constant tempi, silent beats", "intro: 80 120\nverse: 60 97.3 X.x.\n40 3/4 133.33\n30 140 .xX.\n"),
        ("meter changes", "30 7/8 180\n30 5/4 90 Xx.x.\n30 6/8 120 X..x..\n30 2/2 70\n30 3/8 61.7\n"),
        ("per-beat tempo lists", (0..<60).map { n in "1 4/4 \(100 + n),\(105 + n),\(110 + n),\(103 + n)" }.joined(separator: "\n") + "\n"),
        ("ramps up and down", "32 80-160\n32 160-80\n16 3/4 100-101\n24 6/8 70-140 X..x..\n20 200-40\n"),
        ("volume changes", "30 120 0.5\n30 120 1.5\n30 140 X.xx 0.8\n10 2/4 133 x. 0.25\n"),
    ]

    /// Both programs' clicks start on their first sample and are far shorter than a beat.
    func onsets(_ samples: [Float]) -> [Int] { clickOnsets(samples) }

    /// Each heard beat's exact frame, and whether its entry's tempo changes gradually.
    func exactOnsets(_ map: TempoMap, sampleRate: Double) -> [(frame: Double, ramp: Bool)] {
        var result: [(Double, Bool)] = []
        var t = 0.0
        for s in map.sections {
            let quarters = 4 / Double(s.meter.beatUnit)
            let accents = s.accents ?? .standard(beats: s.meter.beatsPerBar)
            for b in 0..<s.beats {
                var ramp = false
                let t0: Double, t1: Double
                switch s.tempo {
                case .constant(let x): (t0, t1) = (x, x)
                case .perBeat(let list): (t0, t1) = (list[b], list[b])
                case .ramp(let a, let z):
                    ramp = true
                    t0 = a + (z - a) * Double(b) / Double(s.beats)
                    t1 = a + (z - a) * Double(b + 1) / Double(s.beats)
                }
                if accents[b % s.meter.beatsPerBar] != .silent { result.append((t * sampleRate, ramp)) }
                // A beat: 60 s × its quarter notes over the logarithmic mean of the tempi at its ends.
                t += quarters * 60 / (t0 == t1 ? t0 : (t1 - t0) / log(t1 / t0))
            }
        }
        return result
    }

    @Test("Five maps, more than 2 000 clicks: constant tempi within 1 frame of klick, ramps within 1 frame of the exact integral")
    func sameOnsetsAsKlick() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/klick"), "klick is a test dependency: apt-get install klick")
        let dir = NSTemporaryDirectory() + "tactus-klick-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var clicks = 0
        for (n, m) in Self.maps.enumerated() {
            let path = "\(dir)/\(n).map"
            try m.text.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try TactusProcess.run(["render", "\(dir)/\(n)-tactus.wav", "--map", path])
            #expect(r.status == 0, "\(r.standardError)")
            let k = Process()
            k.executableURL = URL(fileURLWithPath: "/usr/bin/klick")
            k.arguments = ["-W", "\(dir)/\(n)-klick.wav", "-f", path]
            k.standardOutput = FileHandle.nullDevice
            k.standardError = FileHandle.nullDevice
            try k.run()
            k.waitUntilExit()
            let ours = onsets(try WAVReader.read(path: "\(dir)/\(n)-tactus.wav").samples)
            let theirs = onsets(try WAVReader.read(path: "\(dir)/\(n)-klick.wav").samples)
            let exact = exactOnsets(try TempoMapParser.parse(m.text, file: path), sampleRate: 48_000)
            #expect(ours.count == exact.count, "\(m.name)")
            #expect(theirs.count == exact.count, "\(m.name)")
            var constantWorst = 0, constantCount = 0, rampWorst = 0.0, klickRampWorst = 0.0, klickRampSum = 0.0, rampCount = 0
            for i in 0..<min(ours.count, theirs.count, exact.count) {
                if exact[i].ramp {
                    rampWorst = max(rampWorst, abs(Double(ours[i]) - exact[i].frame))
                    let d = Double(theirs[i]) - exact[i].frame
                    klickRampWorst = max(klickRampWorst, abs(d))
                    klickRampSum += abs(d)
                    rampCount += 1
                } else {
                    constantWorst = max(constantWorst, abs(ours[i] - theirs[i]))
                    constantCount += 1
                }
            }
            #expect(constantWorst <= 1, "\(m.name)")
            #expect(rampWorst <= 1, "\(m.name)")
            print("tempo map '\(m.name)': \(ours.count) clicks (klick \(theirs.count))"
                  + (constantCount == 0 ? "" : "; \(constantCount) at a constant tempo: at most \(constantWorst) frame from klick")
                  + (rampCount == 0 ? "" : "; \(rampCount) ramp clicks: Tactus at most \(Format.decimal(rampWorst, decimals: 3)) frame from the exact integral, "
                     + "klick at most \(Format.decimal(klickRampWorst, decimals: 1)) (mean \(Format.decimal(klickRampSum / Double(rampCount), decimals: 1)))"))
            clicks += ours.count
        }
        print("tempo maps against klick: \(clicks) clicks in \(Self.maps.count) maps")
        #expect(clicks >= 2_000)
    }

    static let malformed: [(text: String, line: String)] = [
        ("8 120\n4 7/3 120\n", "2:3: '7/3' is not a meter"),
        ("4 0\n", "1:3: the tempo 0 is out of range"),
        ("1 3/4 100,110\n", "1:7: 2 tempi for an entry of 3 beats"),
        ("4 120 Xxqx\n", "1:9: 'q' is not a pattern symbol"),
        ("a: 4 120\na: 4 120\n", "2:1: the label 'a' is already used on line 1"),
    ]

    @Test("A malformed map: one line with file:line:column, exit 2, no file written and nothing played", arguments: 0..<malformed.count)
    func malformedMapStopsEverything(index: Int) throws {
        let (text, expected) = Self.malformed[index]
        let map = NSTemporaryDirectory() + "tactus-bad-\(UUID().uuidString).map"
        let wav = map + ".wav"
        try text.write(toFile: map, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: map) }
        let r = try TactusProcess.run(["render", wav, "--map", map])
        #expect(r.status == 2)
        let lines = r.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("tactus: \(map):\(expected)") == true, "\(r.standardError)")
        #expect(!FileManager.default.fileExists(atPath: wav))
        // The run command refuses it before it opens JACK.
        let run = try TactusProcess.run(["--map", map, "--no-alsa", "--no-interactive", "-s", "tactus-no-such-server"])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("tactus: \(map):\(expected)"))
    }

    @Test("--start-at plays from the label; an unknown label names the labels there are")
    func startAt() throws {
        let map = NSTemporaryDirectory() + "tactus-labels-\(UUID().uuidString).map"
        try "intro: 2 120\nverse: 1 60\n".write(toFile: map, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: map) }
        let wav = map + ".wav"
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let r = try TactusProcess.run(["render", wav, "--map", map, "--start-at", "verse"])
        #expect(r.status == 0)
        #expect(onsets(try WAVReader.read(path: wav).samples) == [0, 48_000, 96_000, 144_000])
        let bad = try TactusProcess.run(["render", wav, "--map", map, "--start-at", "chorus"])
        #expect(bad.status == 2)
        #expect(bad.standardError == "tactus: --start-at 'chorus': no entry of \(map) has that label (its labels: intro, verse)\n")
    }
}
