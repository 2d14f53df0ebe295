import Testing
@testable import TactusCLI
import TactusCore

/// The practice row of the display and the practice lines of the change log.
@Suite("Practice on the display and in the change log")
struct PracticeDisplayTests {
    @Test("The practice row: the map's label and bar within it, the trainer's next step, a gap bar as muted")
    func practiceRow() {
        let view = PracticeView(section: "verse", sectionBar: 2, sectionBars: 8, trainerStep: (BPM.Difference(hundredths: 100), 3), trainerTempo: BPM(81),
                                gapMuted: true)
        let lines = ScreenRenderer(width: 80, height: 24).render(DisplayModel(tempo: BPM(81), practice: view))
        #expect(lines.contains { $0.hasPrefix("practice") && $0.hasSuffix("section verse bar 2/8  trainer +1 in 3 bars  gap bar (muted)") })
        #expect(PracticeView(trainerStep: (BPM.Difference(hundredths: -250), 1), trainerTempo: BPM(90)).text == "trainer -2.50 in 1 bar")
        #expect(PracticeView(trainerTempo: BPM(120)).text == "trainer holding")
        #expect(!ScreenRenderer(width: 80, height: 24).render(DisplayModel(tempo: BPM(81))).contains { $0.hasPrefix("practice") })
    }

    /// `/tactus/trainer s` and `/tactus/gap s` show in the practice row as the
    /// options do; `off` takes them out, and the row with them.
    @Test("A trainer and a gap set by OSC show in the practice row; switched off, the row goes")
    func practiceRowFromOSC() throws {
        let h = SessionHarness(tempo: 80)
        func row() -> String? {
            ScreenRenderer(width: 80, height: 24).render(DisplayModel(engine: h.engine.pointee, session: h.session, ports: PortsStatus()))
                .first { $0.hasPrefix("practice") }
        }
        func osc(_ path: String, _ text: String) throws {
            let command = try RemoteCommandParser.parse(path: path, arguments: [.string(text)]).get()
            #expect(h.session.perform(command, at: 0, from: "OSC 127.0.0.1") == nil)
        }
        #expect(row() == nil)
        try osc("/tactus/trainer", "80-100/4")
        #expect(row()?.hasSuffix("trainer holding") == true, "\(row() ?? "no practice row")")
        // The engine runs the trainer: its next step, 4 bars away, as the status says.
        h.engine.pointee.status.tempoHundredths.store(8000, ordering: .relaxed)
        h.engine.pointee.status.trainerBarsToStep.store(4, ordering: .relaxed)
        h.engine.pointee.status.trainerNextHundredths.store(8100, ordering: .relaxed)
        #expect(row()?.hasSuffix("trainer +1 in 4 bars") == true, "\(row() ?? "no practice row")")
        try osc("/tactus/gap", "3/1")
        h.engine.pointee.status.gapMuted.store(true, ordering: .relaxed)
        #expect(row()?.hasSuffix("trainer +1 in 4 bars  gap bar (muted)") == true, "\(row() ?? "no practice row")")
        try osc("/tactus/trainer", "off")
        #expect(row()?.hasSuffix("gap bar (muted)") == true, "\(row() ?? "no practice row")")
        #expect(row()?.contains("trainer") == false, "\(row() ?? "no practice row")")
        try osc("/tactus/gap", "off")
        #expect(row() == nil)
    }

    @Test("The change log: section LABEL, trainer TEMPO, gap on|off, each once when it changes")
    func changeLogLines() {
        var log = ChangeLog()
        _ = log.changes(to: DisplayModel(tempo: BPM(80), practice: PracticeView(section: "intro", sectionBar: 1, sectionBars: 4, trainerTempo: BPM(80))))
        #expect(log.changes(to: DisplayModel(tempo: BPM(80), practice: PracticeView(section: "intro", sectionBar: 2, sectionBars: 4,
                                                                                       trainerTempo: BPM(80)))) == [])
        #expect(log.changes(to: DisplayModel(tempo: BPM(80), practice: PracticeView(section: "verse", sectionBar: 1, sectionBars: 8,
                                                                                       trainerTempo: BPM(81), gapMuted: true)))
                == ["section verse", "trainer 81 BPM", "gap on"])
        #expect(log.changes(to: DisplayModel(tempo: BPM(80), practice: PracticeView(section: "verse", sectionBar: 2, sectionBars: 8,
                                                                                       trainerTempo: BPM(81)))) == ["gap off"])
        // A looping map's entry again from its first bar is a new section line.
        #expect(log.changes(to: DisplayModel(tempo: BPM(80), practice: PracticeView(section: "verse", sectionBar: 1, sectionBars: 8,
                                                                                       trainerTempo: BPM(81)))) == ["section verse"])
    }

    @Test("The engine publishes the map entry and bar, the trainer's step and the gap at each beat")
    func engineStatus() {
        let map = TempoMap(sections: [MapSection(label: "a", bars: 2, tempo: .constant(120)), MapSection(bars: 3, tempo: .constant(120))])
        let timeline = MapTimeline(map)
        defer { timeline.deallocate() }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let sounds = SoundSet.synthesized(sampleRate: 48_000)
        defer { sounds.deallocate() }
        var engine = Engine(configuration: EngineConfiguration(sampleRate: 48_000, map: timeline, gap: GapTrainer(play: 2, mute: 1)), sounds: sounds)
        var events = MIDIEventBuffer(capacity: 1024)
        control.pointee.commands.push(.start)
        // Into bar 3 (the second entry's first bar, a gap bar: 2 heard, 1 silent).
        var ownTime = GivenPosition()
        engine.cycle(CycleInput(start: 0, frames: 2 * 96_000 + 1_000), source: &ownTime, control: control.pointee,
                     click: nil, feedback: nil, events: &events)
        var view = PracticeView(status: control.pointee.status, map: map, trainer: false)
        #expect(view.section == "entry 2" && view.sectionBar == 1 && view.sectionBars == 3 && view.gapMuted)
        engine.cycle(CycleInput(start: 2 * 96_000 + 1_000, frames: 96_000), source: &ownTime, control: control.pointee,
                     click: nil, feedback: nil, events: &events)
        view = PracticeView(status: control.pointee.status, map: map, trainer: false)
        #expect(view.section == "entry 2" && view.sectionBar == 2 && !view.gapMuted)
    }
}
