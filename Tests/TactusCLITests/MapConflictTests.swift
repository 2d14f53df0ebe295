import Foundation
import Testing

/// A tempo map sets each entry's tempo, meter and pattern: `--bpm`, `-m`, `-a`
/// (and klick's positional tempo) with `--map` would be ignored, so they are refused.
@Suite("--map and the options it decides")
struct MapConflictTests {
    @Test func eachConflictIsRefusedNamingBoth() throws {
        let map = NSTemporaryDirectory() + "tactus-conflict-\(UUID().uuidString).map"
        try "8 120\n".write(toFile: map, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: map) }
        let out = NSTemporaryDirectory() + "tactus-conflict-\(UUID().uuidString).wav"
        for (words, option, what) in [(["--bpm", "90"], "--bpm", "the tempo"), (["-b", "90"], "--bpm", "the tempo"),
                                      (["-m", "3/4"], "--meter", "the meter"), (["-a", "X.x."], "--accents", "the accent pattern")] {
            let r = try TactusProcess.run(["render", out, "--map", map] + words)
            #expect(r.status == 2, "\(words)")
            #expect(r.standardError == "tactus: --map and \(option) cannot go together: the map sets \(what) of each entry; leave \(option) out, or write it in the map\n")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let klick = try TactusProcess.run(["--map", map, "7/8", "133", "--no-alsa"])
        #expect(klick.status == 2 && klick.standardError.hasPrefix("tactus: --map and a tempo (klick's form) cannot go together"), "\(klick.standardError)")
        // What the map does not set is still taken.
        let fine = try TactusProcess.run(["render", out, "--map", map, "-d", "eighths", "--gain", "-6"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(fine.status == 0, "\(fine.standardError)")
    }
}
