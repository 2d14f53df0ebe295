import Testing
@testable import TactusCLI
import TactusCore

/// The practice options as a musician types them, and the mistakes said back.
@Suite("Practice options")
struct PracticeOptionsTests {
    @Test("--trainer FROM-TO/BARS[:STEP]: the step's default is 1 toward TO; negative steps slow down")
    func trainer() throws {
        #expect(try OptionParser.parse(["--trainer", "80-120/10"]).trainer == SpeedTrainer(from: BPM(80), to: BPM(120), bars: 10, stepHundredths: 100))
        #expect(try OptionParser.parse(["--trainer", "120-90/4"]).trainer?.stepHundredths == -100)
        #expect(try OptionParser.parse(["--trainer", "120-90/4:-2.5"]).trainer == SpeedTrainer(from: BPM(120), to: BPM(90), bars: 4, stepHundredths: -250))
        #expect(try OptionParser.parse(["--trainer", "60-61.5/1:0.25"]).trainer?.stepHundredths == 25)
        for bad in ["80-120", "80/10", "0-120/10", "80-1200/10", "80-120/0", "80-120/10:0", "80-120/10:1.234", "80-120/x", "-120/10"] {
            #expect(throws: OptionError("tactus: --trainer '\(bad)' is not valid: " + OptionTable.trainerAllowed)) {
                try OptionParser.parse(["--trainer", bad])
            }
        }
        #expect(throws: OptionError("tactus: --trainer '80-120/10:-1': a step of -1 goes away from 120: STEP's sign is the direction from FROM to TO")) {
            try OptionParser.parse(["--trainer", "80-120/10:-1"])
        }
    }

    @Test("--gap PLAY/MUTE, --gap-random P, --seed N, --count-in BARS")
    func gapAndCountIn() throws {
        let o = try OptionParser.parse(["--gap", "3/1", "--gap-random", "0.2", "--seed", "7", "--count-in", "0", "--count-in-clock"])
        #expect(o.gapTrainer == GapTrainer(play: 3, mute: 1, probability: 0.2, seed: 7))
        #expect(o.countIn == CountIn(bars: 0, sendsClock: true))
        #expect(try OptionParser.parse([]).gapTrainer == nil)
        #expect(throws: OptionError("tactus: --gap '3' is not valid: " + OptionTable.gapAllowed)) { try OptionParser.parse(["--gap", "3"]) }
        #expect(throws: OptionError("tactus: --gap '3/0' is not valid: " + OptionTable.gapAllowed)) { try OptionParser.parse(["--gap", "3/0"]) }
        #expect(throws: OptionError("tactus: --count-in '17' is not valid: a number of bars from 0 to 16 (0: two beats)")) {
            try OptionParser.parse(["--count-in", "17"])
        }
    }

    @Test("What does not go together is refused before anything plays")
    func conflicts() throws {
        #expect(throws: OptionError("tactus: --trainer and --map do not go together: the tempo map sets the tempo")) {
            try OptionParser.parse(["--trainer", "80-120/10", "--map", "x.map"]).checkPractice()
        }
        #expect(throws: OptionError("tactus: the tempo is given twice: the speed trainer starts at its FROM tempo, and --bpm")) {
            try OptionParser.parse(["--trainer", "80-120/10", "-b", "90"]).checkPractice()
        }
        #expect(throws: OptionError("tactus: --count-in-clock needs a count-in: --count-in BARS")) {
            try OptionParser.parse(["--count-in-clock"]).checkPractice()
        }
        #expect(throws: OptionError("tactus: the speed trainer is given twice: '80-120/10' and --trainer")) {
            try OptionParser.parse(["--trainer", "80-90/1", "80-120/10"])
        }
    }
}
