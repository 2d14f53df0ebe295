import Testing
@testable import TactusCore

/// docs/DESIGN.md §3.8: with alignment shifts, each output leaves on its grid
/// frame plus its own shift (plus the `--clock-offset` trim), and a shift
/// changed mid-run neither loses nor doubles an event.
@Suite("Latency alignment")
struct OutputAlignmentTests {
    static let rate: Int64 = 48_000

    static func recorder(bpm: BPM, sync: String, shifts: OutputShifts?, offset: Int32 = 0) -> SyncRecorder {
        let r = SyncRecorder(EngineConfiguration(sampleRate: Int(rate), tempo: bpm, clockOffsetFrames: offset,
                                                 sync: SyncSettings(kind: SyncKind(parsing: sync)!)))
        if let shifts { r.send(.setAlignment(shifts)) }
        r.send(.start)
        return r
    }

    static func ticks(_ r: SyncRecorder) -> [Int64] { r.frames(ofStatus: MIDIStatus.timingClock) }

    @Test("the clock tick and the sync edge are exactly the click's frame plus their shifts",
          arguments: [(OutputShifts(click: 0, clock: 384, sync: 512), Int32(0)),
                      (OutputShifts(click: 384, clock: 0, sync: 128), Int32(0)),
                      (OutputShifts(click: 100, clock: 0, sync: 50), Int32(-30)),
                      (OutputShifts(click: 0, clock: 384, sync: 512), Int32(7))])
    func shiftsOnTheClick(shifts: OutputShifts, offset: Int32) {
        let total = 10 * Self.rate
        let reference = Self.recorder(bpm: BPM(97.3), sync: "volca", shifts: nil)
        reference.run(frames: total + 4096)
        let r = Self.recorder(bpm: BPM(97.3), sync: "volca", shifts: shifts, offset: offset)
        r.run(frames: total + 4096)
        let click = Int64(shifts.click) + Int64(max(0, -offset))
        let clock = Int64(shifts.clock) + Int64(max(0, offset))
        let sync = Int64(shifts.sync) + Int64(max(0, -offset))
        let clicks = reference.clickOnsets.filter { $0 < total }
        #expect(clicks.count > 15)
        #expect(r.clickOnsets.filter { $0 < total + click } == clicks.map { $0 + click })
        #expect(Self.ticks(r).filter { $0 < total + clock } == Self.ticks(reference).filter { $0 < total }.map { $0 + clock })
        #expect(r.clockEdges.filter { $0 < total + sync } == reference.clockEdges.filter { $0 < total }.map { $0 + sync })
        // Each click's beat: its tick and its sync pulse, each exactly its shift after the click (the grid frame is one).
        let ticks = Set(Self.ticks(r)), edges = Set(r.clockEdges)
        for onset in r.clickOnsets where onset < total {
            let grid = onset - click
            #expect(ticks.contains(grid + clock), "tick of the click at \(onset)")
            #expect(edges.contains(grid + sync), "sync pulse of the click at \(onset)")
        }
    }

    @Test("a shift changed mid-run (down past the pulse spacing, then up) drops and doubles nothing",
          arguments: [BPM(97.3), BPM(240)])
    func changeMidRun(bpm: BPM) {
        let first = OutputShifts(click: 0, clock: 384, sync: 512)
        let second = OutputShifts(click: 512, clock: 0, sync: 0)
        let (change, back, total) = (5 * Self.rate, 10 * Self.rate, 15 * Self.rate)
        let reference = Self.recorder(bpm: bpm, sync: "din48", shifts: nil)
        reference.run(frames: total)
        let r = Self.recorder(bpm: bpm, sync: "din48", shifts: first)
        // Blocks of 256 frames: the change and the way back land on a block's first frame.
        r.run(frames: change)
        r.send(.setAlignment(second))
        r.run(frames: back - change)
        r.send(.setAlignment(first))
        r.run(frames: total - back + 1024)

        // The queue sent before a change keeps its frames, and a shorter delay
        // never goes before it: the new shift holds once that queue is out.
        let settle: Int64 = 4096
        for (name, got, ref, old, new) in [("clock", Self.ticks(r), Self.ticks(reference), first.clock, second.clock),
                                           ("sync", r.clockEdges, reference.clockEdges, first.sync, second.sync),
                                           ("click", r.clickOnsets, reference.clickOnsets, first.click, second.click)] {
            // Every event of the reference's 15 s, once: with the last shift, those of grid frames before `total`.
            let sent = got.filter { $0 < total + Int64(old) }
            #expect(sent.count == ref.count, "\(name): \(sent.count) sent, \(ref.count) on the grid")
            #expect(zip(sent, sent.dropFirst()).allSatisfy { $0 <= $1 }, "\(name) in frame order")
            var checked = (0, 0)
            for (g, f) in zip(sent, ref) {
                if f < change || f >= back + settle {
                    #expect(g == f + Int64(old), "\(name): grid frame \(f)")
                    checked.0 += 1
                } else if f >= change + settle && f < back {
                    #expect(g == f + Int64(new), "\(name): grid frame \(f), shift \(old) → \(new)")
                    checked.1 += 1
                }
            }
            #expect(checked.0 > 4 && checked.1 > 2, "\(name): \(checked)")
        }
        // Every sync pulse kept its own rising edge: none merged into the one before.
        #expect(zip(r.clockEdges, r.clockEdges.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("the shifts delay every output by the longest connected path minus its own; an unconnected one is left alone")
    func aligning() {
        #expect(OutputShifts.aligning(click: 512, clock: 128, sync: 0, limit: 48_000) == OutputShifts(click: 0, clock: 384, sync: 512))
        #expect(OutputShifts.aligning(click: 256, clock: 1024, sync: nil, limit: 48_000) == OutputShifts(click: 768, clock: 0, sync: 0))
        #expect(OutputShifts.aligning(click: nil, clock: nil, sync: nil, limit: 48_000) == OutputShifts())
        #expect(OutputShifts.aligning(click: 100_000, clock: 0, sync: nil, limit: 48_000) == OutputShifts(click: 0, clock: 48_000, sync: 0))
    }
}
