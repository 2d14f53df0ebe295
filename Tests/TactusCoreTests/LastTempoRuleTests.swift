import Testing
import TactusCore

/// The last tempo's rule (README "The last tempo", docs/DESIGN.md §5.7, §12.2),
/// for every source and every wish that sets a tempo.
@Suite("The last tempo's rule: which tempi are the player's, from every source")
struct LastTempoRuleTests {
    static let sources: [IntentSource] = [.keys, .controller, .action(.note(UInt7(36)!)), .action(.controlChange(UInt7(64)!)),
                                          .remote("OSC 127.0.0.1")]

    @Test func aTapIsKeptFromEverySourceAStepOrTypedTempoFromAllButOSC() {
        for source in Self.sources {
            let remote = source == .remote("OSC 127.0.0.1")
            #expect(LastTempo.keeps(.tap, from: source), "\(source)")
            #expect(LastTempo.keeps(.tempoStep(hundredths: 100), from: source) == !remote, "\(source)")
            #expect(LastTempo.keeps(.tempoStep(hundredths: -1000), from: source) == !remote, "\(source)")
            #expect(LastTempo.keeps(.tempo(BPM(96)), from: source) == !remote, "\(source)")
        }
    }

    @Test func aPresetOrAnythingElseIsNotKept() {
        let others: [PlayerIntent] = [.nextPreset, .previousPreset, .presetProgram(UInt7(1)!), .presetNamed(RemoteText("A")!),
                                      .start, .stop, .startStop, .countIn, .toggleMute, .meter(Meter("3/4")!), .quit]
        for source in Self.sources {
            for intent in others { #expect(!LastTempo.keeps(intent, from: source), "\(intent) from \(source)") }
        }
    }

    @Test func aKeptTempoIsDueTwoSecondsLaterAndARemoteStepNever() {
        var last = LastTempo()
        last.set(BPM(96), by: .tempoStep(hundredths: 100), from: .remote("OSC 127.0.0.1"), at: .seconds(1))
        #expect(last.deadline == nil)
        #expect(last.flush() == nil)
        last.set(BPM(121), by: .tempoStep(hundredths: 100), from: .action(.controlChange(UInt7(64)!)), at: .seconds(1))
        #expect(last.deadline == .seconds(3))
        #expect(last.due(at: ControlTime(microseconds: 2_999_999)) == nil)
        #expect(last.due(at: .seconds(3)) == BPM(121))
        last.holdEnded(at: BPM(130), time: .seconds(4))
        #expect(last.due(at: .seconds(6)) == BPM(130))
    }
}
