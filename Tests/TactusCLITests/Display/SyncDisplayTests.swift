import Testing
@testable import TactusCLI
import TactusCore

/// `--sync-out` on the display: a row under the JACK row with the kind and
/// its ports, so the musician wiring a device sees which port carries what
/// (docs/DESIGN.md §14.7); none without a sync output.
@Suite("Display: the sync output's row")
struct SyncDisplayTests {
    @Test func theSyncRowFollowsTheJACKRowWithTheKindAndItsPorts() {
        var m = DisplayFixtures.playing
        let sync = "din24 on tactus:sync -> system:playback_3, run line on tactus:sync_run (not connected)"
        m.jack = .connected(JackFigures(server: "default", client: "tactus", sampleRate: 48000, period: 256, xruns: 0, dspLoadPercent: 3, sync: sync))
        let lines = ScreenRenderer(width: 100, height: 24).render(m)
        let jack = lines.firstIndex { $0.hasPrefix("JACK    ") }
        #expect(jack != nil && lines[jack! + 1] == "sync    " + sync, "\(lines)")
        #expect(!ScreenRenderer(width: 100, height: 24).render(DisplayFixtures.playing).contains { $0.hasPrefix("sync ") })
    }
}
