import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// In a meter whose beat is not the quarter note, the display
/// says which note the tempo counts and the MIDI clock's tempo, which counts
/// quarter notes (24 clocks a quarter note, MIDI 1.0).
@Suite("Screen renderer: the beat unit")
struct ScreenRendererBeatUnitTests {
    func tempoRow(_ model: DisplayModel, unicode: Bool, width: Int = 80) -> String {
        ScreenRenderer(width: width, height: 24, unicode: unicode).render(model)[2]
    }

    @Test func item7_theBeatUnitAndTheClocksQuarterNoteTempoAreShown() throws {
        // 7/8 at 133 eighths a minute: the clock runs at 66.5 quarter notes a minute.
        let seven = DisplayFixtures.playing
        #expect(tempoRow(seven, unicode: true) == "tempo   \u{266A} = 133   7/8   bar:beat 12:3   (MIDI clock \u{2669} = 66.5)")
        #expect(tempoRow(seven, unicode: false) == "tempo   1/8 = 133   7/8   bar:beat 12:3   (MIDI clock 1/4 = 66.5)")
        // A narrow screen cuts the clock's tempo first: meter and position stay.
        #expect(tempoRow(seven, unicode: true, width: 40) == "tempo   \u{266A} = 133   7/8   bar:beat 12:3")
        // Other units by their fraction; quarter-note meters as before, no clock tempo (it is the same).
        var m = DisplayModel(tempo: BPM(98), meter: Meter("6/16")!)
        #expect(tempoRow(m, unicode: true) == "tempo   1/16 = 98   6/16   bar:beat -:-   (MIDI clock \u{2669} = 24.5)")
        m = DisplayModel(tempo: BPM(60), meter: Meter("2/2")!)
        #expect(tempoRow(m, unicode: false) == "tempo   1/2 = 60   2/2   bar:beat -:-   (MIDI clock 1/4 = 120)")
        m = DisplayModel(tempo: BPM(133), meter: Meter("3/4")!)
        #expect(tempoRow(m, unicode: true) == "tempo   133 BPM   3/4   bar:beat -:-")

        // Glyphs when the locale is UTF-8 (LC_ALL, else LC_CTYPE, else LANG) and the terminal is not dumb.
        #expect(GlyphPolicy.unicode(environment: ["LANG": "en_GB.UTF-8", "TERM": "xterm-256color"]))
        #expect(GlyphPolicy.unicode(environment: ["LC_CTYPE": "de_DE.utf8"]))
        #expect(GlyphPolicy.unicode(environment: ["LANG": "en_GB.UTF-8", "NO_COLOR": "1"]))
        #expect(!GlyphPolicy.unicode(environment: ["LC_ALL": "C", "LANG": "en_GB.UTF-8"]))
        #expect(!GlyphPolicy.unicode(environment: ["LANG": "en_GB.UTF-8", "TERM": "dumb"]))
        #expect(!GlyphPolicy.unicode(environment: [:]))

        // The README says what MIDI defines: 24 clocks a quarter note, not a beat.
        let readme = try String(contentsOfFile: RepositoryFiles.root + "/README.md", encoding: .utf8)
        #expect(!readme.contains("×24 a beat"))
        #expect(readme.contains("0xF8 ×24 a quarter note"))
    }
}
