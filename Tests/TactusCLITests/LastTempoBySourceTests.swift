import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// Where a wish comes from, driven on the session harness's virtual clock the
/// way the run drives it: the terminal's keys, a button (a Note bound in
/// controller.json), a pedal (a Control Change bound there), an OSC client.
enum WishSource: String, CaseIterable, CustomStringConvertible, Sendable {
    case keys, button, pedal, osc
    var description: String { rawValue }
}

/// The last-tempo file as the run writes it (`LastTempoStore` under a temporary
/// folder), a session on a virtual clock, and the four sources bound.
final class LastTempoFileHarness {
    let h: SessionHarness
    let store: LastTempoStore
    static let stepButton = UInt7(36)!, tapButton = UInt7(37)!
    static let stepPedal = UInt7(66)!, tapPedal = UInt7(64)!
    let ch = SessionHarness.channel

    init(folder: String, tempo: Double) {
        h = SessionHarness(tempo: tempo)
        let store = LastTempoStore(path: folder + "/state/tactus/last-tempo")
        self.store = store
        h.session.saveLastTempo = { tempo in
            do throws(OptionError) { try store.save(tempo) } catch { Issue.record("\(error.message)") }
        }
        h.session.controllerActions = [ActionBinding(.note(Self.stepButton), .tempoUp), ActionBinding(.note(Self.tapButton), .tap),
                                       ActionBinding(.controlChange(Self.stepPedal), .tempoUp), ActionBinding(.controlChange(Self.tapPedal), .tap)]
        h.session.bindActions(of: nil)
    }

    /// +1 BPM from `source` at `seconds` (OSC: `/tactus/nudge f 1`).
    func step(from source: WishSource, at seconds: Double) {
        press(source, key: .tempoStep(1), button: Self.stepButton, pedal: Self.stepPedal, remote: .nudge(hundredths: 100), at: seconds)
    }

    /// One tap from `source` at `seconds`.
    func tap(from source: WishSource, at seconds: Double) {
        press(source, key: .tap, button: Self.tapButton, pedal: Self.tapPedal, remote: .tap, at: seconds)
    }

    private func press(_ source: WishSource, key: KeyAction, button: UInt7, pedal: UInt7, remote: RemoteCommand, at seconds: Double) {
        let microseconds = ControlTime.seconds(seconds).microseconds
        switch source {
        case .keys:
            h.key(key, at: seconds)
        case .button:
            h.midi(.noteOn(channel: ch, note: button, velocity: UInt7(100)!), at: seconds)
            h.poll(at: seconds)
            h.midi(.noteOff(channel: ch, note: button, velocity: .zero), at: seconds)
        case .pedal:
            h.midi(.controlChange(channel: ch, controller: pedal, value: .max), at: seconds)
            h.poll(at: seconds)
            h.midi(.controlChange(channel: ch, controller: pedal, value: .zero), at: seconds)
        case .osc:
            h.clock.time = .seconds(seconds)
            #expect(h.session.perform(remote, at: microseconds, from: "OSC 127.0.0.1") == nil)
        }
    }

    /// What the file holds after the control thread's round at `seconds` (nil: no file).
    func file(at seconds: Double) -> BPM? {
        h.clock.time = .seconds(seconds)
        h.session.poll()
        return read()
    }

    /// What the file holds after the round a microsecond before `seconds`.
    func file(before seconds: Double) -> BPM? {
        h.clock.time = ControlTime.seconds(seconds) + -1
        h.session.poll()
        return read()
    }

    /// What the file holds once the run has ended (`finish`, on the way out).
    func fileAfterTheRun(at seconds: Double) -> BPM? {
        _ = file(at: seconds)
        h.session.finish()
        return read()
    }

    private func read() -> BPM? {
        do throws(OptionError) { return try store.load() } catch {
            Issue.record("\(error.message)")
            return nil
        }
    }
}

/// The documented rule (README "The last tempo", docs/DESIGN.md §5.7, §12.2): a
/// tempo step and a tap are the player's last tempo from the keys, a button and
/// a pedal, a tap from OSC too; a tempo an OSC client sets or nudges is not. The
/// file is written once the tempo has stood 2 s, not at the press, and on the
/// way out.
@Suite("The last-tempo file: a tap and a tempo step from the keys, a button, a pedal and OSC, by one rule")
struct LastTempoBySourceTests {
    @Test(arguments: WishSource.allCases)
    func aTempoStepIsWrittenOnceItHasStoodTwoSecondsAndNeverFromOSC(source: WishSource) {
        withTemporaryFolder { folder in
            let f = LastTempoFileHarness(folder: folder, tempo: 120)
            f.step(from: source, at: 1)
            #expect(f.h.tempo == BPM(121), "the step was heard")
            #expect(f.file(at: 1.5) == nil, "not at the press")
            if source == .osc {
                #expect(f.fileAfterTheRun(at: 10) == nil, "a tempo an OSC client nudges is not the player's last tempo")
            } else {
                #expect(f.file(before: 3) == nil, "not before it has stood 2 s")
                #expect(f.file(at: 3) == BPM(121))
                #expect(f.fileAfterTheRun(at: 10) == BPM(121))
            }
        }
    }

    @Test(arguments: WishSource.allCases)
    func aTapIsWrittenOnceItHasStoodTwoSeconds(source: WishSource) {
        withTemporaryFolder { folder in
            let f = LastTempoFileHarness(folder: folder, tempo: 100)
            f.tap(from: source, at: 1)
            f.tap(from: source, at: 1.5)
            #expect(f.h.tempo == BPM(120), "two taps half a second apart")
            #expect(f.file(at: 1.5) == nil, "not at the tap")
            #expect(f.file(before: 3.5) == nil, "not before it has stood 2 s")
            #expect(f.file(at: 3.5) == BPM(120))
            #expect(f.fileAfterTheRun(at: 10) == BPM(120))
        }
    }

    /// A tap or step not yet settled when the run ends is written on the way out.
    @Test(arguments: WishSource.allCases)
    func aTempoNotYetSettledIsWrittenOnTheWayOut(source: WishSource) {
        withTemporaryFolder { folder in
            let f = LastTempoFileHarness(folder: folder, tempo: 100)
            f.tap(from: source, at: 1)
            f.tap(from: source, at: 1.5)
            f.step(from: source, at: 2)
            #expect(f.h.tempo == BPM(121))
            // The run ends at 2.5 s: the step's 121 had not stood 2 s, the taps' 120 was overtaken.
            #expect(f.fileAfterTheRun(at: 2.5) == (source == .osc ? BPM(120) : BPM(121)))
        }
    }

    /// One settling for every source: a step from the keys, a button and a
    /// pedal half a second apart is one write, 2 s after the last.
    @Test func stepsFromEverySourceInARowAreOneWrite() {
        withTemporaryFolder { folder in
            let f = LastTempoFileHarness(folder: folder, tempo: 120)
            f.step(from: .keys, at: 1)
            f.step(from: .button, at: 1.5)
            f.step(from: .pedal, at: 2)
            #expect(f.h.tempo == BPM(123))
            #expect(f.file(at: 3) == nil)
            #expect(f.file(at: 3.5) == nil)
            #expect(f.file(before: 4) == nil)
            #expect(f.file(at: 4) == BPM(123))
        }
    }
}
