import Testing
@testable import TactusCore

/// User presets win a Program Change number as they win a name.
@Suite("Presets: program number clashes")
struct PresetsProgramClashTests {
    func entry(_ name: String, program: Int?, origin: PresetEntry.Origin) -> PresetEntry {
        var preset = Preset(name: name, tempo: BPM(100))
        preset.program = program.flatMap(UInt7.init)
        return PresetEntry(preset: preset, file: "/\(origin.rawValue)/\(name).json", origin: origin)
    }

    @Test func item12_theUsersPresetTakesTheProgramNumberOfAShippedOne() {
        let library = PresetLibrary(shipped: [entry("Largo", program: 0, origin: .shipped), entry("Adagio", program: 1, origin: .shipped)],
                                    user: [entry("Mine", program: 0, origin: .user)])
        #expect(library.entries.map(\.preset.name) == ["Mine", "Adagio", "Largo"])
        #expect(library.index(forProgram: UInt7(0)!) == 0)
        // The shipped one is listed as if it had no number; its place in the list reaches it.
        #expect(library.entries[2].preset.program == nil)
        #expect((0..<3).map { library.programNumber(at: $0)?.value } == [0, 1, 2])
        #expect(library.shippedProgramsTaken.map(\.file) == ["/shipped/Largo.json"])
        #expect(library.shippedProgramsTaken.first?.preset.program == UInt7(0))
        #expect(library.problems.isEmpty)
        // Within one folder the first in list order still keeps it, and the other is reported.
        let twoUsers = PresetLibrary(shipped: [], user: [entry("A", program: 5, origin: .user), entry("B", program: 5, origin: .user)])
        #expect(twoUsers.index(forProgram: UInt7(5)!) == 0)
        #expect(twoUsers.problems.map(\.file) == ["/user/B.json"])
    }
}
