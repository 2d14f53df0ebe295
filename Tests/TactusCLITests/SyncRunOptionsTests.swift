import Testing
@testable import TactusCLI
import TactusCore

/// `tactus run --sync-out KIND` (docs/DESIGN.md §14.7): the sync settings
/// reach the JACK client's engine with the connections of its ports, and a
/// connection for a port the kind does not have is refused in one line.
@Suite("tactus run --sync-out")
struct SyncRunOptionsTests {
    @Test func theKindAndTheConnectionsReachTheJACKOptions() throws {
        let options = try OptionParser.parse(["--sync-out", "ppqn:4", "--sync-reset", "bar", "--sync-width", "2",
                                              "--connect-sync", "system:playback_3", "--connect-sync-run", "system:playback_4"])
        let jack = try RunCommand.jackOptions(options, tempo: BPM(120))
        #expect(jack.engine.sync == SyncSettings(kind: .ppqn(4), widthMilliseconds: 2, reset: .bar))
        #expect(jack.syncConnections == ["system:playback_3"] && jack.syncRunConnections == ["system:playback_4"])
        #expect(try RunCommand.jackOptions(try OptionParser.parse([]), tempo: BPM(120)).engine.sync == nil)
    }

    @Test func aConnectionForAPortThatIsNotThereIsRefused() throws {
        let all = SyncKind.spellings.joined(separator: ", ")
        let cases: [([String], String)] = [
            (["--connect-sync", "system:playback_1"],
             "tactus: --connect-sync and --connect-sync-run connect the sync ports: give --sync-out KIND too (one of \(all))"),
            (["--sync-out", "po", "--connect-sync-run", "system:playback_2"],
             "tactus: --connect-sync-run connects sync_run, the run line of din24 and din48 or the reset line of ppqn:N with --sync-reset bar; po has none"),
            (["--sync-out", "ppqn:24", "--connect-sync-run", "system:playback_2"],
             "tactus: --connect-sync-run connects sync_run, the run line of din24 and din48 or the reset line of ppqn:N with --sync-reset bar; ppqn:24 without --sync-reset bar has none"),
            (["--sync-out", "volca", "--sync-reset", "bar"],
             "tactus: --sync-reset bar is for ppqn:N (a modular clock and reset); volca has no reset line"),
        ]
        for (words, message) in cases {
            #expect(throws: OptionError(message), "\(words)") { try RunCommand.jackOptions(try OptionParser.parse(words), tempo: BPM(120)) }
        }
        #expect(throws: Never.self) { try RunCommand.jackOptions(try OptionParser.parse(["--sync-out", "din24", "--connect-sync-run", "x:y"]), tempo: BPM(120)) }
    }
}
