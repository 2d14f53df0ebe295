import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// `tactus presets check` says everything at once and
/// takes names; a user preset wins a Program Change number as it wins a name.
@Suite("tactus presets: the first hour")
struct PresetsFirstHourTests {
    typealias Folders = PresetsCommandTests.Folders

    func options(_ words: [String]) throws -> Options { try OptionParser.parse(words) }

    @Test func item11_checkReportsEveryErrorOfAFileAtOnceAndTakesNames() throws {
        let f = Folders()
        f.write("junk.wav", "not audio")
        let many = f.write("many.json", #"{ "format": 1, "name": "Many", "tempo": 100, "meter": "7/8", "accents": "X.x", "#
                           + #""sounds": { "accent": { "sample": "missing.wav" }, "beat": { "sample": "junk.wav" } } }"#)
        let out = PresetsCommand.output(try options(["presets", "check", many]), directories: f.directories)
        #expect(out.status == 2)
        #expect(out.standardOutput.isEmpty)
        #expect(out.standardError.count == 3, "\(out.standardError)")
        #expect(out.standardError.first == "\(many): line 1, column 73: accents: \"X.x\" has 3 beats but the meter 7/8 has 7; allowed: 7 symbols, one a beat: X accent, x normal, o soft, . silent")
        #expect(out.standardError.dropFirst().first == "\(many): line 1, column 114: sounds.accent.sample: cannot read \(f.root)/missing.wav: No such file or directory; "
                + "allowed: \"builtin\" or the path of a .wav file (absolute, ~/…, or relative to the preset file)")
        #expect(out.standardError.last?.hasPrefix("\(many): line 1, column 151: sounds.beat.sample: cannot read '\(f.root)/junk.wav': Format not recognised.") == true)

        // A name, as --preset takes it, checks that preset's file; a name mistyped says which was meant.
        let shipped = PresetDirectories(shipped: PresetDirectories.standard(environment: [:], executablePath: PresetDirectories.currentExecutable).shipped, user: nil)
        let waltz = PresetsCommand.output(try options(["presets", "check", "Waltz"]), directories: shipped)
        #expect(waltz == PresetsCommand.Output(status: 0, standardOutput: ["ok \(shipped.shipped!)/waltz.json: Waltz, 168 BPM, 3/4"], standardError: []))
        let typo = PresetsCommand.output(try options(["presets", "check", "Walz"]), directories: shipped)
        #expect(typo == PresetsCommand.Output(status: 2, standardOutput: [], standardError: [
            "Walz: no preset is named \"Walz\" and there is no such file (did you mean Waltz?); allowed: a preset name (tactus presets lists them) or a preset file",
        ]))
    }

    @Test func item12_aUserPresetTakesAShippedProgramNumberAndTheListShowsTheNumberThatReachesEach() throws {
        let f = Folders()
        let largo = f.write("shipped/largo.json", #"{ "format": 1, "name": "Largo", "program": 0, "tempo": 50 }"#)
        let adagio = f.write("shipped/adagio.json", #"{ "format": 1, "name": "Adagio", "program": 1, "tempo": 70 }"#)
        let mine = f.write("user/mine.json", #"{ "format": 1, "name": "Mine", "program": 0, "tempo": 90 }"#)
        let list = PresetsCommand.output(try options(["presets"]), directories: f.directories)
        #expect(list == PresetsCommand.Output(status: 0, standardOutput: [
            "PROGRAM  NAME    TEMPO  METER  FILE",
            "      0  Mine       90  4/4    \(mine)",
            "      1  Adagio     70  4/4    \(adagio)",
            "      2  Largo      50  4/4    \(largo)",
        ], standardError: []))
        // check warns about the clash (it is not an error) on both files.
        let check = PresetsCommand.output(try options(["presets", "check", mine, largo]), directories: f.directories)
        #expect(check == PresetsCommand.Output(status: 0, standardOutput: ["ok \(mine): Mine, 90 BPM, 4/4", "ok \(largo): Largo, 50 BPM, 4/4"], standardError: [
            "warning: \(mine): program: 0 is also the program of shipped preset \"Largo\" (\(largo)); this preset gets it (a user preset wins over a shipped one)",
            "warning: \(largo): program: 0 is also the program of user preset \"Mine\" (\(mine)); \"Mine\" gets it (a user preset wins over a shipped one)",
        ]))
    }
}
