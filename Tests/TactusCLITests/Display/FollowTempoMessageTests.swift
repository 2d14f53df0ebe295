import Testing
@testable import TactusCLI
import TactusCore

/// While JACK transport follow owns the tempo (docs/DESIGN.md §13.4), the control
/// session says a refused tempo: the player's keys and pressure once a hold (or
/// a key), the engine's own tempi (the trainer's, a tempo map's steps) once a run.
@Suite("Control session: a tempo refused while following is said once a key, the engine's once a run")
struct FollowTempoMessageTests {
    static let owner = "the JACK timebase master"
    static let keys = "the tempo is the JACK timebase master's: keys and pressure do not change it while following"
    static let steps = "the tempo is the JACK timebase master's: the trainer's and a tempo map's steps do not change it while following"

    /// What `JackMetronome.refusedEngineTempi` would say: the engine's own tempi refused so far.
    final class Refusals {
        var count = 0
    }

    /// A session following the JACK timebase master, its refusals counted by `refused`.
    func following(_ refused: Refusals) -> SessionHarness {
        let h = SessionHarness(tempo: 120)
        h.session.tempoOwner = Self.owner
        h.session.refusedEngineTempi = { refused.count }
        return h
    }

    @Test func theEnginesRefusedTempoIsSaidOnceARun() {
        let refused = Refusals()
        let h = following(refused)
        h.poll(at: 0.1)
        #expect(h.session.message == nil)
        refused.count = 1
        h.poll(at: 0.2)
        #expect(h.session.message == Self.steps)
        // Gone after its 5 s; the trainer's next steps are not said again.
        refused.count = 3
        h.poll(at: 5.3)
        #expect(h.session.message == nil)
        refused.count = 4
        h.poll(at: 20)
        #expect(h.session.message == nil)
    }

    @Test func eachTempoKeyIsSaidAndTheEnginesStepStillOnce() {
        let refused = Refusals()
        let h = following(refused)
        h.poll(at: 0.1)
        h.key(.tempoStep(1), at: 1)
        #expect(h.session.message == Self.keys)
        #expect(h.tempo == BPM(121), "asked of the engine, which hands it to the source")
        // The key clears the message; the next key says it again.
        h.key(.tempoStep(-1), at: 2)
        #expect(h.session.message == Self.keys)
        // A key's refusal is not counted here (the engine counts only its own), and a trainer step is said besides.
        refused.count = 1
        h.poll(at: 8)
        #expect(h.session.message == Self.steps)
    }

    @Test func notFollowingNothingIsSaidAndFollowingLaterStartsFromTheTempoAsItIs() {
        let refused = Refusals()
        let h = SessionHarness(tempo: 120)
        h.session.refusedEngineTempi = { refused.count }
        h.key(.tempoStep(1), at: 1)
        refused.count = 1
        h.poll(at: 1.1)
        #expect(h.session.message == nil)
        // A preset switches to follow: the tempo moved before is not the player's now.
        h.session.tempoOwner = Self.owner
        h.poll(at: 1.2)
        #expect(h.session.message == nil)
        refused.count = 2
        h.poll(at: 1.3)
        #expect(h.session.message == Self.steps)
    }
}
